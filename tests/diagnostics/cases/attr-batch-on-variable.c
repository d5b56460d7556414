/* batch/diff appertain to functions only. */
__attribute__((batch)) float weights;
// CHECK: attr-batch-on-variable.c:[[@LINE-1]]:16: error: 'batch' attribute only applies to functions
