/* Structs inside the body (issue 11 part 1): a complex-number helper
 * returning a struct by value, a struct local updated in a loop, a pointer
 * to a struct passed to a helper. Scalarized by the lowering: the generated
 * code has one variable per member and no struct at all. */
#include <batchdiff.h>
// DEFINES: cabs2 cabs2_batched cabs2_grad
// The ABI is the scalar one, and no struct is left in the generated code.
// CHECK-NOT: cplx
// CHECK: void cabs2_batched(size_t __bd_n, const double *__bd_a0, const double *__bd_a1, const int *__bd_a2, double *__bd_ret) {
// CHECK-NOT: cplx

typedef struct {
  double re, im;
} cplx;

static cplx cmul(cplx a, cplx b) {
  return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
static double norm2(const cplx *z) { return z->re * z->re + z->im * z->im; }

BATCHDIFF double cabs2(double re, double im, int k) {
  cplx z = {re, im}, acc = {1.0, 0.0};
  for (int i = 0; i < k; i++)
    acc = cmul(acc, z);
  return norm2(&acc);
}
