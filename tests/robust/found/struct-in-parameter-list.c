/* tests/robust: errors in the generated code (kind "generated"), open.
   A struct parameter whose type the file scope cannot name: declared in the
   parameter list (visible only inside the function) or anonymous. Plain
   clang accepts this file (with -Wvisibility warnings); with the plugin
   (3 December, main ab9655d):
     clang-19 -fplugin=BUILD/lib/batchdiff/batchdiff.so -Iannotations \
       -Iruntime/include -fsyntax-only struct-in-parameter-list.c
   <batchdiff:by_value>: error: subscript of pointer to incomplete type
     'const struct pt' (the generated code names 'struct pt', which is
     another, incomplete type at file scope)
   <batchdiff:by_pointer>: error: declaration of anonymous struct must be a
     definition (the generated code spells 'struct (unnamed struct at ...)')
   Such a function can hardly be called from C (no caller can name the
   type), so a located error at the parameter ("declare the struct at file
   scope") is likely the fix, in the struct-parameter lowering
   (plugin/lower/LowerStruct.cpp / ArrayParams.cpp); enums in the same
   places are spelled as their integer type instead (tests/plugin/inputs/
   genwarn/enum_params.c). */
#include <batchdiff.h>
BATCHDIFF double by_value(struct pt { double a; } s, double x) {
  return s.a * x;
}
BATCHDIFF double by_pointer(const struct { double a; } *s, double x) {
  return s->a * x;
}
