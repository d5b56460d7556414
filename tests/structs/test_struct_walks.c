/* Struct pointers walking arrays of records (docs/subset.md, "Structs"):
 * `for (const struct pt *p = pts; p < pts + 8; ++p)`, a pointer declared
 * without an initializer and pointed later (`p = pts; p != e; p++`), a
 * helper walking the records it is given (`while (n-- > 0) { ...; p++; }`),
 * an argmax pointer (`best = q` under a per-example condition, or
 * `best = c ? p : best`) and the
 * difference of two pointers (`best - pts`), reverse walks and strides
 * (`--p`, `p += 2`, `p -= 3`), a const file-scope table of structs, a local
 * array of structs written and read through walking pointers, and output
 * records written through one. Ends and counts are per example.
 *   - NAME_batched bit for bit against the scalar function, n = 0 .. 37
 *     examples, records strided by 8;
 *   - NAME_grad against central differences, per member of every record
 *     and per scalar parameter. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

struct pt {
  double x, y;
};

static int clamp8(int n) { return n < 0 ? 0 : n > 8 ? 8 : n; }

/* A for-declared walk to an end pointer. */
BATCHDIFF double w_fit(const struct pt pts[8], int n, double a) {
  double s = 0.0;
  (void)n;
  for (const struct pt *p = pts; p < pts + 8; ++p) {
    double r = p->y - (a * p->x + 0.5);
    s += r * r;
  }
  return s / 8;
}

/* Declared without an initializer; a per-example end; a pointer copied
 * from the walking one (`c = p++`). */
BATCHDIFF double w_ragged(const struct pt pts[8], int n, double a) {
  const struct pt *p, *e;
  double s = 0.0;
  e = pts + clamp8(n);
  for (p = pts; p != e;) {
    const struct pt *c = p++;
    s += a * c->x - c->y * c->y;
  }
  return s;
}

/* A helper walking the records it is passed; an argmax pointer. */
static double sumxy(const struct pt *p, int n) {
  double s = 0.0;
  while (n-- > 0) {
    s += p->x * p->y;
    p++;
  }
  return s;
}
BATCHDIFF double w_argmax(const struct pt pts[8], int n, double a) {
  int m = clamp8(n) < 1 ? 1 : clamp8(n);
  const struct pt *e = pts + m, *best = pts;
  for (const struct pt *q = pts + 1; q != e; q++)
    if (q->y * a > best->y * a)
      best = q;
  return sumxy(pts, m) + best->x * (double)(best - pts + 1) +
         (double)(e - best);
}

/* The argmax by '?:'; a pointer parameter whose extent is the end
 * pointer's (`pts + n`, ragged). */
BATCHDIFF double w_choose(const struct pt *pts, int n, double a) {
  const struct pt *best = pts, *p;
  double s = 0.0;
  for (p = pts; p < pts + n; p++) {
    best = p->y > best->y ? p : best;
    s += p->x * a;
  }
  return s + (n > 0 ? best->x * best->y : 0.0);
}

/* Backwards, by two, back by three; indexing and dereferencing the walker. */
BATCHDIFF double w_steps(const struct pt pts[8], int n, double a) {
  double s = 0.0;
  const struct pt *p = pts + 8;
  while (p > pts) {
    --p;
    s = s * a + p->x;
  }
  for (p = pts; p < pts + 7; p += 2)
    s += p[1].y * p->x;
  p -= 3;
  s += (*p).y * (double)(p - pts);
  if (n > 3)
    p--;
  return s + p->x;
}

/* A helper given a pointer into the records, walking with a struct copy. */
static double tail(const struct pt *p, const struct pt *end, double a) {
  double s = 0.0;
  while (p < end) {
    struct pt c = *p++;
    s = s * a + c.x - c.y;
  }
  return s;
}
BATCHDIFF double w_tail(const struct pt pts[8], int n, double a) {
  return tail(pts + clamp8(n) / 2, pts + clamp8(n), a) + tail(pts, pts + 1, a);
}

/* A const table of structs, walked from a per-example start. */
static const struct pt T[5] = {
    {1.0, 2.0}, {-1.0, 0.5}, {0.25, 3.0}, {2.0, -1.0}, {0.5, 0.5}};
BATCHDIFF double w_table(const struct pt pts[8], int n, double a) {
  double s = pts[0].x;
  for (const struct pt *p = T + clamp8(n) % 5; p < T + 5; p++)
    s = s * a + p->x - p->y * a;
  return s;
}

/* A local array of structs written and read through walking pointers. */
BATCHDIFF double w_local(const struct pt pts[8], int n, double a) {
  struct pt loc[8];
  struct pt *o = loc;
  for (const struct pt *p = pts; p < pts + 8; p++, o++) {
    o->x = p->x * a;
    o->y = p->y + a;
  }
  double s = 0.0;
  for (o = loc; o < loc + clamp8(n); o++)
    s += o->x * o->y;
  return s;
}

/* Output records written through a walking pointer. */
BATCHDIFF void w_out(const struct pt pts[8], double a, struct pt out[8]) {
  struct pt *o = out;
  for (const struct pt *p = pts; p < pts + 8; p++) {
    o->x = a * p->x;
    o->y = p->y - a;
    o++;
  }
}

/* ---- checks ---- */

#define R 8 /* records per example */

typedef double (*sfn)(const struct pt *, int, double);
typedef void (*bfn)(size_t, const struct pt *, ptrdiff_t, const int *,
                    const double *, double *);
typedef void (*gfn)(size_t, const struct pt *, ptrdiff_t, const int *,
                    const double *, double *, const double *, struct pt *,
                    ptrdiff_t, double *);

static double *member(struct pt *p, int j) { return j ? &p->y : &p->x; }

static void check(const char *name, sfn f, bfn fb, gfn fg) {
  rng_t r = {name_seed(name)};
  for (size_t N = 0; N <= 37; N++) {
    struct pt *pts = gp_alloc((N * R + 1) * sizeof *pts);
    struct pt *d_pts = gp_alloc((N * R + 1) * sizeof *d_pts);
    int *n = gp_alloc((N + 1) * sizeof *n);
    double *a = gp_alloc((N + 1) * sizeof *a), *d_a = gp_alloc((N + 1) * 8);
    double *ret = gp_alloc((N + 1) * 8), *ret2 = gp_alloc((N + 1) * 8);
    for (size_t b = 0; b < N; b++) {
      for (int k = 0; k < R; k++)
        pts[b * R + k] =
            (struct pt){rng_range(&r, -2.0, 2.0), rng_range(&r, -2.0, 2.0)};
      n[b] = (int)(rng_u64(&r) % 10) - 1; /* -1 .. 8 */
      a[b] = rng_range(&r, -1.5, 1.5);
      d_a[b] = 0.0;
    }
    memset(d_pts, 0, N * R * sizeof *d_pts);
    fb(N, pts, R, n, a, ret);
    fg(N, pts, R, n, a, ret2, NULL, d_pts, R, d_a);
    for (size_t b = 0; b < N; b++) {
      double want = f(pts + b * R, n[b], a[b]);
      if (!same_bits_or_nan(&ret[b], &want, sizeof want, 1) ||
          !same_bits_or_nan(&ret2[b], &want, sizeof want, 1))
        fail_msg("%s N=%zu lane %zu n=%d: %a / %a, scalar %a", name, N, b, n[b],
                 ret[b], ret2[b], want);
      struct pt q[R];
      double h = 1e-6, ab = a[b];
      memcpy(q, pts + b * R, sizeof q);
      for (int k = 0; k < 2 * R + 1; k++) {
        double *v = k < 2 * R ? member(&q[k / 2], k % 2) : &ab;
        double got = k < 2 * R ? *member(&d_pts[b * R + k / 2], k % 2) : d_a[b];
        double v0 = *v;
        *v = v0 + h;
        double fp = f(q, n[b], ab);
        *v = v0 - h;
        double fm = f(q, n[b], ab);
        *v = v0;
        double fd = (fp - fm) / (2 * h);
        if (!(fabs(got - fd) <= 1e-6 * (1.0 + fabs(fd))))
          fail_msg("%s N=%zu lane %zu n=%d partial %d: %a, differences %a",
                   name, N, b, n[b], k, got, fd);
      }
    }
    gp_reset();
  }
}

#define CHECK(fn)                                                              \
  static void test_##fn(void **state) {                                        \
    (void)state;                                                               \
    check(#fn, fn, fn##_batched, fn##_grad);                                   \
  }
CHECK(w_fit)
CHECK(w_ragged)
CHECK(w_argmax)
CHECK(w_choose)
CHECK(w_steps)
CHECK(w_tail)
CHECK(w_table)
CHECK(w_local)

static void test_w_out(void **state) {
  (void)state;
  rng_t r = {name_seed("w_out")};
  for (size_t N = 0; N <= 37; N++) {
    struct pt *pts = gp_alloc((N * R + 1) * sizeof *pts);
    struct pt *out = gp_alloc((N * R + 1) * sizeof *out);
    double *a = gp_alloc((N + 1) * sizeof *a);
    for (size_t b = 0; b < N; b++) {
      for (int k = 0; k < R; k++)
        pts[b * R + k] =
            (struct pt){rng_range(&r, -2.0, 2.0), rng_range(&r, -2.0, 2.0)};
      a[b] = rng_range(&r, -1.5, 1.5);
    }
    w_out_batched(N, pts, R, a, out, R);
    for (size_t b = 0; b < N; b++) {
      struct pt want[R];
      w_out(pts + b * R, a[b], want);
      if (memcmp(want, out + b * R, sizeof want) != 0)
        fail_msg("w_out N=%zu lane %zu: records differ", N, b);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_w_fit),    cmocka_unit_test(test_w_ragged),
      cmocka_unit_test(test_w_argmax), cmocka_unit_test(test_w_choose),
      cmocka_unit_test(test_w_steps),  cmocka_unit_test(test_w_tail),
      cmocka_unit_test(test_w_table),  cmocka_unit_test(test_w_local),
      cmocka_unit_test(test_w_out),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("struct_walks", tests, NULL, NULL);
}
