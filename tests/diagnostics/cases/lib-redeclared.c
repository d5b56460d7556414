/* A function of <math.h> (or <string.h>) declared with another type than
 * the header's, which clang only warns about: the runtime headers the
 * generated code includes declare it again (reported once, at the first
 * annotated function). */
// FLAGS: -Wno-incompatible-library-redeclaration
float sinf(float, float);
// CHECK: lib-redeclared.c:[[@LINE-1]]:7: error: 'sinf' is declared here as 'float (float, float)', but <math.h>, which the generated code includes, declares it as 'float (float)': declare it as <math.h> does, or give this function another name
__attribute__((batch, diff)) float f(float x) { return x * x; }
