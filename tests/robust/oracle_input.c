/* A valid annotated file for robust.oracle_catches_* (fake_cc.py makes the
   "plugin" crash, fail without a location or warn in generated code). */
#include <batchdiff.h>
BATCHDIFF double f(double x, int n) {
  double s = x;
  for (int i = 0; i < n; i++)
    s = s * 0.5 + x;
  return s;
}
