/* NAME_hvp of a function returning a struct (NAME_grad and NAME_jvp have
   them). */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
__attribute__((batch, diff(hvp))) pt f(double a) {
  // CHECK: struct-return-hvp.c:[[@LINE-1]]:38: error: diff(hvp) does not support a struct return value yet; return a scalar, or drop diff(hvp)
  pt p = {a * a, a};
  return p;
}
