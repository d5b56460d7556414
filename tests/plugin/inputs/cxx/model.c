/* A C model whose generated functions a C++ program calls (cxx.test.sh):
 * scalar, uniform, integer, _Bool and array parameters, a branch and a
 * loop, so every kind of wrapper argument crosses the C/C++ boundary.
 * model is arithmetic only (bit-exact); softplus calls vector math.
 * pt_norm takes a struct by pointer: the header declares its tag. */
#include <batchdiff.h>
#include <math.h>

BATCHDIFF double model(double x, BD_UNIFORM double w, int k, _Bool flip,
                       const double v[3]) {
  double h = w * x + v[0] * v[1] - v[2];
  for (int i = 0; i < k; i++)
    h = h * 0.5 + h * h / (1.0 + h * h);
  return flip ? -h * h : h / (1.0 + fabs(h)) + x;
}

BD_BATCH BD_DIFF float softplus(float x) {
  return x > 20.0f ? x : log1pf(expf(x));
}

struct pt {
  double x, y;
};

BATCHDIFF double pt_norm(const struct pt *p) {
  return sqrt(p->x * p->x + p->y * p->y);
}
