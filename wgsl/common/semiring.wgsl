// The algebra of a product, fixed when the pipeline is made: SEMIRING is an override
// constant (0 ordinary (+, ×), 1 boolean (OR, AND), 2 min-plus (min, +)), so the
// compiler folds every branch below away. Every kernel is written once against:
//   sr_zero()            the additive identity; reads outside a matrix give it
//   sr_fma(acc, a, b)    acc (+) a (×) b, for floats or a float times a vec4
//   sr_add(x, y)         x (+) y (partial sums of one product added up)
//   sr_finish(x)         applied to every output once its sum is complete
override SEMIRING: u32 = 0u;

// "No edge" of min-plus: finite, as on the WebGL path (WGSL promises no IEEE
// infinity either). A sum involving it lands at or above NO_EDGE / 2.
const NO_EDGE: f32 = 1e30;

fn sr_zero() -> f32 {
    if (SEMIRING == 2u) { return NO_EDGE; }
    return 0.0;
}

fn sr_fma(acc: f32, a: f32, b: f32) -> f32 {
    if (SEMIRING == 2u) { return min(acc, a + b); }
    // Boolean inputs are exactly 0 or 1: a sum of products is nonzero exactly when
    // their OR is 1 (exact in float32 up to 2^24 terms), and sr_finish thresholds it.
    return acc + a * b;
}

fn sr_fma4(acc: vec4f, a: f32, b: vec4f) -> vec4f {
    if (SEMIRING == 2u) { return min(acc, vec4f(a) + b); }
    // One fused multiply-add: nothing is left to the compiler to contract.
    return fma(vec4f(a), b, acc);
}

fn sr_add(x: f32, y: f32) -> f32 {
    if (SEMIRING == 2u) { return min(x, y); }
    return x + y;
}

fn sr_finish(x: f32) -> f32 {
    if (SEMIRING == 1u) { return select(0.0, 1.0, x >= 0.5); }
    if (SEMIRING == 2u) { return select(x, NO_EDGE, x >= 0.5 * NO_EDGE); }
    return x;
}
