/* In a diff function, the value of a function defined in another file
   (declared in a header, called once per example) carries a derivative. */
// GENERATED: f waits for shape's body until the file ends; the declarations of f_batched/f_grad are injected right after f
#include "diff-extern.h"
__attribute__((batch, diff)) double f(double x, int k) {
  double c = shape(k); /* a constant: its argument is an integer */
  if (shapef((float)k) > 0.5f) /* only compared: no derivative needed */
    c += 1.0;
  return c * x + shape(x);
  // CHECK: diff-extern.c:[[@LINE-1]]:18: error: 'shape' is defined in another file, so its derivative is unknown to batchdiff, which calls it once per example; define it in this file (static inline in the header that declares it) so that it is inlined and differentiated, mark it batch, diff where it is declared and defined (numbers in, a number out: its file's 'shape_grad' then gives the derivative), compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
}
