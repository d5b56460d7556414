/* A union inside a struct parameter (at the parameter). */
typedef union { double d; long long bits; } num;
typedef struct { double x; num v; } boxed;
__attribute__((batch, diff)) double f(boxed b) {
  // CHECK: struct-union-member.c:[[@LINE-1]]:45: error: member 'v' of 'boxed' of type 'num' is not supported in a batch/diff function; unions work inside the body (locals, and helpers' parameters and return values); pass or return the member's value instead
  return b.x;
}
