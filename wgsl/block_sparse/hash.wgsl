// The generator's hash (plan/src/blockgen.rs `mix`, lowbias32): u32 arithmetic wraps,
// so every device computes the same bits as the CPU.
fn mix(v: u32) -> u32 {
    var x = v;
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    return x ^ (x >> 16u);
}
