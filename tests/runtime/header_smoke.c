/* Compiled (not run) by CTest under C99/C11/gnu11, AVX2 and SSE2, with
 * -Wall -Wextra -pedantic -Wmissing-prototypes -Werror: the runtime headers
 * are included into user code compiled with arbitrary flags. */
#include <batchdiff/batchdiff_rt.h>

float bd_header_smoke(const float *x, float *y);
float bd_header_smoke(const float *x, float *y) {
  bd_f32n v = bd_load_f32n(x);
  bd_storen_f32n(y, bd_exp_f32n(v), 3);
  return bd_hsum_f32n(bd_select_f32n(bd_cmplt_f32n(v, v), v, v));
}
