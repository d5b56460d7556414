/* Declared here marked batch, diff, defined in another file (diagnostics
 * case diff-batched-array). */
#include <batchdiff.h>
BATCHDIFF double bn_poly(double x, const double coef[], int N);
