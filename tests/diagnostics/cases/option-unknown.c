/* An unknown plugin option stops the compile (no location). */
// FLAGS: -fplugin-arg-batchdiff-bogus
// CHECK: error: unknown batchdiff option 'bogus' (expected emit=DIR, header=FILE, remarks, chains=1/2/4, sort-by-length=0/1, dense-records=0/1, dense-arrays=0/1, ragged-blocks=0/1, math=outline/inline or defer-math=0/1)
__attribute__((batch, diff)) float f(float x) { return x; }
