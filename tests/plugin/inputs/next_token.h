/* The first token after an annotated definition comes from this header. */
float from_header(float x);
