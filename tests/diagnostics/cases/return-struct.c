/* Returning a struct with an array member (structs of scalar members can be
   returned). */
struct poly { double c[3]; };
__attribute__((batch)) struct poly f(float x) {
  // CHECK: return-struct.c:[[@LINE-1]]:36: error: the array member 'c' of the returned struct is not supported in a batch/diff function; return scalar members only
  struct poly p = {{x, x, x}};
  return p;
}
