/* Gradient noise as it is found in the wild: file-scope tables of char and
 * short elements indexed by per-example integers (narrow gathers).
 *   - noise3: Ken Perlin's "Improved Noise" (2002) in C, with its p[512]
 *     table of unsigned char filled at start-up from the permutation (a
 *     non-const table: read when the batch runs), fade/lerp/grad helpers;
 *   - noise2: 2-D Perlin noise over a const unsigned char perm[256], its
 *     gradients in a signed char table, hashed through a helper taking
 *     'const unsigned char *';
 *   - fbm2f: float fractal sum of noise2-style octaves, weights in a short
 *     (Q15) table and lacunarities in a uint16_t one;
 *   - peek8/peek16: a lane that is off must not read a table element: the
 *     tables end at a PROT_NONE page.
 * NAME_batched against the scalar function bit for bit (every n of test_ns,
 * inputs right before guard pages, lattice points included); NAME_grad
 * against central differences away from lattice points. */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <stdint.h>
#include <sys/mman.h>

static const unsigned char permutation[256] = {
    151, 160, 137, 91,  90,  15,  131, 13,  201, 95,  96,  53,  194, 233, 7,
    225, 140, 36,  103, 30,  69,  142, 8,   99,  37,  240, 21,  10,  23,  190,
    6,   148, 247, 120, 234, 75,  0,   26,  197, 62,  94,  252, 219, 203, 117,
    35,  11,  32,  57,  177, 33,  88,  237, 149, 56,  87,  174, 20,  125, 136,
    171, 168, 68,  175, 74,  165, 71,  134, 139, 48,  27,  166, 77,  146, 158,
    231, 83,  111, 229, 122, 60,  211, 133, 230, 220, 105, 92,  41,  55,  46,
    245, 40,  244, 102, 143, 54,  65,  25,  63,  161, 1,   216, 80,  73,  209,
    76,  132, 187, 208, 89,  18,  169, 200, 196, 135, 130, 116, 188, 159, 86,
    164, 100, 109, 198, 173, 186, 3,   64,  52,  217, 226, 250, 124, 123, 5,
    202, 38,  147, 118, 126, 255, 82,  85,  212, 207, 206, 59,  227, 47,  16,
    58,  17,  182, 189, 28,  42,  223, 183, 170, 213, 119, 248, 152, 2,   44,
    154, 163, 70,  221, 153, 101, 155, 167, 43,  172, 9,   129, 22,  39,  253,
    19,  98,  108, 110, 79,  113, 224, 232, 178, 185, 112, 104, 218, 246, 97,
    228, 251, 34,  242, 193, 238, 210, 144, 12,  191, 179, 162, 241, 81,  51,
    145, 235, 249, 14,  239, 107, 49,  192, 214, 31,  181, 199, 106, 157, 184,
    84,  204, 176, 115, 121, 50,  45,  127, 4,   150, 254, 138, 236, 205, 93,
    222, 114, 67,  29,  24,  72,  243, 141, 128, 195, 78,  66,  215, 61,  156,
    180};

/* ---- Improved Noise (Perlin 2002), as it is usually ported to C --------- */

static unsigned char p[512];

static void init_noise(void) {
  for (int i = 0; i < 256; i++)
    p[256 + i] = p[i] = permutation[i];
}

static double fade(double t) { return t * t * t * (t * (t * 6 - 15) + 10); }
static double lerp(double t, double a, double b) { return a + t * (b - a); }
static double grad(int hash, double x, double y, double z) {
  int h = hash & 15;        /* convert low 4 bits of hash code */
  double u = h < 8 ? x : y, /* into 12 gradient directions */
      v = h < 4                ? y
          : h == 12 || h == 14 ? x
                               : z;
  return ((h & 1) == 0 ? u : -u) + ((h & 2) == 0 ? v : -v);
}

BATCHDIFF double noise3(double x, double y, double z) {
  int X = (int)floor(x) & 255, /* find unit cube that */
      Y = (int)floor(y) & 255, /* contains point */
      Z = (int)floor(z) & 255;
  x -= floor(x); /* find relative x,y,z */
  y -= floor(y); /* of point in cube */
  z -= floor(z);
  double u = fade(x), /* compute fade curves */
      v = fade(y),    /* for each of x,y,z */
      w = fade(z);
  int A = p[X] + Y, AA = p[A] + Z, AB = p[A + 1] + Z, /* hash coordinates of */
      B = p[X + 1] + Y, BA = p[B] + Z, BB = p[B + 1] + Z; /* the 8 corners */

  return lerp(
      w,
      lerp(v, lerp(u, grad(p[AA], x, y, z), grad(p[BA], x - 1, y, z)),
           lerp(u, grad(p[AB], x, y - 1, z), grad(p[BB], x - 1, y - 1, z))),
      lerp(v,
           lerp(u, grad(p[AA + 1], x, y, z - 1),
                grad(p[BA + 1], x - 1, y, z - 1)),
           lerp(u, grad(p[AB + 1], x, y - 1, z - 1),
                grad(p[BB + 1], x - 1, y - 1, z - 1))));
}

/* ---- 2-D gradient noise over a const table, gradients in signed char ---- */

static const signed char grad2[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                        {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
static const signed char gx8[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const signed char gy8[8] = {0, 0, 1, -1, 1, 1, -1, -1};

static int hash2(const unsigned char *perm, int i, int j) {
  return perm[(perm[i & 255] + j) & 255];
}
static double dot2(int h, double x, double y) {
  return gx8[h & 7] * x + gy8[h & 7] * y;
}

BATCHDIFF double noise2(double x, double y) {
  double fx = floor(x), fy = floor(y);
  int i = (int)fx, j = (int)fy;
  x -= fx;
  y -= fy;
  double n00 = dot2(hash2(permutation, i, j), x, y);
  double n10 = dot2(hash2(permutation, i + 1, j), x - 1, y);
  double n01 = dot2(hash2(permutation, i, j + 1), x, y - 1);
  double n11 = dot2(hash2(permutation, i + 1, j + 1), x - 1, y - 1);
  double u = fade(x), v = fade(y);
  return lerp(v, lerp(u, n00, n10), lerp(u, n01, n11));
}

/* ---- float fBm: Q15 weights (short), lacunarities (uint16_t, /256) ------- */

static const short amp_q15[4] = {32767, -16384, 8192, -4096};
static const uint16_t lac_q8[4] = {256, 512, 1003, 2048};

static float fadef(float t) { return t * t * t * (t * (t * 6 - 15) + 10); }

static float octave(float x, float y) {
  float fx = floorf(x), fy = floorf(y);
  int i = (int)fx & 255, j = (int)fy & 255;
  x -= fx;
  y -= fy;
  const unsigned char *row = permutation;
  int h00 = row[(row[i] + j) & 255] & 7,
      h10 = row[(row[(i + 1) & 255] + j) & 255] & 7;
  int h01 = row[(row[i] + j + 1) & 255] & 7;
  int h11 = row[(row[(i + 1) & 255] + j + 1) & 255] & 7;
  float n00 = grad2[h00][0] * x + grad2[h00][1] * y;
  float n10 = gx8[h10] * (x - 1) + gy8[h10] * y;
  float n01 = gx8[h01] * x + gy8[h01] * (y - 1);
  float n11 = gx8[h11] * (x - 1) + gy8[h11] * (y - 1);
  float u = fadef(x), v = fadef(y);
  float a = n00 + u * (n10 - n00), b = n01 + u * (n11 - n01);
  return a + v * (b - a);
}

BATCHDIFF float fbm2f(float x, float y, int octaves) {
  float sum = 0.0f;
  for (int k = 0; k < octaves && k < 4; k++) {
    float f = lac_q8[k] / 256.0f;
    sum += amp_q15[k] * (1.0f / 32768.0f) * octave(x * f, y * f);
  }
  return sum;
}

/* ---- masked-off lanes read nothing; no element past the table is read --- */

/* Two pages each: the second is made PROT_NONE, so each table's valid part
 * ends at a guard page (a 32-bit gather of element 4095 would fault). */
static unsigned char G8[8192] __attribute__((aligned(4096)));
static short G16[4096] __attribute__((aligned(4096)));

BATCHDIFF double peek8(double x, int i) {
  if (i >= 0 && i < 4096)
    return G8[i] * x - G8[4095];
  return x;
}
BATCHDIFF float peek16(float x, int i) {
  if (i >= 0 && i < 2048)
    return G16[i] * x + G16[2047 - i];
  return x;
}

/* ---- checks ------------------------------------------------------------- */

static int same(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static int samef(float got, float want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}

/* Coordinates: lattice points, near them, and anywhere in [-300, 300]. */
static double coord(rng_t *r) {
  switch (rng_below(r, 4)) {
  case 0:
    return (double)((int)rng_below(r, 600) - 300);
  case 1:
    return (double)((int)rng_below(r, 600) - 300) +
           ldexp(rng_range(r, -1, 1), -30);
  default:
    return rng_range(r, -300, 300);
  }
}

static void check_batched(rng_t *rng) {
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *z = gp_alloc(n * 8);
    float *fx = gp_alloc(n * 4), *fy = gp_alloc(n * 4);
    int *oc = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      x[b] = coord(rng);
      y[b] = coord(rng);
      z[b] = coord(rng);
      fx[b] = (float)coord(rng);
      fy[b] = (float)coord(rng);
      oc[b] = (int)rng_below(rng, 6);
    }
    gp_seal(x);
    gp_seal(y);
    gp_seal(z);
    double *r3 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    float *rf = gp_alloc(n * 4);
    noise3_batched(n, x, y, z, r3);
    noise2_batched(n, x, y, r2);
    fbm2f_batched(n, fx, fy, oc, rf);
    for (size_t b = 0; b < n; b++) {
      double w3 = noise3(x[b], y[b], z[b]), w2 = noise2(x[b], y[b]);
      float wf = fbm2f(fx[b], fy[b], oc[b]);
      if (!same(r3[b], w3) || !same(r2[b], w2) || !samef(rf[b], wf)) {
        print_error("n=%zu b=%zu (%a, %a, %a): noise3 %a want %a, noise2 %a "
                    "want %a, fbm2f %a want %a\n",
                    n, b, x[b], y[b], z[b], r3[b], w3, r2[b], w2, rf[b], wf);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("noise_batched")};
  init_noise();
  check_batched(&rng);
  /* The non-const table is read when the batch runs: reshuffle it. */
  for (int i = 255; i > 0; i--) {
    int j = (int)rng_below(&rng, (unsigned)i + 1);
    unsigned char t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  for (int i = 0; i < 256; i++)
    p[256 + i] = p[i];
  check_batched(&rng);
  init_noise();
}

/* Central differences, away from the lattice (the fractional parts in
 * [0.05, 0.95]; the noise is smooth there). */
static double frac_coord(rng_t *r) {
  return (double)((int)rng_below(r, 40) - 20) + rng_range(r, 0.05, 0.95);
}
static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("noise_grad")};
  init_noise();
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *z = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8), *dz = gp_alloc(n * 8);
    double *ex = gp_alloc(n * 8), *ey = gp_alloc(n * 8);
    double *r3 = gp_alloc(n * 8);
    float *fx = gp_alloc(n * 4), *fy = gp_alloc(n * 4);
    float *gx = gp_alloc(n * 4), *gy = gp_alloc(n * 4);
    int *oc = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      x[b] = frac_coord(&rng);
      y[b] = frac_coord(&rng);
      z[b] = frac_coord(&rng);
      fx[b] = (float)frac_coord(&rng);
      fy[b] = (float)frac_coord(&rng);
      oc[b] = 1 + (int)rng_below(&rng, 4);
      dx[b] = dy[b] = dz[b] = ex[b] = ey[b] = 0.0;
      gx[b] = gy[b] = 0.0f;
    }
    noise3_grad(n, x, y, z, r3, NULL, dx, dy, dz);
    noise2_grad(n, x, y, NULL, NULL, ex, ey);
    fbm2f_grad(n, fx, fy, oc, NULL, NULL, gx, gy);
    const double h = 1e-6;
    for (size_t b = 0; b < n; b++) {
      double X = x[b], Y = y[b], Z = z[b];
      double f3[3] = {(noise3(X + h, Y, Z) - noise3(X - h, Y, Z)) / (2 * h),
                      (noise3(X, Y + h, Z) - noise3(X, Y - h, Z)) / (2 * h),
                      (noise3(X, Y, Z + h) - noise3(X, Y, Z - h)) / (2 * h)};
      double f2[2] = {(noise2(X + h, Y) - noise2(X - h, Y)) / (2 * h),
                      (noise2(X, Y + h) - noise2(X, Y - h)) / (2 * h)};
      float hf = 1e-3f, FX = fx[b], FY = fy[b];
      double ff[2] = {
          (fbm2f(FX + hf, FY, oc[b]) - fbm2f(FX - hf, FY, oc[b])) / (2 * hf),
          (fbm2f(FX, FY + hf, oc[b]) - fbm2f(FX, FY - hf, oc[b])) / (2 * hf)};
      if (!same(r3[b], noise3(X, Y, Z)) || !close_to(dx[b], f3[0], 1e-6) ||
          !close_to(dy[b], f3[1], 1e-6) || !close_to(dz[b], f3[2], 1e-6) ||
          !close_to(ex[b], f2[0], 1e-6) || !close_to(ey[b], f2[1], 1e-6) ||
          !close_to(gx[b], ff[0], 2e-2) || !close_to(gy[b], ff[1], 2e-2)) {
        print_error("n=%zu b=%zu (%.17g, %.17g, %.17g): noise3 grad %.17g "
                    "%.17g %.17g fd %.17g %.17g %.17g; noise2 %.17g %.17g fd "
                    "%.17g %.17g; fbm2f(%g, %g, %d) %g %g fd %g %g\n",
                    n, b, X, Y, Z, dx[b], dy[b], dz[b], f3[0], f3[1], f3[2],
                    ex[b], ey[b], f2[0], f2[1], FX, FY, oc[b], gx[b], gy[b],
                    ff[0], ff[1]);
        fail();
      }
    }
    gp_reset();
  }
}

/* Lanes with an index out of range (just past the end, far, negative) must
 * not read: the tables' next pages are PROT_NONE. */
static void t_guard(void **state) {
  (void)state;
  for (int i = 0; i < 4096; i++)
    G8[i] = (unsigned char)(i * 7 + 3);
  for (int i = 0; i < 2048; i++)
    G16[i] = (short)(i * 37 - 30000);
  assert_true(gp_page() <= 4096);
  assert_int_equal(mprotect(&G8[4096], 4096, PROT_NONE), 0);
  assert_int_equal(mprotect(&G16[2048], 4096, PROT_NONE), 0);
  static const int idx[] = {4095, 4096, 0,    4097,    100000, -1,
                            2047, 2048, 2049, 1 << 30, 256,    4094};
  rng_t rng = {name_seed("noise_guard")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    float *fx = gp_alloc(n * 4), *fr = gp_alloc(n * 4);
    int *i = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      x[b] = gen_d(&rng);
      fx[b] = gen_f(&rng);
      i[b] = idx[rng_below(&rng, sizeof idx / sizeof idx[0])];
    }
    peek8_batched(n, x, i, r);
    peek16_batched(n, fx, i, fr);
    for (size_t b = 0; b < n; b++)
      if (!same(r[b], peek8(x[b], i[b])) ||
          !samef(fr[b], peek16(fx[b], i[b]))) {
        print_error("n=%zu b=%zu i=%d\n", n, b, i[b]);
        fail();
      }
    gp_reset();
  }
  assert_int_equal(mprotect(&G8[4096], 4096, PROT_READ | PROT_WRITE), 0);
  assert_int_equal(mprotect(&G16[2048], 4096, PROT_READ | PROT_WRITE), 0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_guard),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
