/* uniform/nodiff appertain to parameters only. */
__attribute__((uniform)) float f(float x) { return x; }
// CHECK: attr-uniform-on-function.c:[[@LINE-1]]:16: error: 'uniform' attribute only applies to parameters
