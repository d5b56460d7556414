/* A BD_UNIFORM array passed whole to a function called once per example
   (here because of its string literal) that takes a pointer to non-const:
   the callee might write the one array every example shares. */
// GENERATED: the declarations of f_batched/f_grad are injected right after f
// FLAGS: -Wno-incompatible-pointer-types-discards-qualifiers
#include <batchdiff.h>
int parse(const char *what, char *s, int k);
__attribute__((batch)) double f(BD_UNIFORM const char *s, double x, int k) {
  return x * parse("field", s, k);
  // CHECK: call-extern-array-nonconst.c:[[@LINE-1]]:29: error: passing the BD_UNIFORM array 's' as a pointer to non-const to 'parse', which is called once per example, is not supported in a batch/diff function; pass it where the callee takes a pointer to const ('const char *') and do not write it: one array serves the whole batch
}
