//! Reads JS arguments and returns what starts the matching operation; shared by the
//! blocking, Promise and step-through entry points. With `tiles` (the plain and
//! Promise calls) sizes past the device limit, or over `maxTile`, are multiplied in
//! tiles; step-through runs (`tiles` false) keep the device limit.

use super::*;

fn dim(g: &Gpgpu, name: &str, value: &JsValue, tiles: bool) -> Result<usize> {
    let v = number_arg(name, value)?;
    match tiles {
        true => work::tiled_dimension(name, v),
        false => g.dim(name, v),
    }
}

fn plan(n: usize, m: Held, plan: PassPlan, options: Options, tiles: bool) -> Start {
    Box::new(move |e| match tiles {
        true => work::begin_plan(e, n, m.input(), plan, &options),
        false => work::start_plan(e, n, m.input(), plan, &options).map(Work::Whole),
    })
}

/// Whether a call's matrices may be held as the caller's arrays until their
/// upload: on WebGPU, whose start runs during the call unless a lost device is
/// being replaced (a queued start keeps copies: the caller may change its arrays
/// after the call returns).
fn direct(g: &Gpgpu) -> bool {
    let e = g.engine();
    e.backend() == Backend::WebGpu && !e.replacing()
}

/// Refuses, before the arrays are read, what could never be held: past the
/// device limit without tiles, or more than WebAssembly memory (in f64: a shape
/// past memory would overflow usize on wasm32).
pub(super) fn check_sizes(g: &Gpgpu, inputs: &[Shape], result: Shape, tiles: bool) -> Result<()> {
    let e = g.engine();
    if !tiles {
        inputs
            .iter()
            .chain([&result])
            .try_for_each(|s| e.check_shape(*s))?;
    }
    grid::check_memory_on(
        e.backend(),
        "this operation",
        inputs,
        result,
        grid::SMALLER_MATRICES,
    )
}

/// The sizes of a step-through run (`checkRunSize`): as `startMultiply` checks
/// them, with no arrays.
pub fn run_size(g: &Gpgpu, [rows, inner, cols]: [&JsValue; 3]) -> Result<()> {
    // Rows alone: a square run's n, named as startSquare names it.
    let square = inner.is_undefined() && cols.is_undefined();
    if !square && (inner.is_undefined() || cols.is_undefined()) {
        // Two sizes once checked a product whose missing one was rows, unsaid.
        return Err(GpgpuError::BadArgument {
            name: "checkRunSize".into(),
            detail: "give rows, inner and cols (a product, as startMultiply takes \
                     them) or n alone (startSquare, startPower, startSquareRepeatedly), \
                     not two sizes"
                .into(),
        });
    }
    let rows = dim(g, if square { "n" } else { "rows" }, rows, false)?;
    let (inner, cols) = match square {
        true => (rows, rows),
        false => (dim(g, "inner", inner, false)?, dim(g, "cols", cols, false)?),
    };
    let out = Shape::new(rows, cols);
    // A square run has one input, as startSquare counts it.
    let inputs = match square {
        true => vec![out],
        false => vec![Shape::new(rows, inner), Shape::new(inner, cols)],
    };
    check_sizes(g, &inputs, out, false)
}

/// The count a run on one n×n matrix reads after n (`times` of squareRepeatedly, `p`
/// of power), its bound, and the plan it makes.
pub struct Count {
    name: &'static str,
    max: f64,
    plan: fn(u64) -> Result<PassPlan>,
}

pub const TIMES: Count = Count {
    name: "times",
    max: passes::MAX_SQUARINGS as f64,
    plan: passes::repeated_square,
};

pub const POWER: Count = Count {
    name: "p",
    max: MAX_COUNT,
    plan: |p| Ok(passes::power(p)),
};

/// A run on one n×n matrix `m`: squared once without `count`, else as `count` says
/// with the value given for it.
pub fn on_square(
    g: &Gpgpu,
    [n, m]: [&JsValue; 2],
    count: Option<(&Count, &JsValue)>,
    options: &JsValue,
    tiles: bool,
) -> Result<Start> {
    let n = dim(g, "n", n, tiles)?;
    let count = match count {
        Some((c, v)) => Some((c, shape::count(c.name, number_arg(c.name, v)?, c.max)?)),
        None => None,
    };
    check_sizes(g, &[Shape::square(n)], Shape::square(n), tiles)?;
    let m = matrix_held("m", m, direct(g))?;
    let options = options_arg(options)?;
    let passes = match count {
        Some((c, k)) => (c.plan)(k)?,
        None => passes::power(2),
    };
    Ok(plan(n, m, passes, options, tiles))
}

pub fn multiply(
    g: &Gpgpu,
    [rows, inner, cols]: [&JsValue; 3],
    a: &JsValue,
    b: &JsValue,
    options: &JsValue,
    tiles: bool,
) -> Result<Start> {
    let dims = [
        dim(g, "rows", rows, tiles)?,
        dim(g, "inner", inner, tiles)?,
        dim(g, "cols", cols, tiles)?,
    ];
    let (sa, sb) = (Shape::new(dims[0], dims[1]), Shape::new(dims[1], dims[2]));
    let out = Shape::new(dims[0], dims[2]);
    check_sizes(g, &[sa, sb], out, tiles)?;
    // Both lengths before either array is copied.
    let (la, lb) = (array_len("a", a)?, array_len("b", b)?);
    shape::check_len("a", sa, la)?;
    shape::check_len("b", sb, lb)?;
    check_copies("this product", &[("a", la, 4), ("b", lb, 4)])?;
    let (a, b) = (
        held_checked("a", a, direct(g))?,
        held_checked("b", b, direct(g))?,
    );
    let options = options_arg(options)?;
    Ok(Box::new(move |e| match tiles {
        true => work::begin_product(e, dims, a.input(), b.input(), &options),
        false => work::start_product(e, dims, a.input(), b.input(), &options).map(Work::Whole),
    }))
}
