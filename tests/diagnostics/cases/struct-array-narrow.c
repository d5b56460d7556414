/* A short member in an array of records (members are read as arrays of
   their own, which need int, float or double elements). */
typedef struct { double x; short k; } pt;
__attribute__((batch)) double f(const pt *p) {
  // CHECK: struct-array-narrow.c:[[@LINE-1]]:43: error: the member 'k' of type 'short' in the array of records 'p' is not supported in a batch/diff function; use int, float or double members (narrow integer and _Bool members are not supported in arrays of records yet)
  return p->x * p->k;
}
