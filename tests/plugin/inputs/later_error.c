/* An error after the annotated function (and inside another one). */
__attribute__((batch, diff)) float f(float x) { return x * x; }

__attribute__((batch)) float g(float x) { return x + undeclared_identifier; }

int broken = also_undeclared;
