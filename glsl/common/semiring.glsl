// The algebra of a product, chosen by one define: SEMIRING_ORDINARY (+, x),
// SEMIRING_BOOLEAN (OR, AND) or SEMIRING_MIN_PLUS (min, +). Every kernel is written
// once against these names:
//   SR_ZERO           the additive identity; padding holds it
//   sr_fma(acc, a, b) acc (+) a (x) b, for a float or a float times a vec4
//   sr_finish(x)      applied to every output once the sum is complete
#if defined(SEMIRING_ORDINARY)
#define SR_ZERO 0.0
float sr_fma(float acc, float a, float b) { return acc + a * b; }
vec4 sr_fma(vec4 acc, float a, vec4 b) { return acc + a * b; }
float sr_finish(float x) { return x; }
vec4 sr_finish(vec4 x) { return x; }
#elif defined(SEMIRING_BOOLEAN)
// Inputs are exactly 0 or 1, so a*b is AND, and a sum of 0/1 products (exact in
// float32 up to 2^24 terms) is nonzero exactly when their OR is 1. The threshold
// makes every output exactly 0 or 1 again, so chains of any length stay exact.
#define SR_ZERO 0.0
float sr_fma(float acc, float a, float b) { return acc + a * b; }
vec4 sr_fma(vec4 acc, float a, vec4 b) { return acc + a * b; }
float sr_finish(float x) { return step(0.5, x); }
vec4 sr_finish(vec4 x) { return step(vec4(0.5), x); }
#elif defined(SEMIRING_MIN_PLUS)
// "No edge" is the finite NO_EDGE (GLSL ES promises no IEEE infinity). A sum that
// involves it lands at or above NO_EDGE / 2 and is snapped back to NO_EDGE.
#define SR_ZERO NO_EDGE
float sr_fma(float acc, float a, float b) { return min(acc, a + b); }
vec4 sr_fma(vec4 acc, float a, vec4 b) { return min(acc, a + b); }
float sr_finish(float x) { return x >= 0.5 * NO_EDGE ? NO_EDGE : x; }
vec4 sr_finish(vec4 x) { return mix(x, vec4(NO_EDGE), greaterThanEqual(x, vec4(0.5 * NO_EDGE))); }
#else
#error "no semiring defined"
#endif

// Keeps the lanes of v whose column (col0 + lane) and row are inside the matrix and
// writes SR_ZERO to the padding: NaN or Inf left there would leak into later passes.
// mix() with a bvec selects; it does no arithmetic on the discarded side.
vec4 sr_keep_inside(vec4 v, int row, int col0, ivec2 valid) {
    bvec4 inside = lessThan(ivec4(col0) + ivec4(0, 1, 2, 3), ivec4(valid.x));
    if (row >= valid.y) inside = bvec4(false);
    return mix(vec4(SR_ZERO), v, inside);
}
