/* NAME_hvp (docs/abi.md): per example the gradient and the Hessian-vector
 * product, checked against a hyper-dual-number twin of each function in
 * long double (x + a e1 + b e2 + c e1e2 carries e_p' H v exactly), against
 * central finite differences of NAME_grad along the direction, and for the
 * ABI's mechanics: the gradient and ret bit for bit those of NAME_grad and
 * NAME_batched, H symmetric, every example independent of its neighbours,
 * NULL tangents exactly the zero direction, d_p NULL with h_p given,
 * uniform H·v summed over the batch, ragged arrays behind guard pages with
 * sentinels past each example's extent, an output array's seeds. */
#include "../exec/exec_util.h"

#include "../common/gamma_ref.h"
#include "../common/test_filter.h"

/* ---- hyper-dual numbers (the twin) -------------------------------------- */

typedef struct {
  long double a, b, c, d; /* a + b e1 + c e2 + d e1 e2 */
} hd;

static hd hd_k(long double v) { return (hd){v, 0, 0, 0}; }
static hd hd_add(hd x, hd y) {
  return (hd){x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
}
static hd hd_sub(hd x, hd y) {
  return (hd){x.a - y.a, x.b - y.b, x.c - y.c, x.d - y.d};
}
static hd hd_mul(hd x, hd y) {
  return (hd){x.a * y.a, x.a * y.b + x.b * y.a, x.a * y.c + x.c * y.a,
              x.a * y.d + x.b * y.c + x.c * y.b + x.d * y.a};
}
/* f(x) from f, f' and f'' at x.a. */
static hd hd_fn(hd x, long double f, long double f1, long double f2) {
  return (hd){f, f1 * x.b, f1 * x.c, f1 * x.d + f2 * x.b * x.c};
}
static hd hd_div(hd x, hd y) {
  long double i = 1.0L / y.a;
  return hd_mul(x, hd_fn(y, i, -i * i, 2 * i * i * i));
}
static hd hd_sin(hd x) { return hd_fn(x, sinl(x.a), cosl(x.a), -sinl(x.a)); }
static hd hd_cos(hd x) { return hd_fn(x, cosl(x.a), -sinl(x.a), -cosl(x.a)); }
static hd hd_exp(hd x) {
  long double e = expl(x.a);
  return hd_fn(x, e, e, e);
}
static hd hd_log(hd x) {
  return hd_fn(x, logl(x.a), 1 / x.a, -1 / (x.a * x.a));
}
static hd hd_sqrt(hd x) {
  long double s = sqrtl(x.a);
  return hd_fn(x, s, 0.5L / s, -0.25L / (s * s * s));
}
static hd hd_tanh(hd x) {
  long double t = tanhl(x.a), d = 1 - t * t;
  return hd_fn(x, t, d, -2 * t * d);
}
static hd hd_atan2(hd y, hd x) {
  /* atan2(y, x) = atan(y / x) + const on each side of the cut: the same
   * derivatives (x > 0 in the tests). */
  hd q = hd_div(y, x);
  long double u = 1 + q.a * q.a;
  hd r = hd_fn(q, atan2l(y.a, x.a), 1 / u, -2 * q.a / (u * u));
  return r;
}

/* ---- functions ----------------------------------------------------------- */

/* Straight-line code through math functions, a uniform weight. */
BATCHDIFF BD_HVP double h_line(double x, double y, BD_UNIFORM double w) {
  double u = sin(x * w) + exp(0.3 * y) * x;
  double v = log(1.0 + x * x) / (2.0 + cos(y));
  return u * v + sqrt(y * y + 1.0) * tanh(w * y) + x * y * w +
         atan2(y, 2.0 + x * x);
}
static hd t_line(const hd *a) {
  hd x = a[0], y = a[1], w = a[2];
  hd u = hd_add(hd_sin(hd_mul(x, w)), hd_mul(hd_exp(hd_mul(hd_k(0.3L), y)), x));
  hd v =
      hd_div(hd_log(hd_add(hd_k(1), hd_mul(x, x))), hd_add(hd_k(2), hd_cos(y)));
  hd r = hd_add(hd_mul(u, v), hd_mul(hd_sqrt(hd_add(hd_mul(y, y), hd_k(1))),
                                     hd_tanh(hd_mul(w, y))));
  r = hd_add(r, hd_mul(hd_mul(x, y), w));
  return hd_add(r, hd_atan2(y, hd_add(hd_k(2), hd_mul(x, x))));
}

/* Per-lane branches and an early return. */
BATCHDIFF BD_HVP double h_branch(double x, double y) {
  if (x > y)
    return x * x * y + sin(y);
  double r = exp(x) * y;
  if (y > 0.5)
    r = r * r - x;
  return r;
}
static hd t_branch(const hd *a) {
  hd x = a[0], y = a[1];
  if (x.a > y.a)
    return hd_add(hd_mul(hd_mul(x, x), y), hd_sin(y));
  hd r = hd_mul(hd_exp(x), y);
  if (y.a > 0.5L)
    r = hd_sub(hd_mul(r, r), x);
  return r;
}

/* A loop with per-lane trip counts (its reverse sweep reads a tape), a
 * loop-carried value, a uniform weight. */
BATCHDIFF BD_HVP double h_loop(double x, BD_UNIFORM double w, double y) {
  double s = 0;
  for (int i = 0; i < 2 + (x > 0) + (y > 1.0); i++)
    s += sin(x * w + i) * y + s * s * 0.25;
  if (s > 0.5)
    return s * s;
  return exp(s) / (1 + y * y);
}
static hd t_loop(const hd *a) {
  hd x = a[0], w = a[1], y = a[2], s = hd_k(0);
  for (int i = 0; i < 2 + (x.a > 0) + (y.a > 1.0L); i++)
    s = hd_add(s, hd_add(hd_mul(hd_sin(hd_add(hd_mul(x, w), hd_k(i))), y),
                         hd_mul(hd_mul(s, s), hd_k(0.25L))));
  if (s.a > 0.5L)
    return hd_mul(s, s);
  return hd_div(hd_exp(s), hd_add(hd_k(1), hd_mul(y, y)));
}

/* A local array indexed per lane and a helper call. */
static double hsq(double v) { return v * v; }
BATCHDIFF BD_HVP double h_local(double x, double y) {
  double t[3] = {x, y, x * y};
  int i = x > 0 ? (y > 0 ? 0 : 1) : 2;
  t[(i + 1) % 3] += sin(t[i]);
  double r = 0;
  for (int j = 0; j < 3; j++)
    r += hsq(t[j]) * (j + 1);
  return r;
}
static hd t_local(const hd *a) {
  hd x = a[0], y = a[1];
  hd t[3] = {x, y, hd_mul(x, y)};
  int i = x.a > 0 ? (y.a > 0 ? 0 : 1) : 2;
  t[(i + 1) % 3] = hd_add(t[(i + 1) % 3], hd_sin(t[i]));
  hd r = hd_k(0);
  for (int j = 0; j < 3; j++)
    r = hd_add(r, hd_mul(hd_mul(t[j], t[j]), hd_k(j + 1)));
  return r;
}

/* A negative binomial log-likelihood: lgamma's gradient is digamma, its
 * H v needs trigamma; tgamma too (Gamma digamma, Gamma (digamma^2 +
 * trigamma)). */
BATCHDIFF BD_HVP double h_gamma(double y, double mu, double r) {
  return lgamma(y + r) - lgamma(r) + r * log(r / (r + mu)) +
         y * log(mu / (r + mu)) + 0.01 * tgamma(1.0 + 0.5 * mu);
}
static hd hd_lgamma(hd x) {
  return hd_fn(x, lgammal(x.a), ref_digamma(x.a), ref_trigamma(x.a));
}
static hd hd_tgamma(hd x) {
  long double g = tgammal(x.a), p = ref_digamma(x.a);
  return hd_fn(x, g, g * p, g * (p * p + ref_trigamma(x.a)));
}
static hd t_gamma(const hd *a) {
  hd y = a[0], mu = a[1], r = a[2], rm = hd_add(r, mu);
  hd v = hd_sub(hd_lgamma(hd_add(y, r)), hd_lgamma(r));
  v = hd_add(v, hd_mul(r, hd_log(hd_div(r, rm))));
  v = hd_add(v, hd_mul(y, hd_log(hd_div(mu, rm))));
  return hd_add(v, hd_mul(hd_k(0.01L),
                          hd_tgamma(hd_add(hd_k(1), hd_mul(hd_k(0.5L), mu)))));
}

/* ---- harness for scalar parameters --------------------------------------- */

#define HMAXP 3

typedef struct {
  const char *name;
  int np;
  int unif[HMAXP];
  double (*scalar)(const double *a);
  hd (*twin)(const hd *a);
  void (*hvp)(size_t n, double *const *A, double *const *T, double *ret,
              const double *dret, double *const *D, double *const *H);
  void (*grad)(size_t n, double *const *A, double *ret, const double *dret,
               double *const *D);
  void (*sample)(rng_t *r, double *a);
} hcase;

static const size_t hns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 300};
#define N_HNS (sizeof hns / sizeof hns[0])

static double *buf(size_t n) {
  double *p = gp_alloc((n ? n : 1) * sizeof(double));
  memset(p, 0, (n ? n : 1) * sizeof(double));
  return p;
}
static int same(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}
static int close_to(double got, long double want, double rel) {
  return fabsl((long double)got - want) <= rel * (1 + fabsl(want));
}

#define HFAIL(...)                                                             \
  do {                                                                         \
    print_error("%s: ", c->name);                                              \
    print_error(__VA_ARGS__);                                                  \
    print_error("\n");                                                         \
    gp_reset();                                                                \
    fail();                                                                    \
  } while (0)

/* The twin at one example: seed * gradient and seed * H v. */
static void twin_at(const hcase *c, const double *a, const double *v,
                    double seed, long double *g, long double *hv) {
  for (int p = 0; p < c->np; p++) {
    hd x[HMAXP];
    for (int j = 0; j < c->np; j++)
      x[j] = (hd){a[j], j == p, v[j], 0};
    hd r = c->twin(x);
    g[p] = seed * r.b;
    hv[p] = seed * r.d;
  }
}

/* Central differences of NAME_grad along v (every parameter moves, the
 * uniform ones too); NAN where two step sizes disagree (a kink). */
static int fd_hv(const hcase *c, const double *a, const double *v, double seed,
                 double *out) {
  double est[2][HMAXP], h = 1e-4;
  for (int k = 0; k < 2; k++, h *= 0.5) {
    double gp[HMAXP] = {0}, gm[HMAXP] = {0}, xp[HMAXP], xm[HMAXP];
    double *Ap[HMAXP], *Am[HMAXP], *Gp[HMAXP], *Gm[HMAXP];
    for (int j = 0; j < c->np; j++) {
      xp[j] = a[j] + h * v[j];
      xm[j] = a[j] - h * v[j];
      Ap[j] = &xp[j];
      Am[j] = &xm[j];
      Gp[j] = &gp[j];
      Gm[j] = &gm[j];
    }
    c->grad(1, Ap, NULL, &seed, Gp);
    c->grad(1, Am, NULL, &seed, Gm);
    for (int j = 0; j < c->np; j++)
      est[k][j] = (gp[j] - gm[j]) / (2 * h);
  }
  for (int j = 0; j < c->np; j++) {
    if (!(fabs(est[0][j] - est[1][j]) <= 1e-5 * (fabs(est[1][j]) + 1)))
      return 0;
    out[j] = est[1][j];
  }
  return 1;
}

static void run_case(const hcase *c) {
  gp_reset();
  rng_t rng = {name_seed(c->name)};
  size_t twin_checked = 0, fd_checked = 0, fd_skipped = 0;
  double worst_twin = 0;
  for (size_t ni = 0; ni < N_HNS; ni++) {
    size_t n = hns[ni];
    for (int rep = 0; rep < 2; rep++) {
      double *A[HMAXP], *T[HMAXP], *T0[HMAXP], *D[HMAXP], *H[HMAXP];
      double *Dg[HMAXP], *H2[HMAXP], *HN[HMAXP], *HZ[HMAXP];
      for (int j = 0; j < c->np; j++) {
        size_t len = c->unif[j] ? 1 : n;
        A[j] = buf(len);
        T[j] = buf(len);
        T0[j] = buf(len);
        D[j] = buf(len);
        Dg[j] = buf(len);
        H[j] = buf(len);
        H2[j] = buf(len);
        HN[j] = buf(len);
        HZ[j] = buf(len);
        for (size_t b = 0; b < len; b++)
          T[j][b] = rng_range(&rng, -1, 1);
      }
      double a0[HMAXP];
      c->sample(&rng, a0);
      for (int j = 0; j < c->np; j++)
        if (c->unif[j])
          A[j][0] = a0[j];
      for (size_t b = 0; b < n; b++) {
        double a[HMAXP];
        c->sample(&rng, a);
        for (int j = 0; j < c->np; j++)
          if (!c->unif[j])
            A[j][b] = a[j];
      }
      double *seed = buf(n);
      for (size_t b = 0; b < n; b++)
        seed[b] = rep ? rng_range(&rng, 0.5, 2) : 1.0;
      const double *S = rep ? seed : NULL;
      for (int j = 0; j < c->np; j++) {
        gp_seal(A[j]);
        gp_seal(T[j]);
        gp_seal(T0[j]);
      }
      double *ret = buf(n), *ret_g = buf(n);
      c->hvp(n, A, T, ret, S, D, H);
      c->grad(n, A, ret_g, S, Dg);
      for (size_t b = 0; b < n; b++)
        if (!same(ret[b], ret_g[b]))
          HFAIL("hvp ret %.17g != grad ret %.17g (n=%zu b=%zu)", ret[b],
                ret_g[b], n, b);
      for (int j = 0; j < c->np; j++)
        for (size_t b = 0; b < (c->unif[j] ? 1 : n); b++)
          if (c->unif[j] ? !close_to(D[j][b], Dg[j][b], 1e-13)
                         : !same(D[j][b], Dg[j][b]))
            HFAIL("hvp gradient %d: %.17g, NAME_grad %.17g (n=%zu b=%zu)", j,
                  D[j][b], Dg[j][b], n, b);

      /* d_p NULL with h_p given: the same H v; NULL tangents are zeros. */
      double *DN[HMAXP] = {0}, *TN[HMAXP], *TZ[HMAXP];
      c->hvp(n, A, T, NULL, S, DN, H2);
      for (int j = 0; j < c->np; j++) {
        int off = (j + rep) % 2 == 0;
        TN[j] = off ? NULL : T[j];
        TZ[j] = off ? T0[j] : T[j];
      }
      c->hvp(n, A, TN, NULL, S, DN, HN);
      c->hvp(n, A, TZ, NULL, S, DN, HZ);
      for (int j = 0; j < c->np; j++)
        for (size_t b = 0; b < (c->unif[j] ? 1 : n); b++) {
          if (!same(H2[j][b], H[j][b]))
            HFAIL("d_p NULL changed h_%d: %.17g vs %.17g (n=%zu b=%zu)", j,
                  H2[j][b], H[j][b], n, b);
          if (!same(HN[j][b], HZ[j][b]))
            HFAIL("NULL tangents %.17g vs zero tangents %.17g (n=%zu b=%zu)",
                  HN[j][b], HZ[j][b], n, b);
        }

      long double usum[HMAXP] = {0};
      for (size_t b = 0; b < n; b++) {
        double a[HMAXP], v[HMAXP], sd = rep ? seed[b] : 1.0;
        double *A1[HMAXP], *T1[HMAXP], *G1[HMAXP], *H1[HMAXP];
        double g1[HMAXP] = {0}, h1[HMAXP] = {0};
        for (int j = 0; j < c->np; j++) {
          a[j] = c->unif[j] ? A[j][0] : A[j][b];
          v[j] = c->unif[j] ? T[j][0] : T[j][b];
          A1[j] = c->unif[j] ? A[j] : A[j] + b;
          T1[j] = c->unif[j] ? T[j] : T[j] + b;
          G1[j] = &g1[j];
          H1[j] = &h1[j];
        }
        /* Alone (the masked tail path): the same bits for varying ones. */
        c->hvp(1, A1, T1, NULL, &sd, G1, H1);
        for (int j = 0; j < c->np; j++) {
          if (!c->unif[j] && (!same(h1[j], H[j][b]) || !same(g1[j], D[j][b])))
            HFAIL("example %zu alone: h_%d %.17g, in the batch %.17g (n=%zu)",
                  b, j, h1[j], H[j][b], n);
          usum[j] += h1[j];
        }
        long double tg[HMAXP], th[HMAXP];
        twin_at(c, a, v, sd, tg, th);
        for (int j = 0; j < c->np; j++) {
          double err = (double)(fabsl(h1[j] - th[j]) / (1 + fabsl(th[j])));
          if (err > worst_twin)
            worst_twin = err;
          if (!close_to(h1[j], th[j], 1e-12) || !close_to(g1[j], tg[j], 1e-13))
            HFAIL("twin: h_%d %.17g want %.17Lg, d_%d %.17g want %.17Lg "
                  "(x=%.17g %.17g %.17g, n=%zu b=%zu)",
                  j, h1[j], th[j], j, g1[j], tg[j], a[0], a[1],
                  c->np > 2 ? a[2] : 0.0, n, b);
        }
        twin_checked++;
        if (b % 4 == 0) {
          double fd[HMAXP];
          if (!fd_hv(c, a, v, sd, fd)) {
            fd_skipped++;
            continue;
          }
          fd_checked++;
          for (int j = 0; j < c->np; j++)
            if (!(fabs(fd[j] - h1[j]) <= 1e-6 * (fabs(fd[j]) + 1)))
              HFAIL("h_%d %.17g vs finite differences of NAME_grad %.17g "
                    "(n=%zu b=%zu)",
                    j, h1[j], fd[j], n, b);
        }
      }
      for (int j = 0; j < c->np; j++)
        if (c->unif[j] && !close_to(H[j][0], usum[j], 1e-12))
          HFAIL("uniform h_%d %.17g, sum over the examples %.17Lg (n=%zu)", j,
                H[j][0], usum[j], n);
      gp_reset();
    }
  }
  print_message("%s: H v vs hyper-dual twin at %zu examples (worst %.2g "
                "relative); finite differences of grad at %zu (%zu kinks "
                "skipped)\n",
                c->name, twin_checked, worst_twin, fd_checked, fd_skipped);
  if (fd_checked == 0 || fd_checked < 4 * fd_skipped)
    HFAIL("finite differences checked %zu points, skipped %zu", fd_checked,
          fd_skipped);
}

/* H is symmetric: e_i' H e_j from column j equals e_j' H e_i. */
static void symmetry(const hcase *c) {
  rng_t rng = {name_seed(c->name) ^ 77};
  for (int k = 0; k < 50; k++) {
    double a[HMAXP], Hm[HMAXP][HMAXP];
    c->sample(&rng, a);
    for (int q = 0; q < c->np; q++) {
      double v[HMAXP] = {0}, g[HMAXP] = {0}, h[HMAXP] = {0};
      double *A1[HMAXP], *T1[HMAXP], *G1[HMAXP], *H1[HMAXP];
      v[q] = 1;
      for (int j = 0; j < c->np; j++) {
        A1[j] = &a[j];
        T1[j] = &v[j];
        G1[j] = &g[j];
        H1[j] = &h[j];
      }
      c->hvp(1, A1, T1, NULL, NULL, G1, H1);
      for (int p = 0; p < c->np; p++)
        Hm[p][q] = h[p];
    }
    for (int p = 0; p < c->np; p++)
      for (int q = 0; q < p; q++)
        if (!close_to(Hm[p][q], Hm[q][p], 1e-12))
          HFAIL("H[%d][%d] %.17g != H[%d][%d] %.17g", p, q, Hm[p][q], q, p,
                Hm[q][p]);
  }
}

/* ---- arrays -------------------------------------------------------------- */

/* A ragged array (each example its own n), a uniform array, a local array
 * and a helper; an element read at an index that depends on n. */
BATCHDIFF BD_HVP double h_arr(int n, const double x[n],
                              BD_UNIFORM const double w[3], double s) {
  double loc[3] = {w[0], w[1] * s, w[2]};
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * loc[i % 3] + sin(s * x[i]);
    if (v > 1.0)
      v = log(v);
    else
      v = hsq(v);
    acc += v * x[(i + 1) % n];
  }
  return acc + hsq(s) * w[0];
}
/* The twin over the parameter vector x[0..n-1], w[0..2], s. */
static hd t_arr(int n, const hd *a) {
  const hd *x = a, *w = a + n;
  hd s = a[n + 3];
  hd loc[3] = {w[0], hd_mul(w[1], s), w[2]};
  hd acc = hd_k(0);
  for (int i = 0; i < n; i++) {
    hd v = hd_add(hd_mul(x[i], loc[i % 3]), hd_sin(hd_mul(s, x[i])));
    v = v.a > 1.0L ? hd_log(v) : hd_mul(v, v);
    acc = hd_add(acc, hd_mul(v, x[(i + 1) % n]));
  }
  return hd_add(acc, hd_mul(hd_mul(s, s), w[0]));
}

#define AST 8        /* stride of the per-example arrays */
#define SENT 12345.0 /* past an example's extent: never touched */

static void hvp_arrays(void **st) {
  (void)st;
  const char *name = "h_arr";
  const hcase *c = &(hcase){.name = name};
  rng_t rng = {name_seed(name)};
  static const size_t ns[] = {1, 3, WD + 1, 2 * WF + 3, 40};
  double worst = 0;
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
    size_t N = ns[ni];
    int *n = gp_alloc(N * sizeof(int));
    double *x = buf(N * AST), *tx = buf(N * AST), *s = buf(N), *ts = buf(N);
    double *dx = buf(N * AST), *hx = buf(N * AST), *dxg = buf(N * AST);
    double *ds = buf(N), *hs = buf(N), *dsg = buf(N), *seed = buf(N);
    double *ret = buf(N), *retb = buf(N);
    double w[3], tw[3], dw[3] = {0}, hw[3] = {0}, dwg[3] = {0};
    for (int k = 0; k < 3; k++) {
      w[k] = rng_range(&rng, -1, 1);
      tw[k] = rng_range(&rng, -1, 1);
    }
    for (size_t b = 0; b < N; b++) {
      n[b] = 1 + rng_below(&rng, 6);
      s[b] = rng_range(&rng, -1, 1);
      ts[b] = rng_range(&rng, -1, 1);
      seed[b] = rng_range(&rng, 0.5, 2);
      for (int i = 0; i < AST; i++) {
        int in = i < n[b];
        x[b * AST + i] = in ? rng_range(&rng, -1.5, 1.5) : NAN;
        tx[b * AST + i] = in ? rng_range(&rng, -1, 1) : NAN;
        dx[b * AST + i] = hx[b * AST + i] = dxg[b * AST + i] = in ? 0 : SENT;
      }
    }
    gp_seal(n);
    gp_seal(x);
    gp_seal(tx);
    gp_seal(s);
    gp_seal(ts);
    gp_seal(seed);
    h_arr_hvp(N, n, x, AST, w, s, tx, AST, tw, ts, ret, seed, dx, AST, dw, ds,
              hx, AST, hw, hs);
    h_arr_grad(N, n, x, AST, w, s, retb, seed, dxg, AST, dwg, dsg);
    long double hwsum[3] = {0};
    for (size_t b = 0; b < N; b++) {
      int m = n[b], np = m + 4;
      if (!same(ret[b], retb[b]) || !same(ds[b], dsg[b]))
        HFAIL("ret or d_s differs from NAME_grad (N=%zu b=%zu)", N, b);
      for (int i = 0; i < AST; i++)
        if (!same(dx[b * AST + i], dxg[b * AST + i]))
          HFAIL("d_x[%d] %.17g, NAME_grad %.17g (N=%zu b=%zu)", i,
                dx[b * AST + i], dxg[b * AST + i], N, b);
      for (int i = m; i < AST; i++)
        if (hx[b * AST + i] != SENT)
          HFAIL("h_x[%d] past the extent %d written (N=%zu b=%zu)", i, m, N, b);
      double a[AST + 4], v[AST + 4];
      for (int i = 0; i < m; i++) {
        a[i] = x[b * AST + i];
        v[i] = tx[b * AST + i];
      }
      for (int k = 0; k < 3; k++) {
        a[m + k] = w[k];
        v[m + k] = tw[k];
      }
      a[m + 3] = s[b];
      v[m + 3] = ts[b];
      long double th[AST + 4];
      for (int p = 0; p < np; p++) {
        hd h[AST + 4];
        for (int j = 0; j < np; j++)
          h[j] = (hd){a[j], j == p, v[j], 0};
        th[p] = seed[b] * t_arr(m, h).d;
      }
      for (int i = 0; i <= m + 3; i++) {
        if (i >= m && i < m + 3)
          continue; /* w: summed below */
        double got = i < m ? hx[b * AST + i] : hs[b];
        double err = (double)(fabsl(got - th[i]) / (1 + fabsl(th[i])));
        worst = err > worst ? err : worst;
        if (!close_to(got, th[i], 1e-12))
          HFAIL("H v element %d: %.17g, twin %.17Lg (N=%zu b=%zu n=%d)", i, got,
                th[i], N, b, m);
      }
      for (int k = 0; k < 3; k++)
        hwsum[k] += th[m + k];
    }
    for (int k = 0; k < 3; k++) {
      if (!same(dw[k], dwg[k])) /* both sorted by length, one order */
        HFAIL("d_w[%d] %.17g, NAME_grad %.17g (N=%zu)", k, dw[k], dwg[k], N);
      if (!close_to(hw[k], hwsum[k], 1e-12))
        HFAIL("uniform h_w[%d] %.17g, twin sum %.17Lg (N=%zu)", k, hw[k],
              hwsum[k], N);
    }
    gp_reset();
  }
  print_message("h_arr: ragged H v vs twin, worst %.2g relative\n", worst);
}

/* h_arr with x packed back to back (BD_PACKED) and as one pointer per
 * example (BD_POINTERS): every output, H·v and uniform sums included, bit
 * for bit that of the strided h_arr_hvp (all three sort by length). */
#define H_ARR_BODY                                                             \
  double loc[3] = {w[0], w[1] * s, w[2]};                                      \
  double acc = 0;                                                              \
  for (int i = 0; i < n; i++) {                                                \
    double v = x[i] * loc[i % 3] + sin(s * x[i]);                              \
    if (v > 1.0)                                                               \
      v = log(v);                                                              \
    else                                                                       \
      v = hsq(v);                                                              \
    acc += v * x[(i + 1) % n];                                                 \
  }                                                                            \
  return acc + hsq(s) * w[0];
BATCHDIFF BD_HVP double h_arr_pk(int n, BD_PACKED const double x[n],
                                 BD_UNIFORM const double w[3], double s) {
  H_ARR_BODY
}
BATCHDIFF BD_HVP double h_arr_pt(int n, BD_POINTERS const double x[n],
                                 BD_UNIFORM const double w[3], double s) {
  H_ARR_BODY
}

/* Each example's n elements at x + off[b] with nothing between them, a
 * guard page after the last. */
static double *packed_copy(size_t N, const int *n, const double *src,
                           size_t *off) {
  size_t tot = 0;
  for (size_t b = 0; b < N; b++) {
    off[b] = tot;
    tot += (size_t)n[b];
  }
  double *p = gp_alloc(tot * sizeof(double));
  for (size_t b = 0; b < N; b++)
    memcpy(p + off[b], src + b * AST, (size_t)n[b] * sizeof(double));
  return p;
}

static void hvp_layouts(void **st) {
  (void)st;
  const char *name = "h_arr_layouts";
  const hcase *c = &(hcase){.name = name};
  rng_t rng = {name_seed(name)};
  static const size_t ns[] = {1, WD + 1, 2 * WF + 3, 67};
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
    size_t N = ns[ni];
    int *n = gp_alloc(N * sizeof(int));
    double *x = buf(N * AST), *tx = buf(N * AST), *s = buf(N), *ts = buf(N);
    double *seed = buf(N), *ret = buf(N), *ds = buf(N), *hs = buf(N);
    double *dx = buf(N * AST), *hx = buf(N * AST);
    double w[3], tw[3], dw[3] = {0}, hw[3] = {0};
    for (int k = 0; k < 3; k++) {
      w[k] = rng_range(&rng, -1, 1);
      tw[k] = rng_range(&rng, -1, 1);
    }
    for (size_t b = 0; b < N; b++) {
      n[b] = 1 + rng_below(&rng, 7); /* up to AST - 1 */
      s[b] = rng_range(&rng, -1, 1);
      ts[b] = rng_range(&rng, -1, 1);
      seed[b] = rng_range(&rng, 0.5, 2);
      for (int i = 0; i < AST; i++) {
        x[b * AST + i] = rng_range(&rng, -1.5, 1.5);
        tx[b * AST + i] = rng_range(&rng, -1, 1);
        dx[b * AST + i] = rng_range(&rng, -1, 1); /* += onto these */
        hx[b * AST + i] = rng_range(&rng, -1, 1);
      }
    }
    size_t *off = gp_alloc(N * sizeof(size_t));
    double *px = packed_copy(N, n, x, off), *ptx = packed_copy(N, n, tx, off);
    double *pdx = packed_copy(N, n, dx, off), *phx = packed_copy(N, n, hx, off);
    gp_seal(n);
    gp_seal(off);
    gp_seal(px);
    gp_seal(ptx);
    const double **qx = gp_alloc(N * sizeof *qx), **qtx = gp_alloc(N * sizeof *qx);
    double **qdx = gp_alloc(N * sizeof *qdx), **qhx = gp_alloc(N * sizeof *qdx);
    double *cdx = buf(N * AST), *chx = buf(N * AST);
    memcpy(cdx, dx, N * AST * sizeof(double));
    memcpy(chx, hx, N * AST * sizeof(double));
    for (size_t b = 0; b < N; b++) {
      qx[b] = x + b * AST;
      qtx[b] = tx + b * AST;
      qdx[b] = cdx + b * AST;
      qhx[b] = chx + b * AST;
    }
    h_arr_hvp(N, n, x, AST, w, s, tx, AST, tw, ts, ret, seed, dx, AST, dw, ds,
              hx, AST, hw, hs);
    for (int lay = 0; lay < 2; lay++) {
      double *r2 = buf(N), *ds2 = buf(N), *hs2 = buf(N);
      double dw2[3] = {0}, hw2[3] = {0};
      if (lay == 0)
        h_arr_pk_hvp(N, n, px, off, w, s, ptx, tw, ts, r2, seed, pdx, dw2, ds2,
                     phx, hw2, hs2);
      else
        h_arr_pt_hvp(N, n, qx, w, s, qtx, tw, ts, r2, seed, qdx, dw2, ds2, qhx,
                     hw2, hs2);
      for (size_t b = 0; b < N; b++) {
        if (!same(ret[b], r2[b]) || !same(ds[b], ds2[b]) ||
            !same(hs[b], hs2[b]))
          HFAIL("%s: ret, d_s or h_s of example %zu differs from strided",
                lay ? "pointers" : "packed", b);
        for (int i = 0; i < n[b]; i++) {
          double gd = lay ? cdx[b * AST + i] : pdx[off[b] + (size_t)i];
          double gh = lay ? chx[b * AST + i] : phx[off[b] + (size_t)i];
          if (!same(gd, dx[b * AST + i]) || !same(gh, hx[b * AST + i]))
            HFAIL("%s: d_x/h_x[%d] of example %zu: %.17g/%.17g, strided "
                  "%.17g/%.17g",
                  lay ? "pointers" : "packed", i, b, gd, gh, dx[b * AST + i],
                  hx[b * AST + i]);
        }
        /* pointers: elements past the extent keep their values */
        for (int i = n[b]; lay && i < AST; i++)
          if (!same(cdx[b * AST + i], dx[b * AST + i]) ||
              !same(chx[b * AST + i], hx[b * AST + i]))
            HFAIL("pointers: d_x/h_x[%d] past extent %d of example %zu written",
                  i, n[b], b);
      }
      for (int k = 0; k < 3; k++)
        if (!same(dw2[k], dw[k]) || !same(hw2[k], hw[k]))
          HFAIL("%s: uniform d_w/h_w[%d] %.17g/%.17g, strided %.17g/%.17g",
                lay ? "pointers" : "packed", k, dw2[k], hw2[k], dw[k], hw[k]);
    }
    gp_reset();
  }
}

/* A void function with an output array: its shadow on entry holds the
 * cotangent seeds; pure outputs end with d_out = h_out = 0. */
BATCHDIFF BD_HVP void h_out(double x, BD_UNIFORM double w, double out[2]) {
  out[0] = x * x * w;
  out[1] = sin(x) * out[0];
}

static void hvp_output(void **st) {
  (void)st;
  const hcase *c = &(hcase){.name = "h_out"};
  rng_t rng = {name_seed("h_out")};
  size_t N = 2 * WF + 3;
  double *x = buf(N), *tx = buf(N), *out = buf(2 * N), *tout = buf(2 * N);
  double *dx = buf(N), *hx = buf(N), *dout = buf(2 * N), *hout = buf(2 * N);
  double *cs = buf(2 * N);
  double w = 0.7, tw = -0.4, dw = 0, hw = 0;
  for (size_t b = 0; b < N; b++) {
    x[b] = rng_range(&rng, -2, 2);
    tx[b] = rng_range(&rng, -1, 1);
    for (int k = 0; k < 2; k++) {
      cs[2 * b + k] = dout[2 * b + k] = rng_range(&rng, 0.5, 2);
      hout[2 * b + k] = 0;
      tout[2 * b + k] = 0;
    }
  }
  h_out_hvp(N, x, w, out, 2, tx, &tw, tout, 2, dx, &dw, dout, 2, hx, &hw, hout,
            2);
  long double hwsum = 0;
  for (size_t b = 0; b < N; b++) {
    double o[2];
    h_out(x[b], w, o);
    /* sin: the runtime's vector sin, within its 1 ULP bound. */
    if (!same(o[0], out[2 * b]) || !close_to(out[2 * b + 1], o[1], 1e-15))
      HFAIL("out %.17g %.17g differs from the scalar function %.17g %.17g "
            "(b=%zu)",
            out[2 * b], out[2 * b + 1], o[0], o[1], b);
    for (int k = 0; k < 2; k++)
      if (dout[2 * b + k] != 0 || hout[2 * b + k] != 0)
        HFAIL("pure output: d_out %.17g h_out %.17g, want 0 (b=%zu)",
              dout[2 * b + k], hout[2 * b + k], b);
    long double th[2];
    for (int p = 0; p < 2; p++) {
      hd X = {x[b], p == 0, tx[b], 0}, W = {w, p == 1, tw, 0};
      hd o0 = hd_mul(hd_mul(X, X), W), o1 = hd_mul(hd_sin(X), o0);
      hd L =
          hd_add(hd_mul(hd_k(cs[2 * b]), o0), hd_mul(hd_k(cs[2 * b + 1]), o1));
      th[p] = L.d;
      if (p == 0 && !close_to(tout[2 * b], o0.c, 1e-14))
        HFAIL("t_out[0] %.17g, want %.17Lg (b=%zu)", tout[2 * b], o0.c, b);
    }
    if (!close_to(hx[b], th[0], 1e-12))
      HFAIL("h_x %.17g, twin %.17Lg (b=%zu)", hx[b], th[0], b);
    hwsum += th[1];
  }
  if (!close_to(hw, hwsum, 1e-12))
    HFAIL("uniform h_w %.17g, twin sum %.17Lg", hw, hwsum);
  gp_reset();
}

/* A loop invariant (x * y, hoisted out of the loop) whose adjoint is
 * exactly 0 at x = 0 while its tangent is not: NAME_grad selects such
 * contributions away where the adjoint is 0 (lanes that never ran the
 * loop); the H·v must keep them where the adjoint's tangent is nonzero. */
BATCHDIFF BD_HVP double h_zero(double x, double y, int k) {
  double s = 0;
  for (int i = 0; i < k; i++)
    s += (x * y) * (x * y) + i * y;
  return s;
}

static void hvp_zero_adjoint(void **st) {
  (void)st;
  const hcase *c = &(hcase){.name = "h_zero"};
  rng_t rng = {name_seed("h_zero")};
  enum { N = 2 * WF + 3 };
  double x[N], y[N], tx[N], ty[N], dx[N] = {0}, dy[N] = {0}, hx[N] = {0},
                                   hy[N] = {0};
  int k[N];
  for (size_t b = 0; b < N; b++) {
    x[b] = b % 3 ? 0.0 : rng_range(&rng, -1, 1);
    y[b] = rng_range(&rng, -1, 1);
    tx[b] = rng_range(&rng, -1, 1);
    ty[b] = rng_range(&rng, -1, 1);
    k[b] = (int)(b % 4); /* k = 0: the loop never runs */
  }
  h_zero_hvp(N, x, y, k, tx, ty, NULL, NULL, dx, dy, hx, hy);
  for (size_t b = 0; b < N; b++) {
    /* f = k (x y)^2 + y k (k - 1) / 2 */
    double K = k[b], X = x[b], Y = y[b];
    double hxx = 2 * K * Y * Y, hxy = 4 * K * X * Y, hyy = 2 * K * X * X;
    double wx = hxx * tx[b] + hxy * ty[b], wy = hxy * tx[b] + hyy * ty[b];
    if (!close_to(hx[b], wx, 1e-14) || !close_to(hy[b], wy, 1e-14))
      HFAIL("h %.17g %.17g, want %.17g %.17g (x=%g k=%d b=%zu)", hx[b], hy[b],
            wx, wy, X, k[b], b);
  }
}

/* ---- adapters ------------------------------------------------------------ */

static double s_line(const double *a) { return h_line(a[0], a[1], a[2]); }
static void hv_line(size_t n, double *const *A, double *const *T, double *r,
                    const double *s, double *const *D, double *const *H) {
  h_line_hvp(n, A[0], A[1], A[2][0], T[0], T[1], T[2], r, s, D[0], D[1], D[2],
             H[0], H[1], H[2]);
}
static void gr_line(size_t n, double *const *A, double *r, const double *s,
                    double *const *D) {
  h_line_grad(n, A[0], A[1], A[2][0], r, s, D[0], D[1], D[2]);
}
static void sm_line(rng_t *r, double *a) {
  a[0] = rng_range(r, -2, 2);
  a[1] = rng_range(r, -2, 2);
  a[2] = rng_range(r, -1.5, 1.5);
}

static double s_branch(const double *a) { return h_branch(a[0], a[1]); }
static void hv_branch(size_t n, double *const *A, double *const *T, double *r,
                      const double *s, double *const *D, double *const *H) {
  h_branch_hvp(n, A[0], A[1], T[0], T[1], r, s, D[0], D[1], H[0], H[1]);
}
static void gr_branch(size_t n, double *const *A, double *r, const double *s,
                      double *const *D) {
  h_branch_grad(n, A[0], A[1], r, s, D[0], D[1]);
}
static void sm_branch(rng_t *r, double *a) {
  a[0] = rng_range(r, -2, 2);
  a[1] = rng_range(r, -2, 2);
}

static double s_loop(const double *a) { return h_loop(a[0], a[1], a[2]); }
static void hv_loop(size_t n, double *const *A, double *const *T, double *r,
                    const double *s, double *const *D, double *const *H) {
  h_loop_hvp(n, A[0], A[1][0], A[2], T[0], T[1], T[2], r, s, D[0], D[1], D[2],
             H[0], H[1], H[2]);
}
static void gr_loop(size_t n, double *const *A, double *r, const double *s,
                    double *const *D) {
  h_loop_grad(n, A[0], A[1][0], A[2], r, s, D[0], D[1], D[2]);
}
static void sm_loop(rng_t *r, double *a) {
  a[0] = rng_range(r, -1.5, 1.5);
  a[1] = rng_range(r, -1, 1);
  a[2] = rng_range(r, 0, 2);
}

static double s_local(const double *a) { return h_local(a[0], a[1]); }
static void hv_local(size_t n, double *const *A, double *const *T, double *r,
                     const double *s, double *const *D, double *const *H) {
  h_local_hvp(n, A[0], A[1], T[0], T[1], r, s, D[0], D[1], H[0], H[1]);
}
static void gr_local(size_t n, double *const *A, double *r, const double *s,
                     double *const *D) {
  h_local_grad(n, A[0], A[1], r, s, D[0], D[1]);
}

static const hcase c_line = {"h_line", 3,       {0, 0, 1}, s_line,
                             t_line,   hv_line, gr_line,   sm_line};
static const hcase c_branch = {"h_branch", 2,         {0, 0},    s_branch,
                               t_branch,   hv_branch, gr_branch, sm_branch};
static const hcase c_loop = {"h_loop", 3,       {0, 1, 0}, s_loop,
                             t_loop,   hv_loop, gr_loop,   sm_loop};
static const hcase c_local = {"h_local", 2,        {0, 0},   s_local,
                              t_local,   hv_local, gr_local, sm_branch};

static void hvp_line(void **st) {
  (void)st;
  run_case(&c_line);
  symmetry(&c_line);
}
static void hvp_branch(void **st) {
  (void)st;
  run_case(&c_branch);
  symmetry(&c_branch);
}
static void hvp_loop(void **st) {
  (void)st;
  run_case(&c_loop);
  symmetry(&c_loop);
}
static double s_gamma(const double *a) { return h_gamma(a[0], a[1], a[2]); }
static void hv_gamma(size_t n, double *const *A, double *const *T, double *r,
                     const double *s, double *const *D, double *const *H) {
  h_gamma_hvp(n, A[0], A[1], A[2], T[0], T[1], T[2], r, s, D[0], D[1], D[2],
              H[0], H[1], H[2]);
}
static void gr_gamma(size_t n, double *const *A, double *r, const double *s,
                     double *const *D) {
  h_gamma_grad(n, A[0], A[1], A[2], r, s, D[0], D[1], D[2]);
}
static void sm_gamma(rng_t *r, double *a) {
  a[0] = rng_range(r, 0, 20);
  a[1] = rng_range(r, 0.1, 10);
  a[2] = rng_range(r, 0.2, 10);
}
static const hcase c_gamma = {"h_gamma", 3,        {0, 0, 0}, s_gamma,
                              t_gamma,   hv_gamma, gr_gamma,  sm_gamma};
static void hvp_gamma(void **st) {
  (void)st;
  run_case(&c_gamma);
  symmetry(&c_gamma);
}
static void hvp_local(void **st) {
  (void)st;
  run_case(&c_local);
  symmetry(&c_local);
}

/* Threads (n >= BD_PARALLEL_MIN_N): every output, the uniform sums too, bit
 * for bit the same for 1, 2 and 3 threads. */
static void hvp_threads(void **st) {
  (void)st;
  const hcase *c = &c_loop;
  rng_t rng = {name_seed("threads")};
  size_t n = 40000 + 3;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  double *tx = malloc(n * sizeof *tx), *ty = malloc(n * sizeof *ty);
  double *ref[5], *got[5], rw[2] = {0}, gw[2];
  for (size_t b = 0; b < n; b++) {
    x[b] = rng_range(&rng, -1.5, 1.5);
    y[b] = rng_range(&rng, 0, 2);
    tx[b] = rng_range(&rng, -1, 1);
    ty[b] = rng_range(&rng, -1, 1);
  }
  for (int k = 0; k < 5; k++) {
    ref[k] = calloc(n, sizeof(double));
    got[k] = calloc(n, sizeof(double));
  }
  double w = 0.8, tw = 0.3;
  bd_set_num_threads(1);
  h_loop_hvp(n, x, w, y, tx, &tw, ty, ref[0], NULL, ref[1], &rw[0], ref[2],
             ref[3], &rw[1], ref[4]);
  static const int counts[] = {2, 3};
  for (int t = 0; t < 2; t++) {
    bd_set_num_threads(counts[t]);
    for (int k = 0; k < 5; k++)
      memset(got[k], 0, n * sizeof(double));
    gw[0] = gw[1] = 0;
    h_loop_hvp(n, x, w, y, tx, &tw, ty, got[0], NULL, got[1], &gw[0], got[2],
               got[3], &gw[1], got[4]);
    for (int k = 0; k < 5; k++)
      if (memcmp(ref[k], got[k], n * sizeof(double)) != 0)
        HFAIL("output %d differs with %d threads", k, counts[t]);
    if (!same(rw[0], gw[0]) || !same(rw[1], gw[1]))
      HFAIL("uniform sums %.17g %.17g with 1 thread, %.17g %.17g with %d",
            rw[0], rw[1], gw[0], gw[1], counts[t]);
  }
  bd_set_num_threads(0);
  for (int k = 0; k < 5; k++) {
    free(ref[k]);
    free(got[k]);
  }
  free(x);
  free(y);
  free(tx);
  free(ty);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hvp_line),         cmocka_unit_test(hvp_branch),
      cmocka_unit_test(hvp_loop),         cmocka_unit_test(hvp_local),
      cmocka_unit_test(hvp_gamma),        cmocka_unit_test(hvp_arrays),
      cmocka_unit_test(hvp_output),       cmocka_unit_test(hvp_threads),
      cmocka_unit_test(hvp_zero_adjoint), cmocka_unit_test(hvp_layouts),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
