//! The kernel lab's check for JavaScript: `checkKernelAsync(exercise, source,
//! options)` on the Gpgpu class (see [`crate::lab`]), what the page `www/lab.html`
//! and a course's autograder call.

use js_sys::{Array, Float32Array, Object, Promise};
use wasm_bindgen::prelude::*;

use super::args::{flag_arg, known_keys, set, string_arg};
use super::{op, promise, JsGpgpu};
use crate::common::guard;
use crate::error::Result;
use crate::lab::{self, CheckOptions, Exercise, LabResult, Speed};

#[wasm_bindgen(typescript_custom_section)]
const TS_LAB: &str = r#"
export type LabExercise = "square" | "multiply" | "global" | "tiled" | "register"
  | "boolean" | "minplus" | "batched3x3" | "blocksparse" | "spmv";
/** `time`: once every case passes, time the kernel beside the library's (default true);
 *  `wallClock`: by the wall clock even where the device grants GPU timestamps. */
export interface LabOptions { time?: boolean; wallClock?: boolean; }
/** A compiler message at its line (1-based; column 0: the compiler named none; line 0:
 *  no line, as a link error). */
export interface LabMessage { line: number; column: number; message: string; }
/** One seeded case: its shape, its largest absolute error and the largest error as a
 *  share of its element's scale (Σ|a·b|; min-plus |want|), the tolerance of that share
 *  (0: exact), the first element outside it (row-major), whether the two runs differed.
 *  `errors` (failed cases only): each element's error share, for a heatmap; `nnz`
 *  (spmv): the matrix's stored nonzeros. */
export interface LabCase { rows: number; inner: number; cols: number; maxAbsError: number;
  maxRelError: number; tolerance: number;
  firstWrong: { i: number; j: number; got: number; want: number } | null;
  nondeterministic: boolean; errors?: Float32Array; nnz?: number; }
/** Median ms of one run at size n (a product's n×n×n; batched: the count; spmv: the
 *  rows) and GFLOP/s, the learner's and the library's `kernel`; `clock` "gpu": GPU
 *  timestamps of the passes alone, "wall": the wall clock (no timestamps, the library's
 *  operation is not timed by them, or `wallClock`): for a product from each pass's
 *  submission to the GPU's idle on resident inputs, else around upload, run, readback.
 *  `timerResolutionMs`: the wall clock's step (info()'s): a "wall" ms is unrounded,
 *  good to this step; a "gpu" one is not limited by it. */
export interface LabTiming { n: number; ms: number; gflops: number; clock: "gpu" | "wall";
  timerResolutionMs: number;
  reference: { kernel: string; ms: number; gflops: number }; }
export interface LabResult { exercise: LabExercise; verdict: "pass" | "fail";
  compile: { ok: boolean; messages: LabMessage[] }; cases: LabCase[];
  timing: LabTiming | null; }
"#;

fn options(value: &JsValue) -> Result<CheckOptions> {
    known_keys(value, &["time", "wallClock"], "{ time: false }")?;
    let mut o = CheckOptions::default();
    if !value.is_undefined() && !value.is_null() {
        let time = guard::field(value, "options", "time")?;
        if !time.is_undefined() {
            o.time = flag_arg("options.time", &time)?;
        }
        let wall = guard::field(value, "options", "wallClock")?;
        if !wall.is_undefined() {
            o.wall_clock = flag_arg("options.wallClock", &wall)?;
        }
    }
    Ok(o)
}

fn speed(o: &Object, s: &Speed) {
    set(o, "ms", s.ms);
    set(o, "gflops", s.gflops);
}

fn result_object(r: LabResult) -> Object {
    let o = Object::new();
    set(&o, "exercise", r.exercise.id());
    set(&o, "verdict", if r.pass { "pass" } else { "fail" });
    let compile = Object::new();
    set(&compile, "ok", r.compile.ok);
    let messages: Array = r
        .compile
        .messages
        .iter()
        .map(|m| {
            let mo = Object::new();
            set(&mo, "line", m.line);
            set(&mo, "column", m.column);
            set(&mo, "message", m.message.as_str());
            JsValue::from(mo)
        })
        .collect();
    set(&compile, "messages", messages);
    set(&o, "compile", compile);
    let cases: Array = r
        .cases
        .iter()
        .map(|c| {
            let co = Object::new();
            let [rows, inner, cols] = c.dims;
            set(&co, "rows", rows as f64);
            set(&co, "inner", inner as f64);
            set(&co, "cols", cols as f64);
            set(&co, "maxAbsError", c.max_abs_error);
            set(&co, "maxRelError", c.max_rel_error);
            set(&co, "tolerance", c.tolerance);
            let wrong = c.first_wrong.map_or(JsValue::NULL, |(i, j, got, want)| {
                let w = Object::new();
                set(&w, "i", i as f64);
                set(&w, "j", j as f64);
                set(&w, "got", got);
                set(&w, "want", want);
                w.into()
            });
            set(&co, "firstWrong", wrong);
            set(&co, "nondeterministic", c.nondeterministic);
            if let Some(nnz) = c.nnz {
                set(&co, "nnz", nnz as f64);
            }
            if !c.errors.is_empty() {
                set(&co, "errors", Float32Array::from(&c.errors[..]));
            }
            JsValue::from(co)
        })
        .collect();
    set(&o, "cases", cases);
    let timing = r.timing.map_or(JsValue::NULL, |t| {
        let to = Object::new();
        set(&to, "n", t.dims[0] as f64);
        set(&to, "clock", t.clock);
        set(
            &to,
            "timerResolutionMs",
            crate::common::clock::resolution_ms(),
        );
        speed(&to, &t.learner);
        let reference = Object::new();
        set(&reference, "kernel", t.kernel);
        speed(&reference, &t.reference);
        set(&to, "reference", reference);
        to.into()
    });
    set(&o, "timing", timing);
    o
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// Checks a learner's kernel for a lab exercise ('square', 'multiply': GLSL on a
    /// WebGL Gpgpu; 'global', 'tiled', 'register', 'boolean', 'minplus',
    /// 'batched3x3', 'blocksparse', 'spmv': WGSL on a WebGPU one) against the float64 reference on seeded cases, each run twice,
    /// then times it beside the library's kernel. A compile error is in
    /// `compile.messages`; an unknown exercise or the other backend's exercise is
    /// BAD_ARGUMENT, a kernel that loses the device DEVICE_LOST (or CONTEXT_LOST).
    #[wasm_bindgen(js_name = checkKernelAsync, unchecked_return_type = "Promise<LabResult>")]
    pub fn check_kernel_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LabExercise")] exercise: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "LabOptions")] opts: JsValue,
    ) -> Promise {
        let args = (|| {
            let ids = lab::EXERCISES.map(|e| format!("'{}'", e.id())).join(", ");
            let exercise = Exercise::parse(&string_arg("exercise", &exercise, &ids)?)?;
            let source = string_arg("source", &source, "the kernel's source text")?;
            Ok((exercise, source, options(&opts)?))
        })();
        let handle = self.gpu.handle();
        promise(args.and_then(|(exercise, source, o)| {
            op(async move {
                let r = lab::check(&handle, exercise, &source, o).await?;
                Ok(result_object(r).into())
            })
        }))
    }
}
