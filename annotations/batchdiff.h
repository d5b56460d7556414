/* batchdiff annotations.
 *
 * Usage: #include <batchdiff.h>, then mark a scalar function BATCHDIFF (or
 * __attribute__((batch, diff))) and compile with -fplugin=batchdiff.so.
 * Without the plugin every annotation expands to nothing and the file is
 * ordinary C; only the generated NAME_batched / NAME_grad are missing. */
#ifndef BATCHDIFF_H
#define BATCHDIFF_H

/* __BATCHDIFF__ is predefined by the plugin; __has_attribute(batch) also
 * holds where the plugin is loaded but runs no AST action (the -E step of
 * -save-temps), so the preprocessed file keeps the runtime declarations. */
#if defined(__has_attribute)
#if __has_attribute(batch)
#define BD_PLUGIN_LOADED 1
#endif
#endif
#if defined(__BATCHDIFF__) || defined(BD_PLUGIN_LOADED)
#define BATCHDIFF __attribute__((batch, diff))
#define BD_BATCH __attribute__((batch))
#define BD_DIFF __attribute__((diff))
#define BD_UNIFORM __attribute__((uniform))
#define BD_NODIFF __attribute__((nodiff))
#include <batchdiff/batchdiff_rt.h>
#include <batchdiff/gen_support.h>
#else
#define BATCHDIFF
#define BD_BATCH
#define BD_DIFF
#define BD_UNIFORM
#define BD_NODIFF
#endif

#endif /* BATCHDIFF_H */
