/* NAME_hvp (docs/abi.md): per example the gradient and the Hessian-vector
 * product, checked against a hyper-dual-number twin of each function in
 * long double (x + a e1 + b e2 + c e1e2 carries e_p' H v exactly), against
 * central finite differences of NAME_grad along the direction, and for the
 * ABI's mechanics: the gradient and ret bit for bit those of NAME_grad and
 * NAME_batched, H symmetric, every example independent of its neighbours,
 * NULL tangents exactly the zero direction, d_p NULL with h_p given,
 * uniform H·v summed over the batch, the same bits on 1, 2 and 3 threads.
 * Array parameters and outputs: test_hvp_arrays.c. */
#include "hvp_twin.h"

#include "../common/gamma_ref.h"
#include "../common/test_filter.h"

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

/* A local array indexed per lane and a helper call (hsq, hvp_twin.h). */
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
/* Bessel functions (J0' = -J1, J1' = J0 - J1/x, the same for Y): the
 * derivative rules' MATH and division, differentiated again. */
BATCHDIFF BD_HVP double h_bessel(double x, double y) {
  return j0(x) * y + j1(x * y) + y0(x * x + 0.5) * y1(y + 1.0);
}
static hd hd_j0(hd x) {
  long double v = x.a, j1 = j1l(v);
  return hd_fn(x, j0l(v), -j1, -(j0l(v) - j1 / v));
}
static hd hd_j1(hd x) {
  long double v = x.a, j0 = j0l(v), j1 = j1l(v), d = j0 - j1 / v;
  /* J1'' = -J1 - J1'/x + J1/x^2 */
  return hd_fn(x, j1, d, -j1 - d / v + j1 / (v * v));
}
static hd hd_y0(hd x) {
  long double v = x.a, y1 = y1l(v);
  return hd_fn(x, y0l(v), -y1, -(y0l(v) - y1 / v));
}
static hd hd_y1(hd x) {
  long double v = x.a, y0 = y0l(v), y1 = y1l(v), d = y0 - y1 / v;
  return hd_fn(x, y1, d, -y1 - d / v + y1 / (v * v));
}
static hd t_bessel(const hd *a) {
  hd x = a[0], y = a[1];
  hd v = hd_add(hd_mul(hd_j0(x), y), hd_j1(hd_mul(x, y)));
  return hd_add(v, hd_mul(hd_y0(hd_add(hd_mul(x, x), hd_k(0.5L))),
                          hd_y1(hd_add(y, hd_k(1)))));
}

/* Orders n (jn, yn): the rule (J_{n-1} - J_{n+1}) / 2 differentiated
 * again, J_n'' = (J_{n-2} - 2 J_n + J_{n+2}) / 4 (the same for Y). */
BATCHDIFF BD_HVP double h_besseln(double x, double y) {
  return jn(3, x) * y + yn(2, x * x + 0.5) + jn(-2, y) * x + yn(0, y);
}
static hd hd_jn(int n, hd x) {
  long double v = x.a;
  return hd_fn(x, jnl(n, v), 0.5L * (jnl(n - 1, v) - jnl(n + 1, v)),
               0.25L * (jnl(n - 2, v) - 2 * jnl(n, v) + jnl(n + 2, v)));
}
static hd hd_yn(int n, hd x) {
  long double v = x.a;
  return hd_fn(x, ynl(n, v), 0.5L * (ynl(n - 1, v) - ynl(n + 1, v)),
               0.25L * (ynl(n - 2, v) - 2 * ynl(n, v) + ynl(n + 2, v)));
}
static hd t_besseln(const hd *a) {
  hd x = a[0], y = a[1];
  hd v = hd_add(hd_mul(hd_jn(3, x), y),
                hd_yn(2, hd_add(hd_mul(x, x), hd_k(0.5L))));
  return hd_add(v, hd_add(hd_mul(hd_jn(-2, y), x), hd_yn(0, y)));
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

static const size_t hns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 300};
#define N_HNS (sizeof hns / sizeof hns[0])

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
    if (!close_to(est[0][j], est[1][j], 1e-5))
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
          if (c->unif[j] ? !close_to_ld(D[j][b], Dg[j][b], 1e-13)
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
          if (!close_to_ld(h1[j], th[j], 1e-12) ||
              !close_to_ld(g1[j], tg[j], 1e-13))
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
            if (!close_to(h1[j], fd[j], 1e-6))
              HFAIL("h_%d %.17g vs finite differences of NAME_grad %.17g "
                    "(n=%zu b=%zu)",
                    j, h1[j], fd[j], n, b);
        }
      }
      for (int j = 0; j < c->np; j++)
        if (c->unif[j] && !close_to_ld(H[j][0], usum[j], 1e-12))
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
        if (!close_to_ld(Hm[p][q], Hm[q][p], 1e-12))
          HFAIL("H[%d][%d] %.17g != H[%d][%d] %.17g", p, q, Hm[p][q], q, p,
                Hm[q][p]);
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
static double s_bessel(const double *a) { return h_bessel(a[0], a[1]); }
static void hv_bessel(size_t n, double *const *A, double *const *T, double *r,
                      const double *s, double *const *D, double *const *H) {
  h_bessel_hvp(n, A[0], A[1], T[0], T[1], r, s, D[0], D[1], H[0], H[1]);
}
static void gr_bessel(size_t n, double *const *A, double *r, const double *s,
                      double *const *D) {
  h_bessel_grad(n, A[0], A[1], r, s, D[0], D[1]);
}
static void sm_bessel(rng_t *r, double *a) {
  a[0] = rng_range(r, -6, 6);
  a[1] = rng_range(r, 0.1, 4);
}
static const hcase c_bessel = {"h_bessel", 2,         {0, 0},    s_bessel,
                               t_bessel,   hv_bessel, gr_bessel, sm_bessel};
static void hvp_bessel(void **st) {
  (void)st;
  run_case(&c_bessel);
  symmetry(&c_bessel);
}
static double s_besseln(const double *a) { return h_besseln(a[0], a[1]); }
static void hv_besseln(size_t n, double *const *A, double *const *T, double *r,
                       const double *s, double *const *D, double *const *H) {
  h_besseln_hvp(n, A[0], A[1], T[0], T[1], r, s, D[0], D[1], H[0], H[1]);
}
static void gr_besseln(size_t n, double *const *A, double *r, const double *s,
                       double *const *D) {
  h_besseln_grad(n, A[0], A[1], r, s, D[0], D[1]);
}
static const hcase c_besseln = {"h_besseln", 2,          {0, 0},     s_besseln,
                                t_besseln,   hv_besseln, gr_besseln, sm_bessel};
static void hvp_besseln(void **st) {
  (void)st;
  run_case(&c_besseln);
  symmetry(&c_besseln);
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
      cmocka_unit_test(hvp_line),    cmocka_unit_test(hvp_branch),
      cmocka_unit_test(hvp_loop),    cmocka_unit_test(hvp_local),
      cmocka_unit_test(hvp_gamma),   cmocka_unit_test(hvp_bessel),
      cmocka_unit_test(hvp_besseln), cmocka_unit_test(hvp_threads),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
