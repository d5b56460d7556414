/* The model: ordinary C plus one annotation. Compiled with the plugin, this
 * file also defines softplus_batched and softplus_grad. */
#include <batchdiff.h>
#include <math.h>

BATCHDIFF
float softplus(float x) { return x > 20.0f ? x : log1pf(expf(x)); }
