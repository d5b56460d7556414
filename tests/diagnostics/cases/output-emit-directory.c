/* emit=DIR that cannot be created (the runner makes ./plainfile a file). */
// FLAGS: -fplugin-arg-batchdiff-emit=plainfile/sub
// GENERATED: the error comes after generation; only the object is withheld
// CHECK: error: batchdiff cannot create directory 'plainfile/sub': Not a directory
__attribute__((batch, diff)) float f(float x) { return x; }
