/* The original function of an annotated file must compile to the same
 * code as without the plugin (compared by disassembling 'kernel'). */
__attribute__((batch, diff)) float kernel(float x, float y) {
  float t = x * y + 1.0f;
  return t > 0.0f ? t * t : -t;
}
