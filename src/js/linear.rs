//! Linear systems for JavaScript: `lu`/`luAsync` and `solve`/`solveAsync` on the
//! Gpgpu class (crate::linear::lu). Matrices are row-major; b and x are
//! n × nrhs. The blocking forms run on WebGL and are NEEDS_ASYNC on WebGPU.

use js_sys::{Float32Array, Object, Promise, Uint32Array};
use wasm_bindgen::prelude::*;

use super::args::{array_len, check_copies, copy_checked, number_arg, set};
use super::{pair, JsGpgpu, JsResult, Op};
use crate::error::Result;
use crate::linear::lu::{self, Lu, Solution};
use crate::plan::lu::LuShape;
use crate::plan::shape;

#[wasm_bindgen(typescript_custom_section)]
const TS_LINEAR: &str = r#"
/** An LU factorization with partial pivoting, P·A = L·U, packed as LAPACK does:
 *  `lu` n·n, row-major, U on and above the diagonal, L's multipliers below (L's
 *  diagonal is 1); `pivots[k]` the row swapped into row k at step k. `singular`:
 *  some pivot was at or below n·2⁻²³·max|a_ij| (float32 cannot tell it from 0);
 *  `step` the first such step (null when none). A singular step eliminates
 *  nothing, so `lu` never holds NaN. `steps`: the steps run; `passes`: the GPU
 *  passes they took. */
export interface LuResult { lu: Float32Array; pivots: Uint32Array; singular: boolean;
  step: number | null; steps: number; passes: number; }
/** The solution of A·x = b: `x` n·nrhs, row-major, and `residual` ‖A·x − b‖/‖b‖
 *  (Frobenius, float64); both null when `singular` (then `step` says where). */
export interface SolveResult { x: Float32Array | null; residual: number | null;
  singular: boolean; step: number | null; passes: number; }
"#;

/// A dimension given as a JS number, at most the device's limit (LuShape then checks
/// n + nrhs). It was read against usize::MAX, so that past wasm32's usize (2^32) the
/// message named a "device's limit of 4294967295 (info().maxDimension …)", which is
/// no device's: the same call with n = 2^31 named the real one.
fn whole(g: &JsGpgpu, name: &str, v: &JsValue) -> Result<usize> {
    let limit = g.gpu.engine().max_dimension();
    shape::dimension(name, number_arg(name, v)?, limit)
}

/// n, a and the steps (undefined: all n). n against the device and a's length are
/// checked before a is copied (it was copied first, so an array too large trapped).
fn lu_args(
    g: &JsGpgpu,
    n: &JsValue,
    a: &JsValue,
    steps: &JsValue,
) -> Result<(usize, Vec<f32>, usize)> {
    let n = whole(g, "n", n)?;
    let limit = g.gpu.engine().max_dimension();
    let la = array_len("a", a)?;
    LuShape::square(n as f64, limit)?.check_a(la)?;
    check_copies("this factorization", &[("a", la, 4)])?;
    let a = copy_checked("a", a)?;
    let steps = if steps.is_undefined() {
        n
    } else {
        // At most n, checked here on the number: 2^32 cast to a wasm32 usize is 0, and
        // would stop after no step at all.
        shape::count("steps", number_arg("steps", steps)?, n as f64)? as usize
    };
    Ok((n, a, steps))
}

struct SolveArgs {
    n: usize,
    a: Vec<f32>,
    b: Vec<f32>,
    nrhs: usize,
}

/// n, a, b and nrhs (undefined: 1), the sizes checked before a and b are copied.
fn solve_args(
    g: &JsGpgpu,
    n: &JsValue,
    a: &JsValue,
    b: &JsValue,
    nrhs: &JsValue,
) -> Result<SolveArgs> {
    let n = whole(g, "n", n)?;
    let nrhs = match nrhs.is_undefined() {
        true => 1,
        false => whole(g, "nrhs", nrhs)?,
    };
    let limit = g.gpu.engine().max_dimension();
    let s = LuShape::from_numbers(n as f64, nrhs as f64, limit)?;
    let (la, lb) = (array_len("a", a)?, array_len("b", b)?);
    s.check_a(la)?;
    s.check_b(lb)?;
    check_copies("this solve", &[("a", la, 4), ("b", lb, 4)])?;
    Ok(SolveArgs {
        n,
        a: copy_checked("a", a)?,
        b: copy_checked("b", b)?,
        nrhs,
    })
}

fn step_value(step: Option<usize>) -> JsValue {
    step.map_or(JsValue::NULL, |k| JsValue::from(k as f64))
}

/// `{ lu, pivots, singular, step, steps, passes }`.
fn lu_object(r: &Lu) -> Object {
    let o = Object::new();
    set(&o, "lu", Float32Array::from(&r.lu[..]));
    set(&o, "pivots", Uint32Array::from(&r.pivots[..]));
    set(&o, "singular", r.singular.is_some());
    set(&o, "step", step_value(r.singular));
    set(&o, "steps", r.steps as f64);
    set(&o, "passes", r.passes as f64);
    o
}

/// `{ x, residual, singular, step, passes }`.
fn solution_object(r: &Solution) -> Object {
    let o = Object::new();
    let x =
        r.x.as_ref()
            .map_or(JsValue::NULL, |x| Float32Array::from(&x[..]).into());
    set(&o, "x", x);
    set(
        &o,
        "residual",
        r.residual.map_or(JsValue::NULL, JsValue::from),
    );
    set(&o, "singular", r.singular.is_some());
    set(&o, "step", step_value(r.singular));
    set(&o, "passes", r.passes as f64);
    o
}

pair! {
    #[doc = " The LU factorization with partial pivoting of the n × n matrix `a`"]
    #[doc = " (row-major) by Gaussian elimination on the GPU: the pivot of each step by"]
    #[doc = " a GPU reduction, the swap and the update as passes, nothing read back"]
    #[doc = " until the end. `steps` (optional, ≤ n) stops part way. Returns LuResult."]
    #[doc = " WebGL and the CPU (WebGPU: luAsync)."]
    lu lu -> Object as "LuResult";
    #[doc = " `lu` as a Promise, on either backend."]
    lu_async luAsync as "Promise<LuResult>";
    (n: "number", a: "Matrix"; steps: "number") => lu_op
}

pair! {
    #[doc = " Solves A·x = b (a n × n, b n × nrhs, both row-major; nrhs defaults to 1)"]
    #[doc = " by Gaussian elimination of [A | B] with partial pivoting and back"]
    #[doc = " substitution on the GPU; the residual ‖A·x − b‖/‖b‖ comes back in float64."]
    #[doc = " Returns SolveResult. WebGL and the CPU (WebGPU: solveAsync)."]
    solve solve -> Object as "SolveResult";
    #[doc = " `solve` as a Promise, on either backend."]
    solve_async solveAsync as "Promise<SolveResult>";
    (n: "number", a: "Matrix", b: "Matrix"; nrhs: "number") => solve_op
}

fn lu_op(g: &JsGpgpu, n: &JsValue, a: &JsValue, steps: &JsValue) -> Result<Op> {
    let (n, a, steps) = lu_args(g, n, a, steps)?;
    g.work(move |h| async move { Ok(lu_object(&lu::lu(&h, n, &a, steps).await?).into()) })
}

fn solve_op(g: &JsGpgpu, n: &JsValue, a: &JsValue, b: &JsValue, nrhs: &JsValue) -> Result<Op> {
    let x = solve_args(g, n, a, b, nrhs)?;
    g.work(move |h| async move {
        let r = lu::solve(&h, x.n, &x.a, &x.b, x.nrhs).await?;
        Ok(solution_object(&r).into())
    })
}
