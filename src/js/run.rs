//! The JavaScript `Run`: one operation stepped pass by pass, for teaching, on either
//! backend. Reads that must wait for the GPU have Async forms; on WebGPU they are
//! the only ones (the blocking forms are NEEDS_ASYNC, naming them).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Float32Array, Object, Promise};
use wasm_bindgen::prelude::*;

use super::args::{
    canvas_arg, drawn_object, flag_arg, stats_object, string_arg, style_arg, to_js_error,
};
use super::{op, pair, promise, JsResult, Op};
use crate::common::Style;
use crate::engine::{Engine, Handle, Matrix};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::plan::semiring::Semiring;
use crate::run::Run;

/// Which matrix of a run to look at: "a" (the input M, or A), "b" (B of a
/// product), "latest" (the last pass's output) or "result".
fn pick<'r>(run: &'r Run, which: &JsValue) -> Result<&'r Matrix> {
    let b = if run.is_product() { ", 'b'" } else { "" };
    let accepted = format!("'a' (or 'input'){b}, 'latest' or 'result'");
    let which = string_arg("which", which, &accepted)?;
    let slot = match which.as_str() {
        "a" | "input" => run.slot(0),
        "b" if run.is_product() => run.slot(1),
        "latest" => Some(run.latest()),
        "result" if run.is_done() => run.result(),
        "result" => {
            return Err(GpgpuError::BadArgument {
                name: "which".into(),
                detail: "the result exists once every pass has run".into(),
            })
        }
        _ => None,
    };
    slot.ok_or_else(|| GpgpuError::BadArgument {
        name: "which".into(),
        detail: format!("'{which}' is not a matrix of this run; use {accepted}"),
    })
}

/// A heatmap style for a matrix of `run`: on a min-plus run "no edge" is drawn as +∞
/// and left out of the default range, as it reads back as +Infinity.
fn run_style(run: &Run, (style, range): (Style, Option<f32>)) -> (Style, Option<f32>) {
    let no_edge = run.semiring() == Semiring::MinPlus;
    (Style { no_edge, ..style }, range)
}

/// A heatmap's canvas and style, read before the engine is taken: reading the style
/// runs the page's getters, and one calling the same Gpgpu found its engine borrowed
/// for the draw ("RefCell already mutably borrowed", a trap that left the Gpgpu
/// borrowed for good).
fn heatmap_args(canvas: &JsValue, style: &JsValue) -> Result<(Canvas, (Style, Option<f32>))> {
    Ok((canvas_arg(canvas)?, style_arg(style)?))
}

/// One operation stepped pass by pass, for teaching: its matrices stay on the GPU
/// to be drawn, summarised and read between passes. Call `free()` when done.
#[wasm_bindgen(js_name = Run)]
pub struct JsRun {
    engine: Rc<RefCell<Engine>>,
    run: Option<Run>,
}

impl JsRun {
    pub(crate) fn new(engine: Rc<RefCell<Engine>>, run: Run) -> JsRun {
        JsRun {
            engine,
            run: Some(run),
        }
    }

    fn try_with<T>(&mut self, f: impl FnOnce(&mut Engine, &mut Run) -> Result<T>) -> Result<T> {
        let mut e = self.engine.borrow_mut();
        let run = self.run.as_mut().ok_or_else(|| GpgpuError::BadArgument {
            name: "run".into(),
            detail: "this run was finished or freed".into(),
        })?;
        run.check_alive(&mut e)?;
        f(&mut e, run)
    }

    fn with<T>(&mut self, f: impl FnOnce(&mut Engine, &mut Run) -> Result<T>) -> JsResult<T> {
        self.try_with(f).map_err(to_js_error)
    }

    /// The engine's handle, for the blocking runner.
    fn handle(&self) -> Handle {
        Handle::on(&self.engine)
    }

    fn peek<T>(&self, f: impl FnOnce(&Run) -> T) -> T {
        f(self.run.as_ref().expect("run is alive"))
    }
}

#[wasm_bindgen(js_class = Run)]
impl JsRun {
    /// Number of passes the plan has.
    #[wasm_bindgen(getter, js_name = passCount)]
    pub fn pass_count(&self) -> u32 {
        self.peek(|r| r.pass_count() as u32)
    }

    /// Number of passes run so far.
    #[wasm_bindgen(getter, js_name = passesDone)]
    pub fn passes_done(&self) -> u32 {
        self.peek(|r| r.passes_done() as u32)
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.peek(|r| r.is_done())
    }

    /// The kernel running the passes.
    #[wasm_bindgen(getter, unchecked_return_type = "KernelName")]
    pub fn kernel(&self) -> String {
        self.peek(|r| r.kernel().name().to_string())
    }

    /// The backend the run's matrices live on: "webgl", "webgpu" or "cpu".
    #[wasm_bindgen(getter, unchecked_return_type = "BackendName")]
    pub fn backend(&self) -> String {
        self.peek(|r| r.kernel().backend().name().to_string())
    }

    /// One label per pass, e.g. "M^6 = M^3 · M^3".
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn labels(&self) -> Array {
        self.peek(|r| {
            r.plan()
                .labels()
                .iter()
                .map(|l| JsValue::from_str(l))
                .collect()
        })
    }

    /// Runs the next pass (timed on the GPU when `timed` and the device can:
    /// EXT_disjoint_timer_query_webgl2 on WebGL, 'timestamp-query' on WebGPU).
    /// Returns false when none was left.
    pub fn step(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "boolean | null")] timed: JsValue,
    ) -> JsResult<bool> {
        // 'x' or 1 timed the pass before.
        let timed = flag_arg("timed", &timed).map_err(to_js_error)?;
        self.with(|e, run| run.step(e, timed))
    }

    /// Blocks until the GPU has finished every pass issued so far (a one-texel
    /// readback): wall time around `step` + `sync` is a pass's time when the timer
    /// extension is missing. WebGL and the CPU (WebGPU: whenDone).
    pub fn sync(&mut self) -> JsResult<()> {
        self.with(|e, run| run.sync(e))
    }

    /// Resolves once the GPU has finished every pass issued so far, without
    /// blocking the page (WebGL: a fence polled from the event loop; WebGPU:
    /// onSubmittedWorkDone).
    #[wasm_bindgen(js_name = whenDone, unchecked_return_type = "Promise<void>")]
    pub fn when_done(&mut self) -> Promise {
        let idle = self.try_with(|e, _| e.idle());
        promise(
            idle.and_then(|idle| op(async move { idle.wait().await.map(|_| JsValue::UNDEFINED) })),
        )
    }

    /// GPU milliseconds of each pass run so far: a number once measured, null while
    /// pending (results arrive after control returns to the browser), NaN when the
    /// pass was not timed (no timer on this device, or `step()` without `timed`) or
    /// the GPU reported the interval unreliable (disjoint).
    #[wasm_bindgen(js_name = gpuTimes, unchecked_return_type = "(number | null)[]")]
    pub fn gpu_times(&mut self) -> JsResult<Array> {
        self.with(|e, run| {
            Ok(run
                .gpu_times_ms(e)
                .into_iter()
                .map(|t| t.map_or(JsValue::NULL, JsValue::from_f64))
                .collect())
        })
    }
}

pair! {
    Run:
    #[doc = " { maxAbs, nan, inf, sumAbs, sumSquares, min, max } of a matrix of the run, by GPU"]
    #[doc = " reduction (finite entries only in all but nan and inf; on a min-plus run \"no"]
    #[doc = " edge\" counts in inf, as it reads back as Infinity). WebGL and the CPU (WebGPU: statsAsync)."]
    stats stats -> Object as "MatrixStats";
    #[doc = " Like `stats`, on either backend."]
    stats_async statsAsync as "Promise<MatrixStats>";
    (which: "RunMatrix") => stats_op
}

pair! {
    Run:
    #[doc = " Reads a matrix of the run back (row-major Float32Array). WebGL and the CPU (WebGPU: readAsync)."]
    read read -> Float32Array as "Float32Array";
    #[doc = " Like `read`, on either backend."]
    read_async readAsync as "Promise<Float32Array>";
    (which: "RunMatrix") => read_op
}

pair! {
    Run:
    #[doc = " The answer (every pass must have run); M^0 gives the identity. WebGL"]
    #[doc = " (WebGPU: resultAsync)."]
    result result -> Float32Array as "Float32Array";
    #[doc = " Like `result`, on either backend."]
    result_async resultAsync as "Promise<Float32Array>";
    () => result_op
}

pair! {
    Run:
    #[doc = " Draws a matrix of the run on `canvas` as a heatmap straight from GPU memory."]
    #[doc = " `style`: { range?, sequential?, logFloor? }; the range defaults to the"]
    #[doc = " matrix's largest |finite value| (\"no edge\" of a min-plus run is +Infinity). Returns { blockRows, blockCols, stride }."]
    #[doc = " WebGL and the CPU (WebGPU: drawHeatmapAsync)."]
    draw_heatmap drawHeatmap -> Object as "HeatmapDrawn";
    #[doc = " Like `drawHeatmap`, on either backend: resolves once the picture is on the"]
    #[doc = " canvas. WebGPU colours it from the buffer in a compute pass and only the"]
    #[doc = " pixels come back, never the matrix."]
    draw_heatmap_async drawHeatmapAsync as "Promise<HeatmapDrawn>";
    (which: "RunMatrix", canvas: "CanvasElement | OffscreenCanvas"; style: "HeatmapStyle") => heatmap_op
}

fn stats_op(r: &mut JsRun, which: &JsValue) -> Result<Op> {
    let p = r.try_with(|e, run| e.stats_in(pick(run, which)?, run.semiring()))?;
    op(async move { Ok(stats_object(p.wait().await?).into()) })
}

fn read_op(r: &mut JsRun, which: &JsValue) -> Result<Op> {
    let p =
        r.try_with(|e, run| crate::engine::read_for_caller(e, pick(run, which)?, run.semiring()))?;
    op(async move { Ok(p.wait_js().await?.into()) })
}

fn result_op(r: &mut JsRun) -> Result<Op> {
    let p = r.try_with(|e, run| run.read_result_async(e))?;
    op(async move { Ok(p.wait_js().await?.into()) })
}

/// WebGL has drawn when this returns; the CPU colours the pixels when awaited.
fn heatmap_op(r: &mut JsRun, which: &JsValue, canvas: &JsValue, style: &JsValue) -> Result<Op> {
    let args = heatmap_args(canvas, style);
    let p = r.try_with(|e, run| {
        let (canvas, style) = args?;
        let (style, range) = run_style(run, style);
        e.heatmap(pick(run, which)?, &canvas, range, style)
    })?;
    op(async move { Ok(drawn_object(p.wait().await?).into()) })
}

impl Drop for JsRun {
    fn drop(&mut self) {
        if let (Some(run), Ok(mut e)) = (self.run.take(), self.engine.try_borrow_mut()) {
            run.recycle(&mut e);
        }
    }
}
