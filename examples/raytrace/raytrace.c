/* A differentiable ray tracer with batchdiff: spheres on a checkered plane,
 * one point light, shadows and up to MAXBOUNCE mirror bounces per pixel.
 *
 * pixel() computes one colour channel of one pixel. Pixels take different
 * paths (which object a ray hits, whether it is in shadow, how many times
 * it bounces): pixel_batched runs them side by side under execution masks,
 * and pixel_grad gives each pixel's derivative with respect to the light's
 * position along the path that pixel took.
 *
 * The program renders a target image with the light at x = 1.5, then starts
 * from x = -2 and fits the light's x by gradient descent on the squared
 * pixel error: the gradient is ONE pixel_grad call per step, seeded with
 * d_ret = 2 (I - target), and the uniform shadow d_lx sums it over the
 * image.
 *
 * Usage: raytrace [width [steps]]       (default 320 pixels wide, 40 steps)
 *
 * Writes raytrace.png (target | start | fitted) and raytrace_loss.dat
 * (`gnuplot plot.gp` draws raytrace_loss.png). Exits with status 1 if the
 * batched image differs from the scalar one by more than rounding, if the
 * pixel derivatives disagree with finite differences, or if the fit does
 * not find the light. */
#include <batchdiff.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "png.h"

enum { NS = 3, MAXBOUNCE = 3 };

/* ---- the renderer: ordinary C -------------------------------------------- */

/* Distance along the unit ray o + t d to the sphere (cx, cy, cz, r), or -1. */
static inline double bd_hit_sphere(double ox, double oy, double oz, double dx,
                                   double dy, double dz, double cx, double cy,
                                   double cz, double r) {
  double px = cx - ox, py = cy - oy, pz = cz - oz;
  double b = px * dx + py * dy + pz * dz;
  double disc = b * b - (px * px + py * py + pz * pz - r * r);
  if (disc <= 0.0)
    return -1.0;
  double t = b - sqrt(disc);
  return t > 1e-6 ? t : -1.0;
}

/* Channel c (0 red, 1 green, 2 blue) of the pixel at (u, v) in [-1, 1]^2,
 * light at (lx, 3, 0.5): linear intensity. */
BATCHDIFF double pixel(BD_NODIFF double u, BD_NODIFF double v, int c,
                       BD_UNIFORM double lx) {
  double sph[4 * NS] = {-1.1, 0.7,  1.6, 0.7, 0.5, 0.45,
                        0.7,  0.45, 1.3, 1.0, 3.0, 1.0};
  double alb[3 * NS] = {0.9, 0.2, 0.15, 0.2, 0.8, 0.3, 0.3, 0.4, 0.9};
  double refl[NS] = {0.3, 0.0, 0.6};
  double ly = 3.0, lz = 0.5;
  double ox = 0.0, oy = 1.2, oz = -2.2;
  double dx = 0.75 * u, dy = 0.55 * v - 0.2, dz = 1.0;
  double dn = sqrt(dx * dx + dy * dy + dz * dz);
  dx /= dn, dy /= dn, dz /= dn;
  double out = 0.0, through = 1.0;
  for (int bounce = 0; bounce < MAXBOUNCE; bounce++) {
    double best = 100.0; /* nothing counts beyond 100 */
    int hit = -1;
    for (int k = 0; k < NS; k++) {
      double t = bd_hit_sphere(ox, oy, oz, dx, dy, dz, sph[4 * k],
                               sph[4 * k + 1], sph[4 * k + 2], sph[4 * k + 3]);
      if (t > 0.0 && t < best) {
        best = t;
        hit = k;
      }
    }
    if (dy < 0.0 && -oy / dy < best) {
      best = -oy / dy;
      hit = NS; /* the plane y = 0 */
    }
    if (hit < 0) { /* the sky */
      out += through * (c == 2 ? 0.9 : 0.55 + 0.1 * c) * (0.6 + 0.4 * dy);
      break;
    }
    double px = ox + best * dx, py = oy + best * dy, pz = oz + best * dz;
    double nx = 0.0, ny = 1.0, nz = 0.0, a, rf = 0.0;
    if (hit == NS) {
      int check = ((int)floor(px) + (int)floor(pz)) & 1;
      a = check ? 0.85 : 0.25;
      rf = 0.15;
    } else {
      double r = sph[4 * hit + 3];
      nx = (px - sph[4 * hit]) / r;
      ny = (py - sph[4 * hit + 1]) / r;
      nz = (pz - sph[4 * hit + 2]) / r;
      a = alb[3 * hit + c];
      rf = refl[hit];
    }
    /* shadow ray towards the light */
    double qx = lx - px, qy = ly - py, qz = lz - pz;
    double dist = sqrt(qx * qx + qy * qy + qz * qz);
    qx /= dist, qy /= dist, qz /= dist;
    double lit = 1.0;
    for (int k = 0; k < NS; k++) {
      double t = bd_hit_sphere(px + 1e-4 * nx, py + 1e-4 * ny, pz + 1e-4 * nz,
                               qx, qy, qz, sph[4 * k], sph[4 * k + 1],
                               sph[4 * k + 2], sph[4 * k + 3]);
      if (t > 0.0 && t < dist)
        lit = 0.0;
    }
    double lambert = fmax(0.0, nx * qx + ny * qy + nz * qz);
    out += through * (1.0 - rf) * a * (0.08 + 0.92 * lit * lambert);
    if (rf == 0.0)
      break;
    through *= rf; /* mirror bounce */
    double dd = dx * nx + dy * ny + dz * nz;
    dx -= 2.0 * dd * nx, dy -= 2.0 * dd * ny, dz -= 2.0 * dd * nz;
    ox = px + 1e-4 * nx, oy = py + 1e-4 * ny, oz = pz + 1e-4 * nz;
  }
  return out;
}

/* ---- the image as a batch --------------------------------------------- */

typedef struct {
  int w, h;
  size_t n;      /* w * h * 3 examples: every channel of every pixel */
  double *u, *v; /* per example */
  int *c;
  double *img, *target, *seed, *tmp;
} bd_image;

static int bd_image_init(bd_image *im, int w) {
  im->w = w;
  im->h = w * 3 / 4;
  im->n = (size_t)im->w * (size_t)im->h * 3;
  double **d[] = {&im->u, &im->v, &im->img, &im->target, &im->seed, &im->tmp};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
    if (!(*d[i] = malloc(im->n * sizeof(double))))
      return 1;
  if (!(im->c = malloc(im->n * sizeof(int))))
    return 1;
  for (int y = 0; y < im->h; y++)
    for (int x = 0; x < im->w; x++)
      for (int c = 0; c < 3; c++) {
        size_t b = ((size_t)y * im->w + x) * 3 + c;
        im->u[b] = (2.0 * x + 1.0) / im->w - 1.0;
        im->v[b] = 1.0 - (2.0 * y + 1.0) / im->h;
        im->c[b] = c;
      }
  return 0;
}

static void bd_image_free(bd_image *im) {
  free(im->u), free(im->v), free(im->c), free(im->img), free(im->target);
  free(im->seed), free(im->tmp);
}

/* Squared error of the image rendered with light x = lx; with g != NULL,
 * also its derivative d loss / d lx. */
static double bd_loss(bd_image *im, double lx, double *g) {
  pixel_batched(im->n, im->u, im->v, im->c, lx, im->img);
  double l = 0.0;
  for (size_t b = 0; b < im->n; b++) {
    double e = im->img[b] - im->target[b];
    l += e * e;
    im->seed[b] = 2.0 * e; /* d loss / d pixel */
  }
  if (g) {
    *g = 0.0;
    pixel_grad(im->n, im->u, im->v, im->c, lx, NULL, im->seed, g);
  }
  return l / (double)im->n;
}

/* pixel_batched against pixel: counts the values that differ in any bit,
 * returns the largest difference. */
static double bd_check_batched(const bd_image *im, double lx, size_t *differ) {
  pixel_batched(im->n, im->u, im->v, im->c, lx, im->tmp);
  double err = 0.0;
  for (size_t b = 0; b < im->n; b++) {
    double s = pixel(im->u[b], im->v[b], im->c[b], lx);
    *differ += s != im->tmp[b];
    err = fmax(err, fabs(s - im->tmp[b])); /* NaN: err stays, see below */
    if (s != s || im->tmp[b] != im->tmp[b])
      err = INFINITY;
  }
  return err;
}

/* Each pixel's d pixel / d lx against central differences of the scalar
 * pixel(), skipping pixels whose path changes within the step (a shadow
 * edge: two step sizes disagree). Returns the largest relative error. */
static double bd_check_grad(bd_image *im, double lx, size_t *checked) {
  for (size_t b = 0; b < im->n; b++)
    im->tmp[b] = 0.0;
  double *d = im->tmp, dlx = 0.0;
  /* per-pixel derivatives: one example at a time (varying seeds would sum
   * into the one uniform shadow) */
  double err = 0.0;
  *checked = 0;
  for (size_t b = 0; b < im->n; b += 7) {
    dlx = 0.0;
    pixel_grad(1, im->u + b, im->v + b, im->c + b, lx, NULL, NULL, &dlx);
    d[b] = dlx;
    double h = 1e-6, f[4];
    for (int k = 0; k < 4; k++) {
      double s = (k & 1 ? -1.0 : 1.0) * (k < 2 ? h : 2 * h);
      f[k] = pixel(im->u[b], im->v[b], im->c[b], lx + s);
    }
    double fd1 = (f[0] - f[1]) / (2 * h), fd2 = (f[2] - f[3]) / (4 * h);
    if (fabs(fd1 - fd2) > 1e-6 * (fabs(fd1) + 1e-3))
      continue; /* a kink inside the step */
    err = fmax(err, fabs(dlx - fd1) / (fabs(fd1) + 1e-3));
    ++*checked;
  }
  return err;
}

static void bd_to_rgb(const bd_image *im, const double *lin, unsigned char *rgb,
                      int stride, int x0) {
  for (int y = 0; y < im->h; y++)
    for (int x = 0; x < im->w; x++)
      for (int c = 0; c < 3; c++) {
        double s = lin[((size_t)y * im->w + x) * 3 + c];
        s = pow(fmin(fmax(s, 0.0), 1.0), 1.0 / 2.2); /* gamma */
        rgb[((size_t)y * stride + x0 + x) * 3 + c] =
            (unsigned char)(255.0 * s + 0.5);
      }
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 320, steps = argc > 2 ? atoi(argv[2]) : 40;
  if (w < 16 || w > 4096 || steps < 1) {
    fprintf(stderr, "usage: %s [width 16..4096 [steps >= 1]]\n", argv[0]);
    return 2;
  }
  bd_image im;
  if (bd_image_init(&im, w)) {
    fprintf(stderr, "raytrace: out of memory\n");
    return 2;
  }
  const double true_lx = 1.5, start_lx = -2.0;
  size_t np = (size_t)im.w * im.h;
  int W3 = 3 * im.w;
  unsigned char *rgb = malloc((size_t)W3 * im.h * 3);
  FILE *dat = fopen("raytrace_loss.dat", "w");
  if (!rgb || !dat) {
    fprintf(stderr, "raytrace: out of memory or cannot write\n");
    return 2;
  }
  pixel_batched(im.n, im.u, im.v, im.c, true_lx, im.target);
  bd_to_rgb(&im, im.target, rgb, W3, 0);

  size_t diff = 0, checked;
  double berr = fmax(bd_check_batched(&im, start_lx, &diff),
                     bd_check_batched(&im, true_lx, &diff));
  double gerr = bd_check_grad(&im, start_lx + 0.3, &checked);
  int bad = !(berr < 1e-12) || !(gerr < 1e-5) || checked < im.n / 7 / 2;
  printf("%dx%d pixels, 3 channels: %zu examples per call\n", im.w, im.h, im.n);
  /* Bit for bit where clang contracts a * b + c the same way in both; at
   * -O2 with FMA, LLVM may fold some of the scalar loop's fmuladds after
   * unrolling (see README.md), so the check allows rounding. */
  printf("pixel_batched vs pixel (2 images): %zu values differ in the last "
         "bits, max abs. difference %.1e %s\n",
         diff, berr, berr < 1e-12 ? "ok" : "FAIL");
  printf("d pixel / d lx vs central differences: %zu pixels (off shadow "
         "edges), max rel. error %.1e %s\n\n",
         checked, gerr, gerr < 1e-5 ? "ok" : "FAIL");

  /* Gradient descent, lx -= rate * g, with the rate adapted: grown after a
   * step that lowered the loss, halved (and the step undone) otherwise. */
  double lx = start_lx, g, l = bd_loss(&im, lx, &g), first = l;
  double rate = 0.25 / fabs(g); /* a first step of 0.25 */
  bd_to_rgb(&im, im.img, rgb, W3, im.w);
  fprintf(dat, "# step loss light_x\n0 %.9g %.9g\n", l, lx);
  printf("%5s %12s %9s %12s\n", "step", "loss", "light x", "d loss/d x");
  printf("%5d %12.6e %9.5f %12.4e\n", 0, l, lx, g);
  for (int s = 1; s <= steps; s++) {
    double gn, nl = bd_loss(&im, lx - rate * g, &gn);
    if (nl < l) {
      lx -= rate * g, l = nl, g = gn;
      rate *= 1.5;
    } else {
      rate *= 0.5;
    }
    fprintf(dat, "%d %.9g %.9g\n", s, l, lx);
    if (s % 5 == 0 || s == steps)
      printf("%5d %12.6e %9.5f %12.4e\n", s, l, lx, g);
  }
  fclose(dat);
  bd_loss(&im, lx, NULL);
  bd_to_rgb(&im, im.img, rgb, W3, 2 * im.w);
  int wrote = bd_png_write("raytrace.png", W3, im.h, rgb) == 0;
  int found = fabs(lx - true_lx) < 0.02 && l < 1e-3 * first;
  printf("\nlight x %.5f (true %.1f), loss %.2e -> %.2e: %s\n", lx, true_lx,
         first, l, found ? "found" : "FAIL");
  printf("%s raytrace.png (target | start | fitted, %zu pixels each) and "
         "raytrace_loss.dat\n",
         wrote ? "wrote" : "FAILED to write", np);
  bad += !found + !wrote;
  free(rgb);
  bd_image_free(&im);
  return bad ? 1 : 0;
}
