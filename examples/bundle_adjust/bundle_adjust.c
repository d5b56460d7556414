/* Bundle adjustment by Levenberg-Marquardt with batchdiff.
 *
 * The model is the reprojection residual of ONE observation: a camera of 11
 * parameters (Rodrigues rotation r, centre C, focal length f, principal
 * point x0, radial distortion k1, k2; the ADBench BA camera) sees a 3-D point
 * X at the measured image position (ox, oy). One residual component per
 * call (comp = 0: u, 1: v), so that reverse mode gives a Jacobian row per
 * example: reproj_grad over all observations, once with comp = 0 and once
 * with comp = 1, fills d_cam (11 per observation) and d_X (3 per
 * observation): the whole Jacobian in two calls.
 *
 * Usage: bundle_adjust [cameras [points [iterations]]]   (default 6 80 12)
 *
 * Generates a scene (cameras on an arc around a cloud of points, every point
 * seen by every camera, observations with noise), perturbs it and runs LM.
 * Prints the cost per iteration. Exits with status 1 if the Jacobian
 * disagrees with central differences, if the cost ever rises, or if it does
 * not fall to near the noise level. */
#include <batchdiff.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NC = 11, NP = 3 }; /* parameters per camera and per point */

/* ---- the model: ordinary C ----------------------------------------------- */

/* Component comp of (projection of X by cam) - (ox, oy). */
BATCHDIFF double reproj(const double cam[NC], const double X[NP],
                        BD_NODIFF double ox, BD_NODIFF double oy, int comp) {
  double p[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]};
  double q[3];
  double t2 = cam[0] * cam[0] + cam[1] * cam[1] + cam[2] * cam[2];
  if (t2 > 1e-20) { /* Rodrigues: rotate p about r / |r| by |r| */
    double t = sqrt(t2), c = cos(t), s = sin(t);
    double w[3] = {cam[0] / t, cam[1] / t, cam[2] / t};
    double wp = w[0] * p[0] + w[1] * p[1] + w[2] * p[2];
    q[0] = p[0] * c + (w[1] * p[2] - w[2] * p[1]) * s + w[0] * wp * (1 - c);
    q[1] = p[1] * c + (w[2] * p[0] - w[0] * p[2]) * s + w[1] * wp * (1 - c);
    q[2] = p[2] * c + (w[0] * p[1] - w[1] * p[0]) * s + w[2] * wp * (1 - c);
  } else { /* first order: p + r x p */
    q[0] = p[0] + cam[1] * p[2] - cam[2] * p[1];
    q[1] = p[1] + cam[2] * p[0] - cam[0] * p[2];
    q[2] = p[2] + cam[0] * p[1] - cam[1] * p[0];
  }
  double u = q[0] / q[2], v = q[1] / q[2];
  double r2 = u * u + v * v;
  double d = 1.0 + cam[9] * r2 + cam[10] * r2 * r2;
  if (comp == 0)
    return cam[6] * d * u + cam[7] - ox;
  return cam[6] * d * v + cam[8] - oy;
}

/* ---- the problem ----------------------------------------------------------
 */

typedef struct {
  int ncam, npt;
  size_t nobs;           /* ncam * npt: every camera sees every point */
  double *cams, *pts;    /* ncam * NC, npt * NP: the unknowns */
  double *obs;           /* nobs * 2 measured positions */
  int *oc, *op;          /* camera and point of each observation */
  double *gcam, *gpt;    /* per observation: copies of its camera and point */
  double *jc[2], *jp[2]; /* Jacobian rows per component */
  double *res[2];        /* residuals per component */
  int *comp[2];
} bd_ba;

typedef struct {
  uint64_t s;
} bd_rng;

static double bd_uniform(bd_rng *g) { /* splitmix64, in [0, 1) */
  uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double bd_normal(bd_rng *g) { /* Box-Muller */
  double u = 1.0 - bd_uniform(g), v = bd_uniform(g);
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* The calls above want one camera and one point per observation, each at
 * a fixed stride: gather them (a per-example index into a shared table is
 * not a parameter form batchdiff has). */
static void bd_gather(bd_ba *p) {
  for (size_t b = 0; b < p->nobs; b++) {
    memcpy(p->gcam + b * NC, p->cams + p->oc[b] * NC, NC * sizeof(double));
    memcpy(p->gpt + b * NP, p->pts + p->op[b] * NP, NP * sizeof(double));
  }
}

/* Residuals (and, with jac, the Jacobian rows); returns the cost
 * 0.5 |r|^2. */
static double bd_evaluate(bd_ba *p, int jac) {
  bd_gather(p);
  size_t n = p->nobs;
  double cost = 0.0;
  for (int k = 0; k < 2; k++) {
    const double *ox = p->obs, *oy = p->obs + n;
    if (jac) {
      memset(p->jc[k], 0, n * NC * sizeof(double)); /* shadows are += */
      memset(p->jp[k], 0, n * NP * sizeof(double));
      reproj_grad(n, p->gcam, NC, p->gpt, NP, ox, oy, p->comp[k], p->res[k],
                  NULL, p->jc[k], NC, p->jp[k], NP);
    } else {
      reproj_batched(n, p->gcam, NC, p->gpt, NP, ox, oy, p->comp[k], p->res[k]);
    }
    for (size_t b = 0; b < n; b++)
      cost += 0.5 * p->res[k][b] * p->res[k][b];
  }
  return cost;
}

static int bd_ba_init(bd_ba *p, int ncam, int npt, bd_rng *g) {
  p->ncam = ncam;
  p->npt = npt;
  size_t n = p->nobs = (size_t)ncam * npt;
  p->cams = calloc((size_t)ncam * NC, sizeof(double));
  p->pts = calloc((size_t)npt * NP, sizeof(double));
  p->obs = calloc(2 * n, sizeof(double));
  p->oc = calloc(n, sizeof(int));
  p->op = calloc(n, sizeof(int));
  p->gcam = calloc(n * NC, sizeof(double));
  p->gpt = calloc(n * NP, sizeof(double));
  int ok = p->cams && p->pts && p->obs && p->oc && p->op && p->gcam && p->gpt;
  for (int k = 0; k < 2; k++) {
    p->jc[k] = calloc(n * NC, sizeof(double));
    p->jp[k] = calloc(n * NP, sizeof(double));
    p->res[k] = calloc(n, sizeof(double));
    p->comp[k] = calloc(n, sizeof(int));
    ok = ok && p->jc[k] && p->jp[k] && p->res[k] && p->comp[k];
  }
  if (!ok)
    return 1;
  for (int c = 0; c < ncam; c++) { /* on an arc at distance 5, facing 0 */
    double phi = ncam > 1 ? -0.6 + 1.2 * c / (ncam - 1) : 0.0, *q;
    q = p->cams + c * NC;
    q[1] = phi;            /* rotation about y by phi */
    q[3] = 5.0 * sin(phi); /* centre */
    q[4] = 0.3 * (c % 2);
    q[5] = -5.0 * cos(phi);
    q[6] = 1.0; /* focal length (normalised units) */
    q[9] = 0.01, q[10] = -0.002;
  }
  for (int i = 0; i < npt * NP; i++)
    p->pts[i] = 2.0 * bd_uniform(g) - 1.0;
  for (size_t b = 0; b < n; b++) {
    p->oc[b] = (int)(b / npt);
    p->op[b] = (int)(b % npt);
    p->comp[0][b] = 0;
    p->comp[1][b] = 1;
  }
  /* observations: the true projections plus noise of 1e-3 */
  memset(p->obs, 0, 2 * n * sizeof(double));
  bd_evaluate(p, 0);
  for (size_t b = 0; b < n; b++) {
    p->obs[b] = p->res[0][b] + 1e-3 * bd_normal(g);
    p->obs[n + b] = p->res[1][b] + 1e-3 * bd_normal(g);
  }
  /* the starting point: every unknown perturbed */
  for (int c = 0; c < ncam; c++) {
    double *q = p->cams + c * NC;
    for (int i = 0; i < 3; i++) {
      q[i] += 0.02 * bd_normal(g);
      q[3 + i] += 0.1 * bd_normal(g);
    }
    q[6] *= 1.0 + 0.02 * bd_normal(g);
  }
  for (int i = 0; i < npt * NP; i++)
    p->pts[i] += 0.05 * bd_normal(g);
  return 0;
}

static void bd_ba_free(bd_ba *p) {
  free(p->cams), free(p->pts), free(p->obs), free(p->oc), free(p->op);
  free(p->gcam), free(p->gpt);
  for (int k = 0; k < 2; k++)
    free(p->jc[k]), free(p->jp[k]), free(p->res[k]), free(p->comp[k]);
}

/* ---- Levenberg-Marquardt on the dense normal equations ------------------- */

/* Column of unknown (camera c, parameter i) or (point j, coordinate i). */
static size_t bd_ccol(int c, int i) { return (size_t)c * NC + i; }
static size_t bd_pcol(const bd_ba *p, int j, int i) {
  return (size_t)p->ncam * NC + (size_t)j * NP + i;
}

/* A = J^T J, g = J^T r from the Jacobian rows (14 non-zeros per row). */
static void bd_normal_eq(const bd_ba *p, double *A, double *g, size_t m) {
  memset(A, 0, m * m * sizeof(double));
  memset(g, 0, m * sizeof(double));
  for (int k = 0; k < 2; k++)
    for (size_t b = 0; b < p->nobs; b++) {
      size_t col[NC + NP];
      double v[NC + NP];
      for (int i = 0; i < NC; i++) {
        col[i] = bd_ccol(p->oc[b], i);
        v[i] = p->jc[k][b * NC + i];
      }
      for (int i = 0; i < NP; i++) {
        col[NC + i] = bd_pcol(p, p->op[b], i);
        v[NC + i] = p->jp[k][b * NP + i];
      }
      for (int i = 0; i < NC + NP; i++) {
        g[col[i]] += v[i] * p->res[k][b];
        for (int j = 0; j < NC + NP; j++)
          A[col[i] * m + col[j]] += v[i] * v[j];
      }
    }
}

/* Solves (A + lambda diag(A)) x = -g by Cholesky; returns 1 if not
 * positive definite. */
static int bd_solve(const double *A, const double *g, double lambda, double *L,
                    double *x, size_t m) {
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j <= i; j++) {
      double s = A[i * m + j];
      if (i == j)
        s += lambda * A[i * m + i] + 1e-12;
      for (size_t k = 0; k < j; k++)
        s -= L[i * m + k] * L[j * m + k];
      if (i == j) {
        if (!(s > 0.0))
          return 1;
        L[i * m + i] = sqrt(s);
      } else {
        L[i * m + j] = s / L[j * m + j];
      }
    }
  for (size_t i = 0; i < m; i++) { /* L y = -g */
    double s = -g[i];
    for (size_t k = 0; k < i; k++)
      s -= L[i * m + k] * x[k];
    x[i] = s / L[i * m + i];
  }
  for (size_t i = m; i-- > 0;) { /* L^T x = y */
    double s = x[i];
    for (size_t k = i + 1; k < m; k++)
      s -= L[k * m + i] * x[k];
    x[i] = s / L[i * m + i];
  }
  return 0;
}

/* Jacobian rows against central differences of reproj() on a sample of
 * observations; returns the largest error relative to the row's scale. */
static double bd_check_jacobian(bd_ba *p) {
  bd_evaluate(p, 1);
  double err = 0.0;
  for (size_t b = 0; b < p->nobs; b += p->nobs / 7 + 1)
    for (int k = 0; k < 2; k++)
      for (int i = 0; i < NC + NP; i++) {
        double cam[NC], X[NP], *x = i < NC ? cam + i : X + (i - NC), h;
        memcpy(cam, p->gcam + b * NC, sizeof cam);
        memcpy(X, p->gpt + b * NP, sizeof X);
        double keep = *x, f[2];
        h = 1e-5 * fmax(fabs(keep), 1e-2); /* rounding ~ 1e-16 / h */
        for (int s = 0; s < 2; s++) {
          *x = keep + (s ? -h : h);
          f[s] = reproj(cam, X, p->obs[b], p->obs[p->nobs + b], k);
        }
        double fd = (f[0] - f[1]) / (2 * h);
        double an = i < NC ? p->jc[k][b * NC + i] : p->jp[k][b * NP + i - NC];
        err = fmax(err, fabs(an - fd) / (fabs(fd) + 1e-2));
      }
  return err;
}

int main(int argc, char **argv) {
  int ncam = argc > 1 ? atoi(argv[1]) : 6, npt = argc > 2 ? atoi(argv[2]) : 80;
  int iters = argc > 3 ? atoi(argv[3]) : 12;
  if (ncam < 2 || ncam > 50 || npt < 8 || npt > 2000 || iters < 2) {
    fprintf(stderr,
            "usage: %s [cameras 2..50 [points 8..2000 [iterations "
            ">= 2]]]\n",
            argv[0]);
    return 2;
  }
  bd_rng g = {11};
  bd_ba p;
  size_t m = (size_t)ncam * NC + (size_t)npt * NP;
  double *A = malloc(m * m * sizeof *A), *L = malloc(m * m * sizeof *L);
  double *gr = malloc(m * sizeof *gr), *dx = malloc(m * sizeof *dx);
  double *save = malloc(m * sizeof *save);
  if (!A || !L || !gr || !dx || !save || bd_ba_init(&p, ncam, npt, &g)) {
    fprintf(stderr, "bundle_adjust: out of memory\n");
    return 2;
  }
  double jerr = bd_check_jacobian(&p);
  int bad = !(jerr < 1e-6);
  printf("%d cameras x %d points = %zu observations, %zu residuals, %zu "
         "unknowns\n",
         ncam, npt, p.nobs, 2 * p.nobs, m);
  printf("Jacobian (reproj_grad, 2 calls) vs central differences: max rel. "
         "error %.1e %s\n\n",
         jerr, bad ? "FAIL" : "ok");

  double cost = bd_evaluate(&p, 1), first = cost, lambda = 1e-3;
  int rose = 0;
  printf("%4s %14s %10s\n", "iter", "cost", "lambda");
  printf("%4d %14.6e %10.1e\n", 0, cost, lambda);
  for (int it = 1; it <= iters; it++) {
    bd_normal_eq(&p, A, gr, m);
    memcpy(save, p.cams, (size_t)ncam * NC * sizeof(double));
    memcpy(save + (size_t)ncam * NC, p.pts, (size_t)npt * NP * sizeof(double));
    for (int tries = 0; tries < 10; tries++) {
      double nc = INFINITY;
      if (!bd_solve(A, gr, lambda, L, dx, m)) {
        for (size_t i = 0; i < m; i++) {
          double *u = i < (size_t)ncam * NC ? p.cams + i
                                            : p.pts + (i - (size_t)ncam * NC);
          *u = save[i] + dx[i];
        }
        nc = bd_evaluate(&p, 0);
      }
      if (nc < cost) { /* accept: Gauss-Newton-like next time */
        lambda = fmax(lambda / 10, 1e-9);
        break;
      }
      lambda *= 10; /* reject: more like gradient descent */
      memcpy(p.cams, save, (size_t)ncam * NC * sizeof(double));
      memcpy(p.pts, save + (size_t)ncam * NC,
             (size_t)npt * NP * sizeof(double));
    }
    double nc = bd_evaluate(&p, 1);
    rose += nc > cost;
    cost = nc;
    printf("%4d %14.6e %10.1e\n", it, cost, lambda);
  }
  /* noise 1e-3 per residual: the optimum costs about 0.5 * 1e-6 per
   * residual (a little less: the unknowns fit some of the noise) */
  double floor = 0.5e-6 * 2 * (double)p.nobs;
  int fell = !rose && cost < 3 * floor && cost < 1e-2 * first;
  printf("\ncost %.3e -> %.3e (noise level ~%.1e), never rose: %s\n", first,
         cost, floor, fell ? "ok" : "FAIL");
  bad += !fell;
  bd_ba_free(&p);
  free(A), free(L), free(gr), free(dx), free(save);
  return bad ? 1 : 0;
}
