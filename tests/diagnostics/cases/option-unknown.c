/* An unknown plugin option stops the compile (no location). */
// FLAGS: -fplugin-arg-batchdiff-bogus
// CHECK: error: unknown batchdiff option 'bogus' (expected emit=DIR, header=FILE or remarks)
__attribute__((batch, diff)) float f(float x) { return x; }
