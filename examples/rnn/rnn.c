/* An Elman RNN over a ragged batch of sequences, trained with batchdiff.
 *
 * The annotated function runs the recurrent cell over ONE sequence of its
 * own length and returns that sequence's loss; the weights are BD_UNIFORM.
 * rnn_loss_grad then takes a batch of sequences of different lengths
 * (len[b] values each, in rows of a padded array): every example runs
 * exactly its own number of steps under an execution mask, the reverse
 * sweep walks each one's steps back, and the weight shadows receive the
 * gradient summed over the batch.
 *
 * Toy task: read a sequence of 1..MAXLEN numbers in [-1, 1] and output a
 * quarter of their sum.
 *
 * Usage: rnn [steps]          (default 1500 Adam steps of 32 sequences)
 *
 * Prints the loss as it trains and writes it to rnn.dat (`gnuplot plot.gp`
 * draws rnn.png). Checks the gradient once against central differences.
 * Exits with status 1 if that check fails or the trained model is not much
 * better than predicting 0. */
#include <batchdiff.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H = 8, MAXLEN = 16, BATCH = 32, NTEST = 512 };

/* ---- the model: ordinary C ----------------------------------------------- */

/* h_t = tanh(Wx x_t + Wh h_{t-1} + bh), y = wo . h_len + bo, loss
 * (y - target)^2 / 2. The weight matrix Wh is stored by rows in wh[H * H]. */
BATCHDIFF double rnn_loss(int len, const double x[len], BD_NODIFF double target,
                          BD_UNIFORM const double wx[H],
                          BD_UNIFORM const double wh[H * H],
                          BD_UNIFORM const double bh[H],
                          BD_UNIFORM const double wo[H], BD_UNIFORM double bo) {
  double h[H] = {0}, next[H];
  for (int t = 0; t < len; t++) {
    for (int i = 0; i < H; i++) {
      double a = bh[i] + wx[i] * x[t];
      for (int j = 0; j < H; j++)
        a += wh[i * H + j] * h[j];
      next[i] = tanh(a);
    }
    for (int i = 0; i < H; i++)
      h[i] = next[i];
  }
  double y = bo;
  for (int i = 0; i < H; i++)
    y += wo[i] * h[i];
  double e = y - target;
  return 0.5 * e * e;
}

/* ---- parameters in one vector, for the optimiser ------------------------- */

enum {
  P_WX = 0,
  P_WH = H,
  P_BH = H + H * H,
  P_WO = 2 * H + H * H,
  P_BO = 3 * H + H * H,
  NPARAM = 3 * H + H * H + 1
};

/* Mean loss of n sequences (row b of x at x + b * MAXLEN, len[b] long). */
static double bd_mean_loss(size_t n, const int *len, const double *x,
                           const double *target, const double *p, double *tmp) {
  rnn_loss_batched(n, len, x, MAXLEN, target, p + P_WX, p + P_WH, p + P_BH,
                   p + P_WO, p[P_BO], tmp);
  double s = 0.0;
  for (size_t b = 0; b < n; b++)
    s += tmp[b];
  return s / (double)n;
}

/* The gradient of the summed loss; g must be zero on entry (shadows are
 * incremented). ret (may be NULL) receives the per-sequence losses. */
static void bd_gradient(size_t n, const int *len, const double *x,
                        const double *target, const double *p, double *g,
                        double *ret) {
  rnn_loss_grad(n, len, x, MAXLEN, target, p + P_WX, p + P_WH, p + P_BH,
                p + P_WO, p[P_BO], ret, NULL, NULL, 0, g + P_WX, g + P_WH,
                g + P_BH, g + P_WO, g + P_BO);
}

/* ---- data ---------------------------------------------------------------- */

typedef struct {
  uint64_t s;
} bd_rng;

static double bd_uniform(bd_rng *g) { /* splitmix64, in [0, 1) */
  uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

/* n sequences of random lengths 1..MAXLEN; the padding stays untouched
 * (NaN here, so reading it would show). */
static void bd_make_batch(size_t n, int *len, double *x, double *target,
                          bd_rng *g) {
  for (size_t b = 0; b < n; b++) {
    len[b] = 1 + (int)(bd_uniform(g) * MAXLEN);
    double s = 0.0;
    for (int t = 0; t < MAXLEN; t++) {
      double v = 2.0 * bd_uniform(g) - 1.0;
      x[b * MAXLEN + t] = t < len[b] ? v : NAN;
      s += t < len[b] ? v : 0.0;
    }
    target[b] = 0.25 * s;
  }
}

/* Largest relative error of the gradient against central differences. */
static double bd_check_gradient(size_t n, const int *len, const double *x,
                                const double *target, double *p, double *tmp) {
  double g[NPARAM] = {0};
  bd_gradient(n, len, x, target, p, g, NULL);
  double err = 0.0;
  for (int k = 0; k < NPARAM; k++) {
    double keep = p[k], h = 1e-5;
    p[k] = keep + h;
    double lp = bd_mean_loss(n, len, x, target, p, tmp);
    p[k] = keep - h;
    double lm = bd_mean_loss(n, len, x, target, p, tmp);
    p[k] = keep;
    double fd = (lp - lm) / (2.0 * h), an = g[k] / (double)n;
    err = fmax(err, fabs(an - fd) / (fabs(fd) + 1e-4));
  }
  return err;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 1500;
  if (steps < 10) {
    fprintf(stderr, "usage: %s [steps >= 10]\n", argv[0]);
    return 2;
  }
  static int tlen[NTEST], blen[BATCH];
  static double tx[NTEST * MAXLEN], tt[NTEST], tmp[NTEST];
  static double bx[BATCH * MAXLEN], bt[BATCH], bl[BATCH];
  bd_rng g = {7};
  bd_make_batch(NTEST, tlen, tx, tt, &g);

  double p[NPARAM], m[NPARAM] = {0}, v[NPARAM] = {0};
  for (int k = 0; k < NPARAM; k++) /* small random weights */
    p[k] = (2.0 * bd_uniform(&g) - 1.0) * 0.5;

  double gerr = bd_check_gradient(64, tlen, tx, tt, p, tmp);
  int bad = !(gerr < 1e-6); /* NaN fails */
  printf("gradient check vs central differences (%d weights, 64 sequences "
         "of 1..%d steps): max rel. error %.1e %s\n\n",
         NPARAM, MAXLEN, gerr, bad ? "FAIL" : "ok");

  double var = 0.0; /* the loss of always answering 0 */
  for (int b = 0; b < NTEST; b++)
    var += 0.5 * tt[b] * tt[b] / NTEST;
  FILE *dat = fopen("rnn.dat", "w");
  if (!dat) {
    fprintf(stderr, "rnn: cannot write rnn.dat\n");
    return 2;
  }
  fprintf(dat,
          "# step minibatch_loss test_loss (test: every %d steps; NaN: none)\n",
          steps / 20);
  printf("Elman RNN, %d hidden units, minibatches of %d sequences of 1..%d "
         "steps; answering 0 has test loss %.4f\n",
         H, BATCH, MAXLEN, var);
  printf("%6s %14s %10s\n", "step", "minibatch loss", "test loss");
  double b1 = 0.9, b2 = 0.999, test = bd_mean_loss(NTEST, tlen, tx, tt, p, tmp);
  fprintf(dat, "0 NaN %.9g\n", test);
  printf("%6d %14s %10.5f\n", 0, "-", test);
  for (int s = 1; s <= steps; s++) {
    double lr = 0.01 * (1.0 - 0.95 * s / steps); /* decays linearly */
    bd_make_batch(BATCH, blen, bx, bt, &g);
    double gr[NPARAM] = {0};
    bd_gradient(BATCH, blen, bx, bt, p, gr, bl);
    double l = 0.0;
    for (int b = 0; b < BATCH; b++)
      l += bl[b] / BATCH;
    for (int k = 0; k < NPARAM; k++) { /* Adam */
      double gk = gr[k] / BATCH;
      m[k] = b1 * m[k] + (1 - b1) * gk;
      v[k] = b2 * v[k] + (1 - b2) * gk * gk;
      double mh = m[k] / (1 - pow(b1, s)), vh = v[k] / (1 - pow(b2, s));
      p[k] -= lr * mh / (sqrt(vh) + 1e-8);
    }
    fprintf(dat, "%d %.9g", s, l);
    if (s % (steps / 20) == 0 || s == steps) {
      test = bd_mean_loss(NTEST, tlen, tx, tt, p, tmp);
      fprintf(dat, " %.9g", test);
      if (s % (steps / 5) == 0 || s == steps)
        printf("%6d %14.5f %10.5f\n", s, l, test);
    }
    fprintf(dat, "\n");
  }
  fclose(dat);
  int good = test < 0.2 * var;
  printf("\ntest loss %.5f < 0.2 x the loss of answering 0 (%.5f): %s\n", test,
         0.2 * var, good ? "ok" : "FAIL");
  bad += !good;
  printf("wrote rnn.dat (gnuplot plot.gp draws rnn.png)\n");
  return bad ? 1 : 0;
}
