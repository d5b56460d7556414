/* ... not to typedefs either. */
typedef float __attribute__((diff)) real;
// CHECK: attr-diff-on-typedef.c:[[@LINE-1]]:30: error: 'diff' attribute only applies to functions
