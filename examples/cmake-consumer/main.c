/* The application: calls the generated functions of model.c. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

float softplus(float x);
void softplus_batched(size_t n, const float *x, float *ret);
void softplus_grad(size_t n, const float *x, float *ret, const float *d_ret,
                   float *d_x);

#define N 37

int main(void) {
  float x[N], y[N], dx[N];
  for (int i = 0; i < N; i++) {
    x[i] = -9.0f + 0.75f * (float)i; /* crosses the x > 20 branch too */
    dx[i] = 0.0f;
  }
  softplus_batched(N, x, y);
  softplus_grad(N, x, NULL, NULL, dx);

  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = softplus(x[i]);
    /* d/dx softplus(x) = sigmoid(x), and exactly 1 on the x > 20 branch */
    double sig = x[i] > 20.0f ? 1.0 : 1.0 / (1.0 + exp(-(double)x[i]));
    /* one math-library call per example: allow a couple of ULP */
    if (fabsf(y[i] - want) > 2.0f * fabsf(want) * 1.2e-7f ||
        fabs(dx[i] - sig) > 1e-5 * (1.0 + fabs(sig))) {
      printf("x=%g: batched %g (scalar %g), grad %g (expected %g)\n", x[i],
             y[i], want, dx[i], sig);
      bad++;
    }
  }
  printf("cmake-consumer: %d of %d examples agree\n", N - bad, N);
  return bad != 0;
}
