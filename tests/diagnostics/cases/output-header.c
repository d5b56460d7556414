/* header=FILE that cannot be written. */
// FLAGS: -fplugin-arg-batchdiff-header=plainfile/f.h
// GENERATED: the error comes after generation; only the object is withheld
// CHECK: error: batchdiff cannot write 'plainfile/f.h': Not a directory
__attribute__((batch, diff)) float f(float x) { return x; }
