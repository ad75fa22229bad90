//! The WebGL leak check: 1000 blocking calls leave the same live GL objects as the
//! first round, and dropping the engine deletes them all. A file of its own: on
//! SwiftShader each blocking call costs about 10 ms of readback synchronisation,
//! and the runner's 20 s limit is per file. (WebGPU's leak check, through the async
//! API, is in browser_errors_webgpu.rs.)

use crate::common::*;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn a_thousand_blocking_calls_leave_the_same_live_objects_as_one() {
    let g = poisoned();
    let gl = gl_of(&g);
    let m = uniform(9, 64 * 64);
    for kernel in kernels(&g) {
        g.square(64, &m, &opts(kernel)).unwrap();
    }
    let after_first = gl.counts();
    assert!(
        after_first.programs >= 1 && after_first.textures >= 2,
        "{after_first:?}"
    );
    let all = kernels(&g);
    for i in 0..1000 {
        g.square(64, &m, &opts(all[i % all.len()])).unwrap();
    }
    assert_eq!(gl.counts(), after_first);
    assert_eq!(after_first.shaders, 0, "shaders are deleted once linked");
    // Dropping the engine deletes everything it made.
    drop(g);
    let c = gl.counts();
    assert_eq!(c, Default::default(), "after drop: {c:?}");
}
