/* Logistic regression trained by minibatch SGD with batchdiff.
 *
 * The model is one annotated scalar function: the loss of ONE example. The
 * plugin adds logreg_loss_batched (the loss of a whole minibatch, SIMD over
 * examples) and logreg_loss_grad, whose BD_UNIFORM shadows d_w and d_b
 * receive the gradient summed over the minibatch: exactly what SGD needs.
 *
 * Usage: logreg [examples [epochs]]     (default 8192 examples, 20 epochs)
 *
 * Prints the loss and accuracy per epoch and writes them to logreg.dat
 * (plot it with `gnuplot plot.gp`: logreg.png). Before training it checks
 * the gradient once against central finite differences. Exits with status 1
 * if that check fails, if the loss did not fall or if the accuracy is not
 * well above chance. */
#include <batchdiff.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { D = 8, BATCH = 64 };

/* ---- the model: ordinary C ----------------------------------------------- */

/* Logistic loss of one example: features x[d], label y in {0, 1}, shared
 * weights w[d] and bias b. softplus(z) - y z, written so that exp never
 * overflows. */
BATCHDIFF double logreg_loss(BD_UNIFORM int d, BD_UNIFORM const double w[d],
                             BD_UNIFORM double b, const double x[d],
                             BD_NODIFF double y) {
  double z = b;
  for (int j = 0; j < d; j++)
    z += w[j] * x[j];
  double m = z > 0.0 ? z : 0.0;
  return m + log1p(exp(-fabs(z))) - y * z;
}

/* The logit, for predictions. (logreg_loss cannot call a helper with x and
 * w: array parameters cannot be passed on yet, so the dot product is
 * written twice.) */
__attribute__((batch)) double logreg_logit(BD_UNIFORM int d,
                                           BD_UNIFORM const double w[d],
                                           BD_UNIFORM double b,
                                           const double x[d]) {
  double z = b;
  for (int j = 0; j < d; j++)
    z += w[j] * x[j];
  return z;
}

/* ---- a generated data set ------------------------------------------------ */

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

/* x ~ N(0, I), y ~ Bernoulli(sigmoid(w_true . x + b_true)). */
static void bd_make_data(size_t n, double *x, double *y, bd_rng *g) {
  double w_true[D], b_true = 0.5;
  for (int j = 0; j < D; j++)
    w_true[j] = 2.0 * bd_normal(g) / sqrt((double)D);
  for (size_t i = 0; i < n; i++) {
    double z = b_true;
    for (int j = 0; j < D; j++) {
      x[i * D + j] = bd_normal(g);
      z += w_true[j] * x[i * D + j];
    }
    y[i] = bd_uniform(g) < 1.0 / (1.0 + exp(-z)) ? 1.0 : 0.0;
  }
}

/* ---- using the generated functions --------------------------------------- */

/* Mean loss and accuracy over n examples (row i of x at x + i * D). */
static double bd_mean_loss(size_t n, const double *x, const double *y,
                           const double *w, double b, double *loss) {
  logreg_loss_batched(n, D, w, b, x, D, y, loss);
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += loss[i];
  return s / (double)n;
}

static double bd_accuracy(size_t n, const double *x, const double *y,
                          const double *w, double b, double *z) {
  logreg_logit_batched(n, D, w, b, x, D, z);
  size_t right = 0;
  for (size_t i = 0; i < n; i++)
    right += (z[i] > 0.0) == (y[i] > 0.5);
  return (double)right / (double)n;
}

/* Gradient of the mean loss from logreg_loss_grad against central
 * differences of the mean loss from logreg_loss_batched; returns the
 * largest relative error. */
static double bd_check_gradient(size_t n, const double *x, const double *y,
                                const double *w, double b, double *tmp) {
  double dw[D] = {0}, db = 0.0;
  logreg_loss_grad(n, D, w, b, x, D, y, NULL, NULL, dw, &db, NULL, 0);
  double err = 0.0;
  for (int j = 0; j <= D; j++) {
    double wp[D], wm[D], bp = b, bm = b, h = 1e-5;
    memcpy(wp, w, sizeof wp);
    memcpy(wm, w, sizeof wm);
    if (j < D) {
      wp[j] += h;
      wm[j] -= h;
    } else {
      bp += h;
      bm -= h;
    }
    double fd = (bd_mean_loss(n, x, y, wp, bp, tmp) -
                 bd_mean_loss(n, x, y, wm, bm, tmp)) /
                (2.0 * h);
    double g = (j < D ? dw[j] : db) / (double)n;
    err = fmax(err, fabs(g - fd) / (fabs(fd) + 1e-3));
  }
  return err;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 8192;
  int epochs = argc > 2 ? atoi(argv[2]) : 20;
  if (n < 2 * BATCH || epochs < 2) {
    fprintf(stderr, "usage: %s [examples >= %d [epochs >= 2]]\n", argv[0],
            2 * BATCH);
    return 2;
  }
  size_t ntest = n / 4, ntrain = n - ntest;
  double *x = malloc(n * D * sizeof *x), *y = malloc(n * sizeof *y);
  double *tmp = malloc(n * sizeof *tmp), *bx = malloc(BATCH * D * sizeof *bx);
  double by[BATCH], bl[BATCH];
  size_t *perm = malloc(ntrain * sizeof *perm);
  FILE *dat = fopen("logreg.dat", "w"), *steps = fopen("logreg_steps.dat", "w");
  if (!x || !y || !tmp || !bx || !perm || !dat || !steps) {
    fprintf(stderr, "logreg: out of memory or cannot write logreg*.dat\n");
    return 2;
  }
  bd_rng g = {2026};
  bd_make_data(n, x, y, &g);
  const double *xt = x + ntrain * D, *yt = y + ntrain; /* held-out quarter */
  for (size_t i = 0; i < ntrain; i++)
    perm[i] = i;

  double w[D] = {0}, b = 0.0, lr = 0.02;
  for (int j = 0; j < D; j++) /* a non-trivial point for the check */
    w[j] = 0.1 * bd_normal(&g);
  double gerr = bd_check_gradient(ntrain, x, y, w, b, tmp);
  int bad = !(gerr < 1e-6); /* NaN fails */
  printf("gradient check vs central differences: max rel. error %.1e %s\n\n",
         gerr, bad ? "FAIL" : "ok");
  memset(w, 0, sizeof w);

  printf("%d features, %zu training and %zu test examples, minibatch %d\n", D,
         ntrain, ntest, BATCH);
  printf("%5s %12s %10s %10s\n", "epoch", "train loss", "train acc",
         "test acc");
  fprintf(dat, "# epoch train_loss train_accuracy test_accuracy\n");
  double first = 0.0, last = 0.0, acc = 0.0;
  for (int e = 0; e <= epochs; e++) {
    if (e > 0) {
      for (size_t i = ntrain - 1; i > 0; i--) { /* shuffle */
        size_t k = (size_t)(bd_uniform(&g) * (double)(i + 1)), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
      }
      for (size_t s = 0; s + BATCH <= ntrain; s += BATCH) {
        for (int i = 0; i < BATCH; i++) { /* gather one minibatch */
          memcpy(bx + i * D, x + perm[s + i] * D, D * sizeof *bx);
          by[i] = y[perm[s + i]];
        }
        double dw[D] = {0}, db = 0.0; /* shadows are incremented: zero them */
        logreg_loss_grad(BATCH, D, w, b, bx, D, by, bl, NULL, dw, &db, NULL,
                         0); /* bl: the losses, dw and db: their sums' grad */
        double l = 0.0;
        for (int i = 0; i < BATCH; i++)
          l += bl[i];
        fprintf(steps, "%.6f %.17g\n", e - 1 + (double)(s + BATCH) / ntrain,
                l / BATCH);
        for (int j = 0; j < D; j++)
          w[j] -= lr / BATCH * dw[j];
        b -= lr / BATCH * db;
      }
    }
    last = bd_mean_loss(ntrain, x, y, w, b, tmp);
    double tracc = bd_accuracy(ntrain, x, y, w, b, tmp);
    acc = bd_accuracy(ntest, xt, yt, w, b, tmp);
    if (e == 1)
      first = last;
    printf("%5d %12.6f %10.4f %10.4f\n", e, last, tracc, acc);
    fprintf(dat, "%d %.17g %.17g %.17g\n", e, last, tracc, acc);
  }
  fclose(dat);
  fclose(steps);
  /* Loss at w = 0 is log 2; after one epoch it must have fallen, and fallen
   * further by the end. The labels are drawn with |w_true| ~ 2: a fitted
   * model is right on ~80% of them. */
  int fell = last < first && first < log(2.0);
  int good = acc > 0.7;
  printf("\nloss fell (epoch 1 %.4f -> %.4f): %s; test accuracy %.3f > 0.7: "
         "%s\n",
         first, last, fell ? "ok" : "FAIL", acc, good ? "ok" : "FAIL");
  bad += !fell + !good;
  printf("wrote logreg.dat, logreg_steps.dat (gnuplot plot.gp draws "
         "logreg.png)\n");
  free(x);
  free(y);
  free(tmp);
  free(bx);
  free(perm);
  return bad ? 1 : 0;
}
