/* batchdiff annotations.
 *
 * Usage: #include <batchdiff.h>, then mark a scalar function BATCHDIFF (or
 * __attribute__((batch, diff))) and compile with -fplugin=batchdiff.so.
 * Without the plugin every annotation expands to nothing and the file is
 * ordinary C; only the generated NAME_batched / NAME_grad / NAME_jvp are
 * missing.
 * Includable from any C standard and from C++ (where it declares the
 * runtime, e.g. bd_set_num_threads, with C linkage; functions of C++ files
 * cannot be annotated: compile them as C99 or later). */
#ifndef BATCHDIFF_H
#define BATCHDIFF_H

/* __BATCHDIFF__ is predefined by the plugin; __has_attribute(__batch__)
 * also holds where the plugin is loaded but runs no AST action (the -E step
 * of -save-temps), so the preprocessed file keeps the runtime declarations.
 * The attributes are written in their reserved spellings (__batch__ for
 * batch, __forward__ for forward): a user's macro named batch, diff or
 * forward does not rewrite them. */
#if defined(__has_attribute)
#if __has_attribute(__batch__)
#define BD_PLUGIN_LOADED 1
#endif
#endif
#if defined(__BATCHDIFF__) || defined(BD_PLUGIN_LOADED)
#define BATCHDIFF __attribute__((__batch__, __diff__))
#define BD_BATCH __attribute__((__batch__))
#define BD_DIFF __attribute__((__diff__))
/* NAME_jvp (forward mode); with BATCHDIFF or BD_DIFF, NAME_grad too. */
#define BD_JVP __attribute__((__diff__(__forward__)))
/* NAME_hvp (gradient and Hessian-vector product, forward over reverse). */
#define BD_HVP __attribute__((__diff__(__hvp__)))
#define BD_UNIFORM __attribute__((__uniform__))
#define BD_NODIFF __attribute__((__nodiff__))
/* Ragged arrays without padding (docs/abi.md): example b's array at
 * p + p_off[b] (BD_PACKED) or at p[b] (BD_POINTERS). */
#define BD_PACKED __attribute__((__ragged_offsets__))
#define BD_POINTERS __attribute__((__ragged_pointers__))
/* The extent of a pointer parameter, after its declarator, where C cannot
 * declare it: `const double *x BD_EXTENT(n), int n` (n follows x). Integer
 * arithmetic over integer parameters and constants; macros in it expand. */
#define BD_EXTENT(e) __attribute__((__extent__(BD_EXTENT_TEXT_(e))))
#define BD_EXTENT_TEXT_(e) #e
/* The runtime's vector API is C99 and C++ (clang); the generated code and
 * gen_support.h only C99. In C89/C90 only the annotations are defined: an
 * annotated function there gets the plugin's one-line error, anything else
 * compiles as before. */
#if defined(__cplusplus)
#include <batchdiff/batchdiff_rt.h>
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#include <batchdiff/batchdiff_rt.h>
#include <batchdiff/gen_support.h>
#endif
#else
#define BATCHDIFF
#define BD_BATCH
#define BD_DIFF
#define BD_JVP
#define BD_HVP
#define BD_UNIFORM
#define BD_NODIFF
#define BD_PACKED
#define BD_POINTERS
#define BD_EXTENT(e)
#endif

#endif /* BATCHDIFF_H */
