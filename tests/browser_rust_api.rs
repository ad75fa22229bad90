//! What a Rust caller can do that a JavaScript caller cannot (any u64 count, a
//! hand-made pass plan, a `Run` moved from one `Gpgpu` to another): each is a
//! `GpgpuError` the caller can act on, never a panic or a silently wrong result.

mod common;

use gpgpu_matrix::apps::jacobi::{self, JacobiSettings};
use gpgpu_matrix::plan::layout::Layout;
use gpgpu_matrix::plan::passes::{self, PassPlan, Step};
use gpgpu_matrix::{Gpgpu, GpgpuError, Kernel, Options, Semiring, Shape};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn gpgpu() -> Gpgpu {
    Gpgpu::new(None).expect("WebGL2")
}

/// Asserts an error with `code` whose message mentions `needle`.
fn assert_error<T: std::fmt::Debug>(r: Result<T, GpgpuError>, code: &str, needle: &str) {
    let e = r.expect_err(&format!("expected a {code} error"));
    let msg = e.to_string();
    assert_eq!(e.code(), code, "message: {msg}");
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
}

#[wasm_bindgen_test]
fn repeat_counts_past_64_are_refused_as_in_javascript() {
    let mut g = gpgpu();
    let m = [2.0f32, 0.0, 0.0, 2.0];
    let o = Options::default();
    // 2^32 wrapped to 0 squarings (M itself) as a wasm32 usize; u64::MAX panicked.
    for times in [65, 1 << 32, u64::MAX] {
        assert_error(
            g.square_repeatedly(2, &m, times, &o),
            "BAD_COUNT",
            "is larger than 64",
        );
    }
    let r = g.square_repeatedly(2, &m, 2, &o).unwrap();
    assert_eq!(r, [16.0, 0.0, 0.0, 16.0]);
}

#[wasm_bindgen_test]
fn hand_made_plans_that_cannot_run_are_refused_before_any_pass() {
    let mut g = gpgpu();
    let m = [1.0f32, 2.0, 3.0, 4.0];
    let o = Options::default();
    // The product plan wants B in slot 1; a square matrix alone leaves it empty.
    assert_error(
        g.run_plan(2, &m, passes::product(), &o),
        "BAD_ARGUMENT",
        "reads slot 1, which holds no matrix yet",
    );
    let plan = |steps, slots| PassPlan {
        steps,
        slots,
        result: Some(1),
    };
    assert_error(
        g.run_plan(2, &m, plan(vec![Step::Square { src: 0, dst: 5 }], 2), &o),
        "BAD_ARGUMENT",
        "writes slot 5",
    );
    // Was a GL error (a feedback loop) that named no cause.
    let feedback = vec![
        Step::Square { src: 0, dst: 1 },
        Step::Multiply { a: 1, b: 0, dst: 1 },
    ];
    assert_error(
        g.run_plan(2, &m, plan(feedback, 2), &o),
        "BAD_ARGUMENT",
        "step 1 reads and writes slot 1",
    );
    // A hand-made plan that can run, runs; and the engine is fine after the refusals.
    let cube = vec![
        Step::Square { src: 0, dst: 1 },
        Step::Multiply { a: 1, b: 0, dst: 2 },
    ];
    let r = g
        .run_plan(
            2,
            &m,
            PassPlan {
                steps: cube,
                slots: 3,
                result: Some(2),
            },
            &o,
        )
        .unwrap();
    assert_eq!(r, [37.0, 54.0, 81.0, 118.0]);
}

#[wasm_bindgen_test]
fn a_result_read_before_the_last_pass_is_an_error() {
    let mut g = gpgpu();
    let m = [1.0f32, 1.0, 1.0, 0.0];
    let mut run = g
        .start_plan(2, &m, passes::power(5), &Options::default())
        .unwrap();
    assert_error(
        run.read_result(g.engine()),
        "BAD_ARGUMENT",
        "0 of 3 passes have run",
    );
    run.step(g.engine(), false).unwrap();
    assert_error(run.read_result(g.engine()), "BAD_ARGUMENT", "1 of 3");
    // Finishing runs the rest: [[1,1],[1,0]]^5 = [[F6, F5], [F5, F4]].
    assert_eq!(g.finish(run).unwrap(), [8.0, 5.0, 5.0, 3.0]);
}

#[wasm_bindgen_test]
fn a_run_keeps_the_kernel_and_semiring_its_inputs_were_uploaded_for() {
    // Run's kernel and semiring are read-only (`run.kernel = …` no longer compiles):
    // the inputs are already in that layout and encoding.
    let mut g = gpgpu();
    let o = Options {
        kernel: Some(Kernel::Packed),
        semiring: Semiring::MinPlus,
    };
    let run = g.start_plan(2, &[0.0, 1.0, f32::INFINITY, 0.0], passes::power(2), &o);
    let run = run.unwrap();
    assert_eq!(
        (run.kernel(), run.semiring()),
        (Kernel::Packed, Semiring::MinPlus)
    );
    assert_eq!(g.finish(run).unwrap(), [0.0, 1.0, f32::INFINITY, 0.0]);
    // The engine's own product pass refuses operands it cannot combine.
    let e = g.engine();
    let scalar = e.upload(Shape::square(2), Layout::Scalar, &[1.0; 4], 0.0);
    let (scalar, out) = (
        scalar.unwrap(),
        e.alloc(Shape::square(2), Layout::Scalar).unwrap(),
    );
    let wide = e.alloc(Shape::new(2, 3), Layout::Scalar).unwrap();
    let packed = e.upload(Shape::square(2), Kernel::Packed.layout(), &[1.0; 4], 0.0);
    let packed = packed.unwrap();
    let ordinary = Semiring::Ordinary;
    assert_error(
        e.product(Kernel::Naive, ordinary, &scalar, &packed, &out),
        "BAD_ARGUMENT",
        "needs every operand in its layout",
    );
    assert_error(
        e.product(Kernel::Naive, ordinary, &wide, &scalar, &out),
        "BAD_ARGUMENT",
        "the shapes do not fit",
    );
    assert!(e
        .product(Kernel::Naive, ordinary, &scalar, &scalar, &out)
        .is_ok());
    assert_eq!(e.download(&out).unwrap(), [2.0; 4]);
    for m in [scalar, out, wide, packed] {
        e.recycle(m);
    }
}

#[wasm_bindgen_test]
fn jacobi_refuses_to_record_every_0_iterations() {
    let mut g = gpgpu();
    let settings = JacobiSettings {
        epsilon: 1e-6,
        max_iterations: 10,
        record_every: Some(0),
    };
    let (a, b) = ([4.0f32, 1.0, 1.0, 3.0], [1.0f32, 2.0]);
    let r = jacobi::jacobi(&mut g, 2, &a, &b, settings, &Options::default());
    assert_error(r, "BAD_ARGUMENT", "record_every: is 0");
}

#[wasm_bindgen_test]
async fn a_run_belongs_to_the_gpgpu_that_started_it() {
    let (mut g1, mut g2) = (gpgpu(), gpgpu());
    let m = [1.0f32, 1.0, 1.0, 0.0];
    let o = Options::default();
    let another = "started on another Gpgpu";
    // Finishing on g2 returned Ok and put g1's textures in g2's pool, so that g2's
    // next call of the same size drew into them and failed with a GL error.
    let run = g1.start_plan(2, &m, passes::power(3), &o).unwrap();
    assert_error(g2.finish(run), "BAD_ARGUMENT", another);
    // A run with no pass left goes straight to the readback: checked there too.
    let run = g1.start_plan(2, &m, passes::power(1), &o).unwrap();
    assert_error(g2.finish(run), "BAD_ARGUMENT", another);
    let run = g1.start_plan(2, &m, passes::power(3), &o).unwrap();
    assert!(g2.finish_async(run).is_err());
    let mut run = g1.start_plan(2, &m, passes::power(3), &o).unwrap();
    assert_error(run.step(g2.engine(), false), "BAD_ARGUMENT", another);
    assert_error(run.sync(g2.engine()), "BAD_ARGUMENT", another);
    run.step(g1.engine(), false).unwrap();
    assert_eq!(g1.finish(run).unwrap(), [3.0, 2.0, 2.0, 1.0]);
    // Both still work, with every size they saw.
    for g in [&mut g1, &mut g2] {
        assert_eq!(g.power(2, &m, 3, &o).unwrap(), [3.0, 2.0, 2.0, 1.0]);
        let pending = g.start_plan(2, &m, passes::power(4), &o);
        let pending = g.finish_async(pending.unwrap()).unwrap();
        assert_eq!(pending.wait().await.unwrap(), [5.0, 3.0, 3.0, 2.0]);
    }
}
