/* errno, the C library's error code (glibc's <errno.h>: a macro for
 * (*__errno_location ())), read or written: the batched math functions do
 * not set it. Named as the user wrote it, not as the call the macro hides
 * (before: "a call returning a pointer"). */
#include <errno.h>
#include <math.h>
__attribute__((batch, diff)) double f(double x) {
  errno = 0;
  // CHECK: errno.c:[[@LINE-1]]:3: error: 'errno' (the C library's error code) is not supported in a batch/diff function; batched math functions do not set it: test the arguments or the results instead (isnan, isinf, a comparison)
  double y = log(x);
  if (errno == EDOM)
  // CHECK: errno.c:[[@LINE-1]]:7: error: 'errno' (the C library's error code) is not supported in a batch/diff function; batched math functions do not set it: test the arguments or the results instead (isnan, isinf, a comparison)
    return 0.0;
  return y;
}
