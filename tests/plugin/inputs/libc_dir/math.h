/* A C library's <math.h> found through -I, as in musl's own build or a
 * sysroot passed with -I: its macros are not defined in a system header. */
#ifndef _LIBC_DIR_MATH_H
#define _LIBC_DIR_MATH_H
#include_next <math.h>
#undef FP_ILOGB0
#undef FP_ILOGBNAN
#define FP_ILOGB0 (-1 - 0x7fffffff)
#define FP_ILOGBNAN (-1 - 0x7fffffff)
#endif
