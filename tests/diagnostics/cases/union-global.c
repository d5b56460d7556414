/* A global union (unions work in locals and helpers). */
#include <stdint.h>
typedef union { double d; uint64_t u; } dbits;
static const dbits ONE = {1.0};
__attribute__((batch)) double f(double x) {
  return x * ONE.d;
  // CHECK: union-global.c:[[@LINE-1]]:14: error: global 'ONE' of type 'dbits' is not supported in a batch/diff function; unions work in locals and helpers; keep the values in a table of their type, or copy them into a local union
}
