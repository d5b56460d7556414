/* NAME_hvp, forward over reverse: a ragged input array (gradient, tangent
 * and H·v arrays next to it), a uniform weight (its gradient and H·v summed
 * over the batch), a loop whose reverse sweep reads a tape (each taped
 * value's tangent gets a slot of its own); NAME_hvp only (BD_HVP is
 * diff(hvp); without diff, no NAME_grad). */
#include <batchdiff.h>
// DEFINES: sumsq sumsq_hvp
#include <math.h>

BD_HVP double sumsq(int n, const double v[n], BD_UNIFORM double w) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(w * v[i]) * v[i];
  return s * s;
}
// CHECK: void sumsq_hvp(size_t __bd_n, const int *__bd_a0, const double *__bd_a1, ptrdiff_t __bd_as1, double __bd_a2, const double *__bd_tg1, ptrdiff_t __bd_tgs1, const double *__bd_tg2, double *__bd_ret, const double *__bd_dret, double *__bd_d1, ptrdiff_t __bd_ds1, double *__bd_d2, double *__bd_hv1, ptrdiff_t __bd_hvs1, double *__bd_hv2)
