/* A hand-written prototype that disagrees with the contract's ABI is a
 * compile error: the generated declaration conflicts with it. */
// GENERATED: the conflict is found when the generated declaration arrives
#include <stddef.h>
void sq_batched(size_t n, const float *x, float *ret);
__attribute__((batch)) double sq(double x) { return x * x; }
// CHECK: <batchdiff:sq>:{{[0-9]+}}:6: error: conflicting types for 'sq_batched'
// CHECK: <batchdiff:sq>:{{[0-9]+}}:6: error: conflicting types for 'sq_batched'
