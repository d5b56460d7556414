/* Enum types the generated code cannot name (found by tests/robust): an
   anonymous enum, or one declared in the parameter list (visible only in
   the function), was spelled 'enum (unnamed at ...)' or 'enum E' in the
   generated declarations: syntax errors, an incomplete type. They are their
   integer type there. */
#pragma clang diagnostic ignored "-Wvisibility"
#include <batchdiff.h>
BATCHDIFF double pick_anon(enum { ANON_A, ANON_B } e, double x) {
  return e == ANON_A ? x : -x;
}
BATCHDIFF double pick_local(enum LOCAL { LOCAL_A = -1, LOCAL_B } e, double x) {
  return e == LOCAL_A ? x * x : x;
}
enum named { NAMED_A, NAMED_B };
typedef enum { TD_A, TD_B } td_mode;
BATCHDIFF double pick_named(enum named e, td_mode m, double x) {
  return e == NAMED_A ? x : m == TD_B ? 2 * x : -x;
}
BD_BATCH enum { RET_A, RET_B } sign_class(double x) {
  return x > 0 ? RET_A : RET_B;
}
