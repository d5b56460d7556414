/* tests/robust seed 5 (robust.smoke's range on the whole corpus, 3 December):
   a warning in the generated code (kind "generated"), open.
   A writable 'unsigned long long *' (or 'long long *') parameter: the
   kernel's parameter is 'uint64_t *' ('unsigned long *'), and the chunk
   loop passes the caller's 'unsigned long long *' to it:
     clang-19 -O2 -march=native -fplugin=BUILD/lib/batchdiff/batchdiff.so \
       -Iannotations -Iruntime/include -Wsystem-headers -c ull-pointer-param.c
   <batchdiff:next_uniform>:40:27: warning: incompatible pointer types
     passing 'unsigned long long *' to parameter of type 'uint64_t *' (aka
     'unsigned long *') [-Wincompatible-pointer-types]
   (hidden without -Wsystem-headers; an error for compilers that make this
   constraint violation one, and in the emitted file compiled after the
   original under -Werror). Same size and representation, so the code is
   right; the kernel should take the declared element type (Pa.CType) for
   64-bit integer arrays (plugin/emit/Kernel.cpp, ctext::elemType). */
#include <batchdiff.h>
BATCHDIFF double next_uniform(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * 0x1.0p-53;
}
