/* Every accepted spelling and placement of the attributes; must compile
 * with -Wall -Wextra -Werror and define every generated function. */
#include <batchdiff.h>

/* Separate attribute lists. */
BD_BATCH BD_DIFF float sq(float x) { return x * x; }

/* One list with both. */
__attribute__((batch, diff)) float cube(float x) { return x * x * x; }

/* The macro that means both. */
BATCHDIFF float scale(float x, int n BD_UNIFORM) { return x * (float)n; }

/* On a prototype only: carries to the definition, parameters included. */
float weighted(float x, float w BD_UNIFORM) __attribute__((batch));
float weighted(float x, float w) { return x * w; }

/* Prototype says batch, definition adds diff. */
BD_BATCH double mixed(double x, double y);
BD_DIFF double mixed(double x, double y BD_NODIFF) { return x * y; }

/* C23 / C++11-style spelling. */
[[batchdiff::batch]] [[batchdiff::diff]] double
c23(double x, double y [[batchdiff::nodiff]]) {
  return x + y;
}

/* Modes of diff: forward alone (NAME_jvp, no NAME_grad), reverse spelled
 * out next to forward, and the macro (GNU spelling only: clang drops the
 * arguments of [[batchdiff::diff(...)]], an error). */
__attribute__((diff(forward))) double fwd(double x, double w BD_UNIFORM) {
  return x * w;
}
__attribute__((batch, diff(reverse), diff(forward))) float both(float x) {
  return x * x;
}
BATCHDIFF BD_JVP double all3(double x) { return x - 1.0; }

/* static stays static; the generated function is used below. */
static BD_BATCH float internal(float x) { return x + 1.0f; }

/* static; its generated functions are never used and must not warn. */
static BD_BATCH BD_DIFF float lonely(float x) { return x * 0.5f; }

/* Later code calls the generated functions with no hand-written prototype. */
float use_generated(const float *x, float *out) {
  internal_batched(4, x, out);
  sq_batched(4, x, out);
  both_jvp(4, x, x, out, NULL);
  out[1] = lonely(x[1]);
  return out[0];
}
