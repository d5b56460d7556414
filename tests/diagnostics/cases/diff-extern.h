/* Declared here, defined in another file (diagnostics case diff-extern). */
double shape(double t);
float shapef(float t);
