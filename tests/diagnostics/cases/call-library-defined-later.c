/* A file's own body of a C library function's name after an annotated
   caller: the caller's generated code already uses the library's vector
   version, while the scalar function would call this body (cephes defines
   its own erf). A body before the caller is inlined (tests/exec/test_legacy.c). */
// GENERATED: the caller is generated before the body comes
#include <math.h>
__attribute__((batch)) double f(double x) { return erf(x) + fabs(x); }
double g(double x) { return x * 2.0; }
double erf(double x) { return 0.5 + 0 * x; }
// CHECK: call-library-defined-later.c:[[@LINE-1]]:8: error: 'erf' is defined after a batch/diff function that calls it, whose generated code already uses the C library's 'erf' there (the name of a C library function means the library's function unless its body or a declaration of its own comes first); define or declare 'erf' before the functions that call it, or give it a name of its own
// CHECK: call-library-defined-later.c:[[@LINE-4]]:52: note: the C library's 'erf' is called here
double fabs(double x) { return x < 0 ? -x : x; }
// CHECK: call-library-defined-later.c:[[@LINE-1]]:8: error: 'fabs' is defined after a batch/diff function that calls it, whose generated code already uses the C library's 'fabs' there (the name of a C library function means the library's function unless its body or a declaration of its own comes first); define or declare 'fabs' before the functions that call it, or give it a name of its own
// CHECK: call-library-defined-later.c:[[@LINE-7]]:61: note: the C library's 'fabs' is called here
