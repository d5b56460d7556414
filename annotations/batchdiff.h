/* batchdiff annotations.
 *
 * Usage: #include <batchdiff.h>, then mark a scalar function BATCHDIFF (or
 * __attribute__((batch, diff))) and compile with -fplugin=batchdiff.so.
 * Without the plugin every annotation expands to nothing and the file is
 * ordinary C; only the generated NAME_batched / NAME_grad are missing. */
#ifndef BATCHDIFF_H
#define BATCHDIFF_H

#if defined(__BATCHDIFF__)
#define BATCHDIFF __attribute__((batch, diff))
#define BD_BATCH __attribute__((batch))
#define BD_DIFF __attribute__((diff))
#define BD_UNIFORM __attribute__((uniform))
#define BD_NODIFF __attribute__((nodiff))
#include <batchdiff/batchdiff_rt.h>
#else
#define BATCHDIFF
#define BD_BATCH
#define BD_DIFF
#define BD_UNIFORM
#define BD_NODIFF
#endif

#endif /* BATCHDIFF_H */
