/* A union without an integer member of its size inside a struct parameter
 * (at the parameter; the ABI passes a union's bits as that member). */
typedef union { double d; float f[2]; } num;
typedef struct { double x; num v; } boxed;
__attribute__((batch)) double f(boxed b) {
  // CHECK: struct-union-member.c:[[@LINE-1]]:39: error: member 'v' of 'boxed' of type 'num' is not supported in a batch/diff function; a union passed to or from the annotated function needs an integer member of its size ('uint64_t u'), which carries its bits; add one, or pass the member's value
  return b.x;
}
