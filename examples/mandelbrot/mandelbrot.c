/* The Mandelbrot set with batchdiff: the classic divergent loop.
 *
 * escape() iterates z = z^2 + c for one point until |z| > 2 or maxit steps.
 * Neighbouring points leave the loop after very different numbers of steps;
 * escape_batched runs 4 points per vector (doubles, AVX2; 8 with AVX-512),
 * and each vector keeps iterating until its slowest point is done, the
 * finished lanes masked off. The program measures what that costs: the time
 * against a scalar loop, and the lane utilisation (useful iterations /
 * iterations the vectors ran), in the image's order (neighbours escape alike)
 * and with the same points shuffled (every vector waits for its slowest point).
 *
 * Usage: mandelbrot [width [maxit]]       (default 800 (x 600), 256)
 *
 * Writes mandelbrot.dat (escape counts, a matrix; `gnuplot plot.gp` draws
 * mandelbrot.png). Exits with status 1 if the batched counts differ from the
 * scalar ones or the area of the set is far from its known value. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <batchdiff.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ---- the model: ordinary C ----------------------------------------------- */

/* Steps until z_{k+1} = z_k^2 + c leaves |z| <= 2 (maxit: it never did). */
__attribute__((batch)) int escape(double cx, double cy, BD_UNIFORM int maxit) {
  double x = 0.0, y = 0.0;
  int i = 0;
  while (i < maxit && x * x + y * y <= 4.0) {
    double t = x * x - y * y + cx;
    y = 2.0 * x * y + cy;
    x = t;
    i++;
  }
  return i;
}

/* ---- measuring --------------------------------------------------------------
 */

static double bd_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((noinline)) static void
bd_scalar(size_t n, const double *cx, const double *cy, int maxit, int *out) {
  for (size_t i = 0; i < n; i++)
    out[i] = escape(cx[i], cy[i], maxit);
}

/* Useful iterations / iterations run, for vectors of w consecutive points
 * (each runs as long as its slowest point; every point makes one more
 * test than it iterates, which we ignore). */
static double bd_utilisation(size_t n, const int *it, int w) {
  double used = 0.0, ran = 0.0;
  for (size_t i = 0; i < n; i += (size_t)w) {
    int mx = 0;
    for (size_t k = i; k < i + (size_t)w && k < n; k++) {
      used += it[k];
      mx = it[k] > mx ? it[k] : mx;
    }
    ran += (double)mx * w;
  }
  return ran > 0.0 ? used / ran : 1.0;
}

static int bd_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 800,
      maxit = argc > 2 ? atoi(argv[2]) : 256;
  if (w < 8 || w > 8192 || maxit < 16) {
    fprintf(stderr, "usage: %s [width 8..8192 [maxit >= 16]]\n", argv[0]);
    return 2;
  }
  int h = w * 3 / 4;
  size_t n = (size_t)w * h;
  double *cx = malloc(n * sizeof *cx), *cy = malloc(n * sizeof *cy);
  int *it = malloc(n * sizeof *it), *ref = malloc(n * sizeof *ref);
  double *sx = malloc(n * sizeof *sx), *sy = malloc(n * sizeof *sy);
  int *sit = malloc(n * sizeof *sit);
  FILE *dat = fopen("mandelbrot.dat", "w");
  if (!cx || !cy || !it || !ref || !sx || !sy || !sit || !dat) {
    fprintf(stderr, "mandelbrot: out of memory or cannot write\n");
    return 2;
  }
  for (int y = 0; y < h; y++) /* [-2.5, 1] x [-1.3125, 1.3125] */
    for (int x = 0; x < w; x++) {
      cx[(size_t)y * w + x] = -2.5 + 3.5 * (x + 0.5) / w;
      cy[(size_t)y * w + x] = 1.3125 - 2.625 * (y + 0.5) / h;
    }

  unsigned long long seed = 42; /* the same points, shuffled */
  for (size_t i = 0; i < n; i++)
    sx[i] = cx[i], sy[i] = cy[i];
  for (size_t i = n - 1; i > 0; i--) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    size_t k = (size_t)((seed >> 11) % (i + 1));
    double tx = sx[i], ty = sy[i];
    sx[i] = sx[k], sy[i] = sy[k], sx[k] = tx, sy[k] = ty;
  }

  double tb = 1e30, ts = 1e30, tsh = 1e30; /* best of 3: less noise */
  for (int r = 0; r < 3; r++) {
    double t0 = bd_now();
    escape_batched(n, cx, cy, maxit, it);
    double t1 = bd_now();
    bd_scalar(n, cx, cy, maxit, ref);
    double t2 = bd_now();
    escape_batched(n, sx, sy, maxit, sit);
    double t3 = bd_now();
    tb = fmin(tb, t1 - t0);
    ts = fmin(ts, t2 - t1);
    tsh = fmin(tsh, t3 - t2);
  }
  size_t differ = 0, inside = 0;
  for (size_t i = 0; i < n; i++) {
    differ += it[i] != ref[i];
    inside += it[i] == maxit;
  }
  /* the set's area is about 1.5066 */
  double area = 3.5 * 2.625 * (double)inside / (double)n;
  int bad = differ != 0 || !(area > 1.3 && area < 1.8);

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++)
      fprintf(dat, "%d ", it[(size_t)y * w + x]);
    fprintf(dat, "\n");
  }
  fclose(dat);

  printf("%dx%d points, at most %d iterations\n", w, h, maxit);
  printf("escape_batched vs escape: %zu of %zu counts differ %s\n", differ, n,
         differ ? "FAIL" : "ok");
  printf("area of the set %.3f (known: 1.507; this grid and maxit: within "
         "1.3..1.8) %s\n",
         area, area > 1.3 && area < 1.8 ? "ok" : "FAIL");
  printf("\nlane utilisation with 4 lanes (doubles, AVX2; 8 lanes, AVX-512, "
         "in parentheses):\n");
  printf("  image order %.0f%% (%.0f%%), shuffled %.0f%% (%.0f%%)\n",
         100 * bd_utilisation(n, ref, 4), 100 * bd_utilisation(n, ref, 8),
         100 * bd_utilisation(n, sit, 4), 100 * bd_utilisation(n, sit, 8));
  qsort(sit, n, sizeof *sit, bd_cmp_int);
  printf("  sorted by escape time %.0f%%\n", 100 * bd_utilisation(n, sit, 4));
  printf("time (best of 3), ms: scalar loop %.2f; escape_batched %.2f in image "
         "order (%.2fx), %.2f shuffled (%.2fx)\n",
         1e3 * ts, 1e3 * tb, ts / tb, 1e3 * tsh, ts / tsh);
  printf("wrote mandelbrot.dat (gnuplot plot.gp draws mandelbrot.png)\n");
  free(cx), free(cy), free(it), free(ref), free(sx), free(sy), free(sit);
  return bad ? 1 : 0;
}
