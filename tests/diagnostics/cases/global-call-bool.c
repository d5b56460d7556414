/* A call made once per example of a function of another file, which may
   use a _Bool global the function writes before the call. */
// GENERATED: f waits for lg's body until the file ends; the declarations of f_batched are injected right after f
extern _Bool flag;
double lg(double);
__attribute__((batch)) double f(double x) {
  flag = x > 0;
  double y = lg(x);
  // CHECK: global-call-bool.c:[[@LINE-1]]:14: error: a call of 'lg', which may use _Bool global 'flag' the function writes, is not supported in a batch/diff function; use an int global, or pass the value as an argument
  return flag ? y : -y;
}
