/* Declared here marked batch, defined in another file (diagnostics case
 * diff-batched-nograd). */
#include <batchdiff.h>
BD_BATCH double bn_plain(double x);
