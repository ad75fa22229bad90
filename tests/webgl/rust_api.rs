//! What a Rust caller can do that a JavaScript caller cannot (any u64 count, a
//! hand-made pass plan, a `Run` moved from one `Gpgpu` to another, the engine's own
//! passes): each is a `GpgpuError` the caller can act on, never a panic or a
//! silently wrong result, on both backends. And the blocking calls: answers on
//! WebGL, NeedsAsync naming the async form on WebGPU.

#[allow(unused_imports)]
use crate::common;
use crate::common::Backend;

checks!(Backend::WebGl; rust_api::checks:
    repeat_counts_past_64_are_refused_as_in_javascript,
    hand_made_plans_that_cannot_run_are_refused_before_any_pass,
    a_result_read_before_the_last_pass_is_an_error,
    a_run_keeps_the_kernel_and_semiring_its_inputs_were_uploaded_for,
    jacobi_refuses_to_record_every_0_iterations,
    a_run_belongs_to_the_gpgpu_that_started_it,
    blocking_calls_answer_on_webgl_and_name_the_async_form_on_webgpu,
    element_wise_passes_refuse_operands_of_another_shape,
    uploads_of_the_wrong_length_are_refused,
    packed_layouts_of_other_plane_counts_are_refused,
);

mod on_webgpu {
    checks!(super::Backend::WebGpu; rust_api::checks:
        repeat_counts_past_64_are_refused_as_in_javascript,
        hand_made_plans_that_cannot_run_are_refused_before_any_pass,
        a_result_read_before_the_last_pass_is_an_error,
        a_run_keeps_the_kernel_and_semiring_its_inputs_were_uploaded_for,
        jacobi_refuses_to_record_every_0_iterations,
        a_run_belongs_to_the_gpgpu_that_started_it,
        blocking_calls_answer_on_webgl_and_name_the_async_form_on_webgpu,
        element_wise_passes_refuse_operands_of_another_shape,
        uploads_of_the_wrong_length_are_refused,
    );
}

mod checks {
    use super::common::*;
    use gpgpu_matrix::api::now;
    use gpgpu_matrix::apps::fibonacci::fibonacci;
    use gpgpu_matrix::apps::jacobi::{self, JacobiSettings};
    use gpgpu_matrix::plan::blocks::BlockSparse;
    use gpgpu_matrix::plan::layout::Layout;
    use gpgpu_matrix::plan::passes::{self, PassPlan, Step};
    use gpgpu_matrix::{Kernel, Options, Semiring, Shape};

    pub async fn repeat_counts_past_64_are_refused_as_in_javascript(backend: Backend) {
        let g = on(backend).await;
        let m = [2.0f32, 0.0, 0.0, 2.0];
        let o = Options::default();
        // 2^32 wrapped to 0 squarings (M itself) as a wasm32 usize; u64::MAX panicked.
        for times in [65, 1 << 32, u64::MAX] {
            assert_error(
                g.square_repeatedly_async(2, &m, times, &o).await,
                "BAD_COUNT",
                "is larger than 64",
            );
        }
        let r = g.square_repeatedly_async(2, &m, 2, &o).await.unwrap();
        assert_eq!(r, [16.0, 0.0, 0.0, 16.0]);
        // A block-sparse matrix's squarings too (squareBlockSparseRepeatedlyAsync refuses
        // them in JavaScript): 65 ran 65 squarings with no error, usize::MAX for ever.
        let bs = BlockSparse::from_dense(Shape::square(2), &m, 1).unwrap();
        for times in [65, usize::MAX] {
            assert_error(
                g.square_block_sparse_repeatedly_async(&bs, times).await,
                "BAD_COUNT",
                "is larger than 64",
            );
        }
        let s = g
            .square_block_sparse_repeatedly_async(&bs, 2)
            .await
            .unwrap();
        assert_eq!(s.result.to_dense().unwrap(), [16.0, 0.0, 0.0, 16.0]);
    }

    pub async fn hand_made_plans_that_cannot_run_are_refused_before_any_pass(backend: Backend) {
        let g = on(backend).await;
        let m = [1.0f32, 2.0, 3.0, 4.0];
        let o = Options::default();
        // The product plan wants B in slot 1; a square matrix alone leaves it empty.
        assert_error(
            g.run_plan_async(2, &m, passes::product(), &o).await,
            "BAD_ARGUMENT",
            "reads slot 1, which holds no matrix yet",
        );
        let plan = |steps, slots| PassPlan {
            steps,
            slots,
            result: Some(1),
        };
        let five = plan(vec![Step::Square { src: 0, dst: 5 }], 2);
        assert_error(
            g.run_plan_async(2, &m, five, &o).await,
            "BAD_ARGUMENT",
            "writes slot 5",
        );
        // Was a GL error (a feedback loop) that named no cause.
        let feedback = vec![
            Step::Square { src: 0, dst: 1 },
            Step::Multiply { a: 1, b: 0, dst: 1 },
        ];
        assert_error(
            g.run_plan_async(2, &m, plan(feedback, 2), &o).await,
            "BAD_ARGUMENT",
            "step 1 reads and writes slot 1",
        );
        // A hand-made plan that can run, runs; and the engine is fine after the refusals.
        let cube = vec![
            Step::Square { src: 0, dst: 1 },
            Step::Multiply { a: 1, b: 0, dst: 2 },
        ];
        let cube = PassPlan {
            steps: cube,
            slots: 3,
            result: Some(2),
        };
        let r = g.run_plan_async(2, &m, cube, &o).await.unwrap();
        assert_eq!(r, [37.0, 54.0, 81.0, 118.0]);
    }

    pub async fn a_result_read_before_the_last_pass_is_an_error(backend: Backend) {
        let g = on(backend).await;
        let m = [1.0f32, 1.0, 1.0, 0.0];
        let mut run = g
            .start_plan(2, &m, passes::power(5), &Options::default())
            .unwrap();
        let early = "0 of 3 passes have run";
        // The blocking read: on WebGPU never possible, which it says first.
        let blocking = |done: &str| match backend {
            Backend::WebGl | Backend::Cpu => ("BAD_ARGUMENT", done.to_string()),
            Backend::WebGpu => ("NEEDS_ASYNC", "run.resultAsync()".to_string()),
        };
        let (code, needle) = blocking(early);
        assert_error(run.read_result(&mut g.engine()), code, &needle);
        let r = run.read_result_async(&mut g.engine()).map(|_| ());
        assert_error(r, "BAD_ARGUMENT", early);
        // What to do, in words a JavaScript caller can act on: a Run has no finish().
        let r = run.read_result_async(&mut g.engine()).map(|_| ());
        assert_error(r, "BAD_ARGUMENT", "call run.step() until it returns false");
        run.step(&mut g.engine(), false).unwrap();
        let (code, needle) = blocking("1 of 3");
        assert_error(run.read_result(&mut g.engine()), code, &needle);
        let r = run.read_result_async(&mut g.engine()).map(|_| ());
        assert_error(r, "BAD_ARGUMENT", "1 of 3");
        // Finishing runs the rest: [[1,1],[1,0]]^5 = [[F6, F5], [F5, F4]].
        let r = g.finish_async(run).unwrap().wait().await.unwrap();
        assert_eq!(r, [8.0, 5.0, 5.0, 3.0]);
    }

    pub async fn a_run_keeps_the_kernel_and_semiring_its_inputs_were_uploaded_for(
        backend: Backend,
    ) {
        // Run's kernel and semiring are read-only (`run.kernel = …` no longer compiles):
        // the inputs are already in that layout and encoding.
        let g = on(backend).await;
        let kernel = match backend {
            Backend::WebGl => Kernel::Packed,
            Backend::WebGpu => Kernel::Tiled16,
            Backend::Cpu => Kernel::Simd,
        };
        let o = in_semiring(kernel, Semiring::MinPlus);
        let run = g.start_plan(2, &[0.0, 1.0, f32::INFINITY, 0.0], passes::power(2), &o);
        let run = run.unwrap();
        assert_eq!((run.kernel(), run.semiring()), (kernel, Semiring::MinPlus));
        let r = g.finish_async(run).unwrap().wait().await.unwrap();
        assert_eq!(r, [0.0, 1.0, f32::INFINITY, 0.0]);
        // The engine's own product pass refuses operands it cannot combine.
        let first = kernels(&g)[0];
        let ordinary = Semiring::Ordinary;
        let pending = {
            let mut e = g.engine();
            let scalar = e.upload(Shape::square(2), first.layout(), &[1.0; 4], 0.0);
            let scalar = scalar.unwrap();
            let out = e.alloc(Shape::square(2), first.layout()).unwrap();
            let wide = e.alloc(Shape::new(2, 3), first.layout()).unwrap();
            let r = e.product(first, ordinary, [&wide, &scalar, &out], false);
            assert_error(r.map(|_| ()), "BAD_ARGUMENT", "the shapes do not fit");
            if backend == Backend::WebGl {
                // WebGL's layouts: a packed matrix cannot meet a scalar one.
                let packed = e.upload(
                    Shape::square(2),
                    Layout::Packed { planes: 1 },
                    &[1.0; 4],
                    0.0,
                );
                let packed = packed.unwrap();
                let r = e.product(first, ordinary, [&scalar, &packed, &out], false);
                assert_error(
                    r.map(|_| ()),
                    "BAD_ARGUMENT",
                    "needs every operand in its layout",
                );
                e.recycle(packed);
            }
            // A kernel of the other backend is refused by the engine too.
            let other = match backend {
                Backend::WebGl => Kernel::Global,
                Backend::WebGpu | Backend::Cpu => Kernel::Naive,
            };
            let r = e.product(other, ordinary, [&scalar, &scalar, &out], false);
            assert_error(r.map(|_| ()), "BAD_ARGUMENT", other.name());
            e.product(first, ordinary, [&scalar, &scalar, &out], false)
                .unwrap();
            let pending = e.read(&out, ordinary).unwrap();
            for m in [scalar, out, wide] {
                e.recycle(m);
            }
            pending
        };
        assert_eq!(pending.wait().await.unwrap(), [2.0; 4]);
    }

    pub async fn element_wise_passes_refuse_operands_of_another_shape(backend: Backend) {
        // The engine's affine, add and combine passes are public like its product: an
        // operand of another shape than out panicked on WebGL (an assert), and on
        // WebGPU read past it (a wrong result); beta with no q asserted on WebGL and
        // added beta·p on WebGPU.
        let g = on(backend).await;
        let layout = kernels(&g)[0].layout();
        let pending = {
            let mut e = g.engine();
            let two = e.upload(Shape::square(2), layout, &[1.0; 4], 0.0).unwrap();
            let three = e.upload(Shape::square(3), layout, &[1.0; 9], 0.0).unwrap();
            let out = e.alloc(Shape::square(2), layout).unwrap();
            let big = e.alloc(Shape::square(3), layout).unwrap();
            let shapes = "an element-wise pass takes operands of one shape and layout";
            let coefficients = [1.0, 0.0, 0.0];
            let r = e.affine(&big, &two, None, coefficients, 0.0);
            assert_error(r, "BAD_ARGUMENT", "p is a 2x2 matrix");
            let r = e.affine(&out, &three, None, coefficients, 0.0);
            assert_error(r, "BAD_ARGUMENT", shapes);
            let r = e.affine(&out, &two, Some(&three), [1.0, 1.0, 0.0], 0.0);
            assert_error(r, "BAD_ARGUMENT", "q is a 3x3 matrix");
            let r = e.combine(&big, [&three, &two], Semiring::MinPlus);
            assert_error(r, "BAD_ARGUMENT", shapes);
            let r = e.add_timed(&out, [&two, &three], false).map(|_| ());
            assert_error(r, "BAD_ARGUMENT", shapes);
            let r = e.affine(&out, &two, None, [1.0, 2.0, 0.0], 0.0);
            assert_error(r, "BAD_ARGUMENT", "no q was given");
            if backend == Backend::WebGl {
                // A packed operand beside a scalar one: the same shape, not the same layout.
                let packed = Layout::Packed { planes: 1 };
                let other = if layout == packed {
                    Layout::Scalar
                } else {
                    packed
                };
                let p = e.upload(Shape::square(2), other, &[1.0; 4], 0.0).unwrap();
                let r = e.affine(&out, &p, None, coefficients, 0.0);
                assert_error(r, "BAD_ARGUMENT", shapes);
                e.recycle(p);
            }
            e.affine(&out, &two, Some(&two), [1.0, 2.0, 1.0], 0.0)
                .unwrap();
            let pending = e.read(&out, Semiring::Ordinary).unwrap();
            for m in [two, three, out, big] {
                e.recycle(m);
            }
            pending
        };
        assert_eq!(pending.wait().await.unwrap(), [4.0, 3.0, 3.0, 4.0]);
    }

    pub async fn uploads_of_the_wrong_length_are_refused(backend: Backend) {
        // Engine::upload is public: data that is not rows × cols numbers asserted on
        // WebGL ("texture upload of the wrong length"), and on WebGPU left the rest of
        // a pooled buffer as it was (or wrote past it).
        let g = on(backend).await;
        let first = kernels(&g)[0].layout();
        let mut layouts = vec![first];
        if backend == Backend::WebGl {
            // Packed with padding, packed as it is, and two planes strided.
            layouts.extend([1, 2].map(|planes| Layout::Packed { planes }));
        }
        let mut e = g.engine();
        for layout in layouts {
            for shape in [Shape::square(3), Shape::new(4, 8)] {
                for len in [shape.len() - 1, shape.len() + 1, 0] {
                    let r = e.upload(shape, layout, &vec![1.0; len], 0.0).map(|_| ());
                    let what = format!("a {}x{} matrix", shape.rows, shape.cols);
                    assert_error(r, "BAD_LENGTH", &what);
                }
            }
        }
        let m = e.upload(Shape::new(4, 8), first, &[2.0; 32], 0.0);
        e.recycle(m.unwrap());
    }

    pub async fn packed_layouts_of_other_plane_counts_are_refused(backend: Backend) {
        // Layout is a public enum: Packed { planes: 0 } divided by zero in alloc and
        // upload, and 3 (or 5, 6, 7: planes that do not divide the padding) packed rows
        // past a plane's texture (an index panic in layout::pack).
        let g = on(backend).await;
        let mut e = g.engine();
        let shape = Shape::square(8);
        for planes in [0, 3, 5, 6, 7, 9, 16] {
            let layout = Layout::Packed { planes };
            let r = e.alloc(shape, layout).map(|_| ());
            assert_error(r, "BAD_ARGUMENT", "1, 2, 4 or 8 planes");
            let r = e.upload(shape, layout, &[1.0; 64], 0.0).map(|_| ());
            assert_error(r, "BAD_ARGUMENT", &format!("{planes} planes"));
        }
        for planes in [1, 2, 4, 8] {
            let m = e.upload(shape, Layout::Packed { planes }, &[1.0; 64], 0.0);
            let m = m.unwrap();
            assert_eq!(e.download(&m, "read", "readAsync").unwrap(), [1.0; 64]);
            e.recycle(m);
        }
    }

    pub async fn jacobi_refuses_to_record_every_0_iterations(backend: Backend) {
        let g = on(backend).await;
        let settings = JacobiSettings {
            epsilon: 1e-6,
            max_iterations: 10,
            record_every: Some(0),
        };
        let (a, b) = ([4.0f32, 1.0, 1.0, 3.0], [1.0f32, 2.0]);
        let o = Options::default();
        let r = jacobi::jacobi(&g.handle(), 2, &a, &b, settings, &o).await;
        assert_error(r.map(|_| ()), "BAD_ARGUMENT", "record_every: is 0");
    }

    pub async fn a_run_belongs_to_the_gpgpu_that_started_it(backend: Backend) {
        let other_backend = match backend {
            Backend::WebGl => Backend::WebGpu,
            Backend::WebGpu | Backend::Cpu => Backend::WebGl,
        };
        if skipped_without(other_backend, "a_run_belongs_to_the_gpgpu_that_started_it") {
            return;
        }
        let (g1, g2, g3) = (
            on(backend).await,
            on(backend).await,
            on(other_backend).await,
        );
        let m = [1.0f32, 1.0, 1.0, 0.0];
        let o = Options::default();
        let another = "started on another Gpgpu";
        // Finishing on g2 returned Ok and put g1's textures in g2's pool, so that g2's
        // next call of the same size drew into them and failed with a GL error.
        for g in [&g2, &g3] {
            let run = g1.start_plan(2, &m, passes::power(3), &o).unwrap();
            let r = g.finish_async(run).map(|_| ());
            assert_error(r, "BAD_ARGUMENT", another);
            // A run with no pass left goes straight to the readback: checked there too.
            let run = g1.start_plan(2, &m, passes::power(1), &o).unwrap();
            let r = g.finish_async(run).map(|_| ());
            assert_error(r, "BAD_ARGUMENT", another);
            let mut run = g1.start_plan(2, &m, passes::power(3), &o).unwrap();
            assert_error(run.step(&mut g.engine(), false), "BAD_ARGUMENT", another);
            assert_error(run.sync(&mut g.engine()), "BAD_ARGUMENT", another);
            let r = run.read_result_async(&mut g.engine()).map(|_| ());
            assert_error(r, "BAD_ARGUMENT", another);
            run.step(&mut g1.engine(), false).unwrap();
            let r = g1.finish_async(run).unwrap().wait().await.unwrap();
            assert_eq!(r, [3.0, 2.0, 2.0, 1.0]);
        }
        // All still work, with every size they saw.
        for g in [&g1, &g2, &g3] {
            let r = g.power_async(2, &m, 3, &o).await.unwrap();
            assert_eq!(r, [3.0, 2.0, 2.0, 1.0]);
            let pending = g.start_plan(2, &m, passes::power(4), &o);
            let pending = g.finish_async(pending.unwrap()).unwrap();
            assert_eq!(pending.wait().await.unwrap(), [5.0, 3.0, 3.0, 2.0]);
        }
    }

    pub async fn blocking_calls_answer_on_webgl_and_name_the_async_form_on_webgpu(
        backend: Backend,
    ) {
        let g = on(backend).await;
        let m = [1.0f32, 1.0, 1.0, 0.0];
        let o = Options::default();
        // What each blocking call gives on WebGL; on WebGPU: NeedsAsync naming the
        // async form.
        let check = |what: &str, r: gpgpu_matrix::Result<Vec<f32>>, want: &[f32], instead: &str| {
            match backend {
                Backend::WebGl | Backend::Cpu => assert_eq!(r.unwrap(), want, "{what}"),
                Backend::WebGpu => {
                    let e = assert_error(r, "NEEDS_ASYNC", &format!("use {instead}"));
                    assert!(e.to_string().starts_with(what), "{e}");
                }
            }
        };
        check(
            "square",
            g.square(2, &m, &o),
            &[2.0, 1.0, 1.0, 1.0],
            "squareAsync",
        );
        let r = g.multiply(2, 2, 2, &m, &m, &o);
        check("multiply", r, &[2.0, 1.0, 1.0, 1.0], "multiplyAsync");
        let r = g.square_repeatedly(2, &m, 2, &o);
        check(
            "squareRepeatedly",
            r,
            &[5.0, 3.0, 3.0, 2.0],
            "squareRepeatedlyAsync",
        );
        let r = g.power(2, &m, 5, &o);
        check("power", r, &[8.0, 5.0, 5.0, 3.0], "powerAsync");
        let r = g.run_plan(2, &m, passes::power(3), &o);
        check("run_plan", r, &[3.0, 2.0, 2.0, 1.0], "run_plan_async");
        // A run steps on both; its blocking reads answer on WebGL only.
        let mut run = g.start_plan(2, &m, passes::power(3), &o).unwrap();
        while run.step(&mut g.engine(), false).unwrap() {}
        let sync = run.sync(&mut g.engine()).map(|_| vec![]);
        check("run.sync()", sync, &[], "await run.whenDone()");
        let r = run.read_result(&mut g.engine());
        check(
            "run.result()",
            r,
            &[3.0, 2.0, 2.0, 1.0],
            "run.resultAsync()",
        );
        let r = g.finish(run);
        check(
            "run.result()",
            r,
            &[3.0, 2.0, 2.0, 1.0],
            "run.resultAsync()",
        );
        // The applications complete at their first poll on WebGL only.
        let f = now(
            fibonacci(&g.handle(), 10, &o),
            "fibonacci",
            "fibonacciAsync",
        );
        check(
            "fibonacci",
            f.map(|f| vec![f.value]),
            &[55.0],
            "fibonacciAsync",
        );
        // And every async form answers on both.
        let f = fibonacci(&g.handle(), 10, &o).await.unwrap();
        assert_eq!(f.value, 55.0);
        let r = g.power_async(2, &m, 5, &o).await.unwrap();
        assert_eq!(r, [8.0, 5.0, 5.0, 3.0]);
    }
}
