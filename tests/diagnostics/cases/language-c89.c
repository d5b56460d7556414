/* The generated code is C99; C89 gets one error at the function. */
// FLAGS: -std=c89
__attribute__((batch, diff)) float f(float x) { return x * x; }
// CHECK: language-c89.c:[[@LINE-1]]:36: error: batchdiff generates C99: compile 'f' as C99 or later (-std=c99, gnu99, c11, ...), not as C89/C90
