//! wgsl/elementwise/affine.wgsl: element-wise out = alpha·P + beta·Q + gamma·I, or P ⊕ Q in a
//! semiring, over 16 × 16 workgroups.

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::plan::semiring::Semiring;
use crate::webgpu::Timer;

pub const SOURCE: &str = crate::common::shader!("wgsl/elementwise/affine.wgsl");

// The coefficients are in the uniform words: they follow the data.
pub const AFFINE: StaticWgsl = StaticWgsl::new("affine", || SOURCE.into()).following_data();

/// out ← alpha·p + beta·q + gamma·I, element-wise (q = p when absent).
pub fn affine(
    e: &mut GpuEngine,
    out: &GpuMatrix,
    p: &GpuMatrix,
    q: Option<&GpuMatrix>,
    coefficients: [f32; 3],
) -> Result<()> {
    elementwise(e, out, p, q, coefficients, 0, None)
}

/// `affine` with the pass timed (the SpMV bench's streaming ceiling).
pub fn affine_timed(
    e: &mut GpuEngine,
    out: &GpuMatrix,
    [p, q]: [&GpuMatrix; 2],
    coefficients: [f32; 3],
    timer: Option<&Timer>,
) -> Result<()> {
    elementwise(e, out, p, Some(q), coefficients, 0, timer)
}

/// out ← p ⊕ q in `semiring` (ordinary: p + q; boolean: max; min-plus: min).
pub fn combine(
    e: &mut GpuEngine,
    out: &GpuMatrix,
    [p, q]: [&GpuMatrix; 2],
    semiring: Semiring,
) -> Result<()> {
    let mode = match semiring {
        Semiring::Ordinary => 0,
        Semiring::Boolean => 1,
        Semiring::MinPlus => 2,
    };
    elementwise(e, out, p, Some(q), [1.0, 1.0, 0.0], mode, None)
}

/// wgsl/elementwise/affine.wgsl: `combine` 0 is the affine map, 1 max, 2 min.
fn elementwise(
    e: &mut GpuEngine,
    out: &GpuMatrix,
    p: &GpuMatrix,
    q: Option<&GpuMatrix>,
    [alpha, beta, gamma]: [f32; 3],
    combine: u32,
    timer: Option<&Timer>,
) -> Result<()> {
    e.ensure()?;
    e.poison(out)?;
    let s = out.shape;
    let words = [
        s.rows as u32,
        s.cols as u32,
        alpha.to_bits(),
        beta.to_bits(),
        gamma.to_bits(),
        combine,
        0,
        0,
    ];
    let groups = (s.cols.div_ceil(16), s.rows.div_ceil(16));
    let q = &q.unwrap_or(p).buffer;
    e.dispatch(
        &AFFINE,
        &[p.buffer(), q, out.buffer()],
        &words,
        groups,
        timer,
    )
}
