#pragma clang system_header
/* batchdiff runtime: the vector API that generated code calls.
 *
 * Usage: #include <batchdiff/batchdiff_rt.h>, link with -lbatchdiff_rt -lm.
 * Vector width follows the compile flags (BD_VBYTES = 32 with AVX2, else 16);
 * see docs/runtime.md for the API, the width rules and math error bounds.
 * bd_set_num_threads / bd_get_num_threads (parallel.h) control the threads
 * that NAME_batched and NAME_grad use. */
#ifndef BATCHDIFF_RT_H
#define BATCHDIFF_RT_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <batchdiff/aos.h>
#include <batchdiff/order.h>
#include <batchdiff/parallel.h>
#include <batchdiff/simd.h>
#include <batchdiff/vmath.h>

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_RT_H */
