/* Attributes where they do not belong; checked with FileCheck. */

__attribute__((batch)) int global_var;
// CHECK: misplaced.c:[[@LINE-1]]:16: error: 'batch' attribute only applies to functions

struct S {
  float field __attribute__((diff));
  // CHECK: misplaced.c:[[@LINE-1]]:30: error: 'diff' attribute only applies to functions
};

__attribute__((uniform)) float not_a_param(float x) { return x; }
// CHECK: misplaced.c:[[@LINE-1]]:16: error: 'uniform' attribute only applies to parameters

__attribute__((nodiff)) float also_global;
// CHECK: misplaced.c:[[@LINE-1]]:16: error: 'nodiff' attribute only applies to parameters

__attribute__((batch(1))) float with_args(float x) { return x; }
// CHECK: misplaced.c:[[@LINE-1]]:16: error: 'batch' attribute takes no arguments

float local_var(float x) {
  float y __attribute__((uniform)) = x;
  // CHECK: misplaced.c:[[@LINE-1]]:26: error: 'uniform' attribute only applies to parameters
  return y;
}

__attribute__((batch)) float counted(float x, int n __attribute__((nodiff))) {
  // CHECK: misplaced.c:[[@LINE-1]]:68: warning: 'nodiff' has no effect on parameter 'n' of non-floating type 'int'
  return x * (float)n;
}

float unmarked(float x __attribute__((uniform)), float y __attribute__((nodiff))) {
  return x + y;
}
// CHECK: misplaced.c:[[@LINE-3]]:39: warning: 'uniform' has no effect on a function that is not marked batch or diff
// CHECK: misplaced.c:[[@LINE-4]]:73: warning: 'nodiff' has no effect on a function that is not marked batch or diff
