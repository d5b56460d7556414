/* A table of _Bool: tables of char, short, int, long, float and double work. */
static const _Bool on[4] = {1, 0, 0, 1};
__attribute__((batch)) int f(int i) {
  return on[i & 3];
  // CHECK: global-table-type.c:[[@LINE-1]]:10: error: the global table 'on' of type 'const _Bool[4]' is not supported in a batch/diff function; use a table of char, short, int, long, float or double elements
}
