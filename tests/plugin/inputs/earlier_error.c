/* An error before the annotated function: nothing may be generated. */
int broken = undeclared_identifier;

__attribute__((batch, diff)) float f(float x) { return x * x; }
