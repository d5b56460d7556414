/* An unknown plugin option stops the compile (no location). */
// FLAGS: -fplugin-arg-batchdiff-bogus
// CHECK: error: unknown batchdiff option 'bogus' (expected emit=DIR, header=FILE, remarks or chains=1/2/4)
__attribute__((batch, diff)) float f(float x) { return x; }
