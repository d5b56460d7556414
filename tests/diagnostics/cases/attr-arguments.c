/* The attributes take no arguments. */
__attribute__((batch(4))) float f(float x) { return x; }
// CHECK: attr-arguments.c:[[@LINE-1]]:16: error: 'batch' attribute takes no arguments
