/* Declared here marked batch (and diff), defined in another file, with
 * parameters a call cannot pass through their generated functions
 * (diagnostics case diff-batched-args). */
#include <batchdiff.h>
BATCHDIFF double bn_coef(double x, double *coef, int n);
BD_BATCH double bn_plaincoef(double x, double coef[], int n);
BATCHDIFF double bn_read(BD_NODIFF double k, const double *c);
