/* A local pointer to string literals (R nmath's ML_WARNING: 'char *msg =
   ""; switch ... printf(msg, s);') may only be assigned literals and passed
   whole to calls made once per example; reading its characters is refused. */
#include <stdio.h>
__attribute__((batch)) double f(double x) {
  const char *msg = x < 0 ? "negative" : "positive";
  if (msg[0] == 'n')
  // CHECK: string-local-use.c:[[@LINE-1]]:7: error: using 'msg', a local pointer to string literals, other than as an argument of a call is not supported in a batch/diff function; such a pointer may only be assigned string literals ('msg = "..."', 'c ? "a" : "b"') and passed whole to functions called once per example (printf, an error reporter)
    x = -x;
  puts(msg);
  return x;
}
