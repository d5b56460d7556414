/* Declared here marked batch, diff, defined in another file (diagnostics
 * case diff-batched-hvp). */
#include <batchdiff.h>
BATCHDIFF double bn_kink(double x, double y);
