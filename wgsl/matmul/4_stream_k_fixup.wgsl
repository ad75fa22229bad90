// The second pass of a stream-K product (matmul/4_stream_k.wgsl, composed before this
// file with the semiring and matmul/register_io_vec4.wgsl): one invocation per vec4 of the
// shared tiles adds up, in the semiring, the parts that the workgroups covering the
// tile left in `partial`, and stores the finished sum into C.

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    let at = id.x + id.y * groups.x * 256u;
    if (at >= (sk.iterations / sk.slices) * 4096u) {
        return;
    }
    let j = at / 4096u;   // the shared tile
    let e = at % 4096u;   // its vec4: row e / 32, vec4 e % 32 of the row
    let lo = j * sk.slices;
    let hi = lo + sk.slices;
    // The workgroup whose range holds the tile's first iteration, then each after it
    // while its range starts inside the tile (ranges may be empty when the shared
    // tiles have fewer iterations than there are workgroups).
    var w = min((lo * sk.workgroups) / sk.iterations, sk.workgroups - 1u);
    loop { if (w + 1u < sk.workgroups && first_iteration(w + 1u) <= lo) { w++; } else { break; } }
    loop { if (w > 0u && first_iteration(w) > lo) { w--; } else { break; } }
    var s = vec4f(sr_zero());
    loop {
        if (w >= sk.workgroups) { break; }
        let first = first_iteration(w);
        if (first >= hi) { break; }
        if (first_iteration(w + 1u) > first) {
            let v = partial[(w * sk.parts + j - first / sk.slices) * 4096u + e];
            s = vec4f(sr_add(s.x, v.x), sr_add(s.y, v.y), sr_add(s.z, v.z), sr_add(s.w, v.w));
        }
        w++;
    }
    let t = sk.data_tiles + j;
    let row = (t / sk.tiles_x) * 128u + e / 32u;
    let col = (t % sk.tiles_x) * 128u + (e % 32u) * 4u;
    c[(row * dims.cols + col) / 4u] = vec4f(sr_finish(s.x), sr_finish(s.y), sr_finish(s.z), sr_finish(s.w));
}
