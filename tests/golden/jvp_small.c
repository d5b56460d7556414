/* Forward mode: a uniform weight, a per-lane branch, an input and an output
 * array; NAME_jvp only (BD_JVP is diff(forward); without diff, no NAME_grad). */
#include <batchdiff.h>
// DEFINES: scale scale_jvp
#include <math.h>

BD_JVP double scale(const double v[2],
                    BD_UNIFORM double w, double x, double out[1]) {
  double t = w * x + v[1];
  out[0] = t * v[0];
  if (t > 0)
    return sin(t) * v[0];
  return t;
}
// CHECK: void scale_jvp(size_t __bd_n, const double *__bd_a0, ptrdiff_t __bd_as0, double __bd_a1, const double *__bd_a2, double *__bd_a3, ptrdiff_t __bd_as3, const double *__bd_d0, ptrdiff_t __bd_ds0, const double *__bd_d1, const double *__bd_d2, double *__bd_d3, ptrdiff_t __bd_ds3, double *__bd_ret, double *__bd_dret)
