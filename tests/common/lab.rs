//! The kernel lab's check (`gpgpu_matrix::lab`) on the exercises' own files
//! (www/lab/exercises/): every reference solution passes every case; every
//! deliberately wrong solution fails at the case and element its first line names
//! ("first wrong: case C (i, j)"), every case before it passing; a compile error
//! lands on its line and the engine goes on; a passing kernel is timed beside the
//! library's; the other backend's exercise is refused; a device or context lost during
//! a check is DEVICE_LOST or CONTEXT_LOST, and the next check on the same Gpgpu passes.

use super::*;
use gpgpu_matrix::lab::{self, CheckOptions, Exercise, LabResult};

/// The lab checks, one test each, on `$backend`.
macro_rules! lab_tests {
    ($backend:expr) => {
        checks!($backend; common::lab:
            lab_reference_solutions_pass_and_starters_fail,
            lab_wrong_solutions_fail_at_their_first_wrong_element,
            lab_compile_errors_land_on_their_line,
            lab_a_passing_kernel_is_timed_beside_the_library,
            lab_a_kernel_that_leaves_a_binding_unused_still_runs,
            lab_a_kernel_without_its_output_or_entry_point_is_told_so,
            lab_a_loss_during_a_check_is_its_error_and_the_next_check_passes,
        );
    };
}

/// An exercise's starter, reference solution and wrong solutions.
pub struct Files {
    pub exercise: Exercise,
    pub starter: &'static str,
    pub solution: &'static str,
    pub wrong: &'static [(&'static str, &'static str)],
}

macro_rules! files {
    ($ex:ident, $id:literal, $ext:literal, [$($w:literal),+]) => {
        Files {
            exercise: Exercise::$ex,
            starter: include_str!(concat!("../../www/lab/exercises/", $id, ".starter.", $ext)),
            solution: include_str!(concat!("../../www/lab/exercises/", $id, ".solution.", $ext)),
            wrong: &[$(($w, include_str!(concat!(
                "../../www/lab/exercises/", $id, ".wrong-", $w, ".", $ext
            )))),+],
        }
    };
}

pub const FILES: [Files; 10] = [
    files!(Square, "square", "glsl", ["transposed", "short-loop"]),
    files!(Multiply, "multiply", "glsl", ["swapped-xy", "rows-bound"]),
    files!(Global, "global", "wgsl", ["transposed-b", "swapped-ids"]),
    files!(
        Tiled,
        "tiled",
        "wgsl",
        ["drops-edge", "transposed-tile", "no-barrier"]
    ),
    files!(
        Register,
        "register",
        "wgsl",
        ["short-write", "transposed-block"]
    ),
    files!(Boolean, "boolean", "wgsl", ["identity", "counts"]),
    files!(MinPlus, "minplus", "wgsl", ["identity", "product"]),
    files!(
        Batched3x3,
        "batched3x3",
        "wgsl",
        ["local-index", "transposed"]
    ),
    files!(
        BlockSparse,
        "blocksparse",
        "wgsl",
        ["no-skip", "transposed-flags", "drops-edge"]
    ),
    files!(Spmv, "spmv", "wgsl", ["local-id", "skips-empty-rows"]),
];

const UNTIMED: CheckOptions = CheckOptions {
    time: false,
    wall_clock: false,
};

fn of(backend: Backend) -> impl Iterator<Item = &'static Files> {
    FILES
        .iter()
        .filter(move |f| f.exercise.backend() == backend)
}

/// "first wrong: case C (I, J)" of a wrong solution's comment.
fn expected(source: &str) -> (usize, usize, usize) {
    let s = &source[source.find("first wrong: case ").expect("an expectation") + 18..];
    let nums: Vec<usize> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(3)
        .map(|p| p.parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2])
}

fn describe(r: &LabResult) -> String {
    let cases: Vec<String> = r
        .cases
        .iter()
        .map(|c| format!("{:?} {:?} nd={}", c.dims, c.first_wrong, c.nondeterministic))
        .collect();
    format!("{:?} {}", r.compile, cases.join("; "))
}

pub async fn lab_reference_solutions_pass_and_starters_fail(backend: Backend) {
    if backend == Backend::Cpu {
        return;
    }
    let g = on(backend).await;
    for f in of(backend) {
        let id = f.exercise.id();
        let r = lab::check(&g.handle(), f.exercise, f.solution, UNTIMED)
            .await
            .unwrap();
        assert!(r.pass, "{id}: {}", describe(&r));
        assert!(
            r.compile.ok && r.cases.len() >= 5 && r.timing.is_none(),
            "{id}"
        );
        // Exact cases (integers, boolean) ask for every bit.
        assert!(r.cases.iter().any(|c| c.tolerance == 0.0), "{id}");
        // The starters compile (the learner begins from a runnable kernel) and fail.
        let r = lab::check(&g.handle(), f.exercise, f.starter, UNTIMED)
            .await
            .unwrap();
        assert!(r.compile.ok && !r.pass, "{id} starter: {}", describe(&r));
    }
}

pub async fn lab_wrong_solutions_fail_at_their_first_wrong_element(backend: Backend) {
    if backend == Backend::Cpu {
        return;
    }
    let g = on(backend).await;
    // Every wrong solution is checked before any mismatch fails the test: all of
    // them show at once.
    let mut mismatches = Vec::new();
    for f in of(backend) {
        for (name, source) in f.wrong {
            let what = format!("{} {name}", f.exercise.id());
            let (case, i, j) = expected(source);
            let r = lab::check(&g.handle(), f.exercise, source, UNTIMED)
                .await
                .unwrap();
            assert!(r.compile.ok && !r.pass, "{what}: {}", describe(&r));
            let first = r.cases.iter().position(|c| !c.passed()).unwrap();
            let wrong = r.cases[first].first_wrong;
            if (first, wrong.map(|w| (w.0, w.1))) != (case, Some((i, j))) {
                mismatches.push(format!(
                    "{what}: case {first} {:?}, not case {case} ({i}, {j}): {}",
                    wrong.map(|w| (w.0, w.1)),
                    describe(&r)
                ));
            }
            assert!(
                !r.cases[first].errors.is_empty(),
                "{what}: the heatmap's errors"
            );
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

pub async fn lab_compile_errors_land_on_their_line(backend: Backend) {
    let (f, sum, other) = match backend {
        Backend::WebGl => (&FILES[1], "float sum = 0.0;", Exercise::Global),
        Backend::WebGpu => (&FILES[2], "var sum = 0.0;", Exercise::Square),
        Backend::Cpu => return,
    };
    let g = on(backend).await;
    let line = f.solution.lines().position(|l| l.contains(sum)).unwrap() as u32 + 1;
    let broken = f.solution.replace(sum, &sum.replace("0.0", "missing"));
    let r = lab::check(&g.handle(), f.exercise, &broken, UNTIMED)
        .await
        .unwrap();
    assert!(!r.compile.ok && !r.pass && r.cases.is_empty(), "{r:?}");
    let m = &r.compile.messages[0];
    assert_eq!(m.line, line, "{r:?}");
    assert!(m.message.contains("missing"), "{r:?}");
    if backend == Backend::WebGpu {
        assert!(m.column > 1, "WGSL names the column: {m:?}");
        // No TILE_COLS: said at line 1, before anything compiles.
        let untiled = f.solution.replace("const TILE_COLS: u32 = 8u;", "");
        let r = lab::check(&g.handle(), f.exercise, &untiled, UNTIMED)
            .await
            .unwrap();
        assert!(r.compile.messages[0].message.contains("TILE_COLS"), "{r:?}");
    }
    // The engine goes on: the solution passes after the error.
    let r = lab::check(&g.handle(), f.exercise, f.solution, UNTIMED)
        .await
        .unwrap();
    assert!(r.pass, "{}", describe(&r));
    // The other backend's exercise is the caller's mistake.
    let r = lab::check(&g.handle(), other, f.solution, UNTIMED).await;
    assert_error(r, "BAD_ARGUMENT", "create one with backend");
}

pub async fn lab_a_passing_kernel_is_timed_beside_the_library(backend: Backend) {
    let (f, kernel) = match backend {
        Backend::WebGl => (&FILES[0], "naive"),
        Backend::WebGpu => (&FILES[2], "global"),
        Backend::Cpu => return,
    };
    let g = on(backend).await;
    let r = lab::check(&g.handle(), f.exercise, f.solution, CheckOptions::default())
        .await
        .unwrap();
    let t = r.timing.expect("a passing kernel is timed");
    assert_eq!(t.kernel, kernel);
    assert!(t.dims[0] >= 128, "{t:?}");
    assert!(t.learner.ms > 0.0 && t.learner.gflops > 0.0, "{t:?}");
    assert!(t.reference.ms > 0.0 && t.reference.gflops > 0.0, "{t:?}");
    // The passes alone are timed on the GPU where the device grants timestamps; the
    // wall clock where it does not (SwiftShader may do either).
    let granted = match g.info() {
        gpgpu_matrix::Info::WebGl(i) => i.timer_query,
        gpgpu_matrix::Info::WebGpu(i) => i.timestamp_query,
        _ => false,
    };
    assert_eq!(t.clock, if granted { "gpu" } else { "wall" }, "{t:?}");
    assert!(t.dims[0] <= lab::timing::MAX_N, "{t:?}");
    web_sys::console::log_1(&format!("lab timing {backend:?}: {t:?}").into());
    // Asked for the wall clock, the check uses it even where timestamps come.
    let wall = CheckOptions {
        wall_clock: true,
        ..CheckOptions::default()
    };
    let r = lab::check(&g.handle(), f.exercise, f.solution, wall)
        .await
        .unwrap();
    let t = r.timing.expect("timed by the wall clock");
    assert_eq!(t.clock, "wall", "{t:?}");
    assert!(t.learner.gflops > 0.0 && t.reference.gflops > 0.0, "{t:?}");
    if backend == Backend::WebGpu {
        // The exercises over other data, beside the library's own operation: each
        // side's pass by GPU timestamps exactly where the device grants them (the
        // library's batched product and SpMV report their pass's time too).
        for (f, kernel) in FILES[7..].iter().zip(["batched", "block-sparse", "spmv"]) {
            let r = lab::check(&g.handle(), f.exercise, f.solution, CheckOptions::default())
                .await
                .unwrap();
            let t = r.timing.expect("a passing kernel is timed");
            let clock = if granted { "gpu" } else { "wall" };
            assert_eq!((t.kernel, t.clock), (kernel, clock), "{t:?}");
            assert!(t.learner.gflops > 0.0 && t.reference.gflops > 0.0, "{t:?}");
            web_sys::console::log_1(&format!("lab timing {kernel}: {t:?}").into());
        }
        // Asked for the wall clock, whole calls on both sides.
        let r = lab::check(&g.handle(), Exercise::Spmv, FILES[9].solution, wall)
            .await
            .unwrap();
        let t = r.timing.expect("timed by the wall clock");
        assert_eq!((t.kernel, t.clock), ("spmv", "wall"), "{t:?}");
        assert!(t.learner.gflops > 0.0 && t.reference.gflops > 0.0, "{t:?}");
    }
}

/// WebGPU's automatic layout drops a binding the shader does not use, and the
/// exercise's bind group then failed: a supplied kernel gets an explicit layout.
pub async fn lab_a_kernel_that_leaves_a_binding_unused_still_runs(backend: Backend) {
    if backend != Backend::WebGpu {
        return;
    }
    let g = on(backend).await;
    let f = &FILES[2];
    let no_b = f.solution.replace("B[k * dims.cols + j]", "2.0");
    assert_ne!(no_b, f.solution);
    let r = lab::check(&g.handle(), f.exercise, &no_b, UNTIMED)
        .await
        .unwrap();
    assert!(r.compile.ok && !r.pass, "{}", describe(&r));
    let w = r.cases[0].first_wrong.expect("A·2 is not A·B");
    assert_eq!((w.0, w.1), (0, 0), "{}", describe(&r));
    // Declared otherwise than the statement binds it (B read_write): the learner's
    // message, not an error.
    let rw = f
        .solution
        .replace("var<storage, read> B", "var<storage, read_write> B");
    let r = lab::check(&g.handle(), f.exercise, &rw, UNTIMED)
        .await
        .unwrap();
    assert!(!r.pass && r.cases.is_empty(), "{}", describe(&r));
    assert!(r.compile.messages[0].message.contains("bindings"), "{r:?}");
}

/// What a kernel must declare that no compiler asks for: a GLSL output (without one
/// Chromium refuses the draw and Firefox leaves C as it was), the uniforms' types the
/// library sets (WebGL refuses the call), WGSL's entry point `main` (the pipeline
/// fails, which read as the bindings' fault), a workgroup within the device's limits
/// and, first of all, some source: each is the learner's message.
pub async fn lab_a_kernel_without_its_output_or_entry_point_is_told_so(backend: Backend) {
    let f = match backend {
        Backend::WebGl => &FILES[1],
        Backend::WebGpu => &FILES[2],
        Backend::Cpu => return,
    };
    let g = on(backend).await;
    let told = |r: &LabResult, what: &str| {
        assert!(!r.compile.ok && !r.pass && r.cases.is_empty(), "{r:?}");
        assert!(
            r.compile.messages[0].message.contains(what),
            "{what}: {r:?}"
        );
    };
    // Each broken kernel with the words its message must hold.
    let mut broken: Vec<(String, &str)> = Vec::new();
    if backend == Backend::WebGl {
        let silent = f
            .solution
            .replace("out vec4 result;", "")
            .replace("result = vec4(sum, 0.0, 0.0, 0.0);", "");
        assert!(!silent.contains("out vec4") && !silent.contains("result ="));
        broken.push((silent, "declares no output"));
        let retyped = f
            .solution
            .replace("uniform ivec3 dims;", "uniform ivec4 dims;");
        broken.push((retyped, "uniform ivec3"));
        // No main(): ANGLE's log names no line ("-1:-1") and an empty token, Firefox's
        // keeps its "ERROR: " prefix (both checked below).
        broken.push((f.solution.replace("void main()", "void kernel()"), "main"));
    } else {
        broken.push((f.solution.replace("fn main(", "fn kernel("), "fn main"));
        // A workgroup over the device's limits (every device allows 256 invocations
        // at least, none 4096) is the workgroup's fault, not the bindings'.
        let wide = f
            .solution
            .replace("TILE_ROWS: u32 = 8u", "TILE_ROWS: u32 = 64u")
            .replace("TILE_COLS: u32 = 8u", "TILE_COLS: u32 = 64u");
        broken.push((wide, "workgroup is larger than this GPU allows"));
        // 256 KiB of workgroup memory: over every device's limit (16 KiB to 64 KiB).
        let hungry = f
            .solution
            .replace(
                "@compute",
                "var<workgroup> big: array<vec4f, 16384>;\n@compute",
            )
            .replace("var sum = 0.0;", "var sum = big[0].x;");
        broken.push((hungry, "more workgroup memory than this GPU has"));
        // A uniform larger than the exercise binds is the bindings' fault, though the
        // browser's message names the dispatch (dispatchWorkgroups).
        let wide_dims = f.solution.replace("pad: u32 }", "pad: u32, more: vec4u }");
        broken.push((wide_dims, "bindings"));
    }
    // An empty editor is said as such, not as the compiler's "'' : syntax error".
    broken.push((String::new(), "the kernel is empty"));
    broken.push((" \n\t\n".into(), "the kernel is empty"));
    for (source, what) in &broken {
        assert_ne!(source, f.solution, "{what}");
        let r = lab::check(&g.handle(), f.exercise, source, UNTIMED)
            .await
            .unwrap();
        told(&r, what);
        let m = &r.compile.messages[0].message;
        assert!(!m.contains("-1:-1") && !m.starts_with("ERROR"), "{r:?}");
        // Only the bindings' message blames the bindings.
        assert_eq!(m.contains("bindings"), *what == "bindings", "{r:?}");
    }
    let r = lab::check(&g.handle(), f.exercise, f.solution, UNTIMED)
        .await
        .unwrap();
    assert!(r.pass, "{}", describe(&r));
}

/// The GPU of a Gpgpu lost at the `k`-th submission (WebGPU: the device destroyed, as
/// a driver reset or the watchdog of a GPU running an endless loop does) or draw
/// (WebGL: WEBGL_lose_context) from its making: the queue's `submit` or the context's
/// `drawArrays` is shadowed on that one object (wasm-bindgen calls them as its
/// methods) until this is dropped.
struct LoseAt {
    target: JsValue,
    method: &'static str,
    _shadow: wasm_bindgen::closure::Closure<dyn FnMut(JsValue, JsValue, JsValue) -> JsValue>,
}

impl LoseAt {
    fn new(g: &Gpgpu, k: u32) -> LoseAt {
        let (target, method, lose): (JsValue, _, Box<dyn Fn()>) = match g.backend() {
            Backend::WebGl => {
                let gl = gl_of(g);
                let ext: web_sys::WebglLoseContext = gl
                    .get_extension("WEBGL_lose_context")
                    .unwrap()
                    .expect("WEBGL_lose_context")
                    .unchecked_into();
                let target = JsValue::from((*gl).clone());
                (target, "drawArrays", Box::new(move || ext.lose_context()))
            }
            _ => {
                let gpu = gpu_of(g);
                let device = gpu.device().clone();
                let target = JsValue::from(gpu.queue().clone());
                (target, "submit", Box::new(move || device.destroy()))
            }
        };
        let original: js_sys::Function = Reflect::get(&target, &method.into())
            .unwrap()
            .unchecked_into();
        let (this, mut left) = (target.clone(), k);
        let shadow = wasm_bindgen::closure::Closure::new(move |a, b, c| {
            let r = original
                .call3(&this, &a, &b, &c)
                .unwrap_or(JsValue::UNDEFINED);
            left = left.saturating_sub(1);
            if left == 0 {
                lose();
            }
            r
        });
        Reflect::set(&target, &method.into(), shadow.as_ref()).unwrap();
        LoseAt {
            target,
            method,
            _shadow: shadow,
        }
    }
}

impl Drop for LoseAt {
    fn drop(&mut self) {
        let target: &Object = self.target.unchecked_ref();
        Reflect::delete_property(target, &self.method.into()).unwrap();
    }
}

pub async fn lab_a_loss_during_a_check_is_its_error_and_the_next_check_passes(backend: Backend) {
    let (f, code) = match backend {
        Backend::WebGl => (&FILES[0], "CONTEXT_LOST"),
        Backend::WebGpu => (&FILES[2], "DEVICE_LOST"),
        Backend::Cpu => return,
    };
    let g = on(backend).await;
    let gl = (backend == Backend::WebGl).then(|| gl_of(&g));
    let restore = gl.as_ref().map(|gl| {
        let ext: web_sys::WebglLoseContext = gl
            .get_extension("WEBGL_lose_context")
            .unwrap()
            .expect("WEBGL_lose_context")
            .unchecked_into();
        ext
    });
    // Inside the first case: each case runs twice, and every exercise has five or more.
    let losing = LoseAt::new(&g, 3);
    let r = lab::check(&g.handle(), f.exercise, f.solution, UNTIMED).await;
    drop(losing);
    let err = match r {
        Err(e) => e,
        Ok(r) => panic!(
            "the loss is the check's error, not a result: {}",
            describe(&r)
        ),
    };
    assert_eq!(err.code(), code, "{err}");
    if let (Some(gl), Some(ext)) = (&gl, &restore) {
        // The browser gives a lost context back (here when asked, once the loss's
        // event has come); the engine rebuilds.
        sleep(50).await;
        ext.restore_context();
        for _ in 0..200 {
            if !gl.is_context_lost() {
                break;
            }
            sleep(10).await;
        }
        assert!(!gl.is_context_lost(), "the context came back");
    }
    // The same Gpgpu checks again: WebGPU on the new device the library asked for.
    let r = lab::check(&g.handle(), f.exercise, f.solution, UNTIMED)
        .await
        .unwrap();
    assert!(r.pass && r.cases.len() >= 5, "{}", describe(&r));
}
