/* Annotated definitions followed by every kind of "next token" source: a
 * macro expansion, an #include, #pragma (annotation token and pure
 * preprocessor pragma), a C23 attribute, and finally end of file. */
#define DECLARE_AFTER float after_macro(float x);
#define DEFINE_IN_MACRO(name)                                                  \
  __attribute__((batch)) float name(float x) { return x * 2.0f; }

__attribute__((batch)) float f_macro(float x) { return x + 1.0f; }
DECLARE_AFTER

__attribute__((batch)) float f_include(float x) { return x + 2.0f; }
#include "next_token.h"

__attribute__((batch)) float f_pragma(float x) { return x + 3.0f; }
#pragma pack(push, 4)
struct packed { char c; float f; };
#pragma pack(pop)

__attribute__((batch)) float f_diag(float x) { return x + 4.0f; }
#pragma GCC diagnostic ignored "-Wunused-variable"

__attribute__((batch)) float f_attr(float x) { return x + 5.0f; }
[[batchdiff::batch]] float f_attr2(float x) { return x + 6.0f; }

DEFINE_IN_MACRO(f_in_macro)
DEFINE_IN_MACRO(f_in_macro2)

/* Calls without prototypes: the generated code is declared by now. */
void run_all(const float *x, float *out) {
  f_macro_batched(3, x, out);
  f_include_batched(3, x, out);
  f_pragma_batched(3, x, out);
  f_diag_batched(3, x, out);
  f_attr_batched(3, x, out);
  f_attr2_batched(3, x, out);
  f_in_macro_batched(3, x, out);
  f_in_macro2_batched(3, x, out);
}

__attribute__((batch, diff)) float f_eof(float x) { return x * x; }
