/* As math.h here: the library's <stdint.h> through -I. */
#ifndef _LIBC_DIR_STDINT_H
#define _LIBC_DIR_STDINT_H
#include_next <stdint.h>
#undef INT32_MIN
#define INT32_MIN (-1 - 0x7fffffff)
#endif
