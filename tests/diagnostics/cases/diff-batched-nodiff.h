/* Declared here marked batch, diff, defined in another file (diagnostics
 * case diff-batched-nodiff). */
#include <batchdiff.h>
BATCHDIFF double bn_mix(double x, BD_NODIFF double w);
