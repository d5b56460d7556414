/* A local array initialised from a string literal. */
__attribute__((batch)) int f(int i) {
  char s[4] = "abc";
  // CHECK: local-array-initializer.c:[[@LINE-1]]:15: error: this array initializer is not supported in a batch/diff function; initialise with a brace list of values
  return s[i & 3];
}
