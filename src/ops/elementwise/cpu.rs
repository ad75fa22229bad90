//! The element-wise passes on the CPU (`plan::cpu::passes`).

use crate::cpu::{passes, CpuEngine, CpuMatrix};
use crate::error::Result;
use crate::plan::semiring::Semiring;

pub fn affine(
    e: &mut CpuEngine,
    out: &CpuMatrix,
    p: &CpuMatrix,
    q: Option<&CpuMatrix>,
    coefficients: [f32; 3],
) -> Result<()> {
    let cols = out.shape.cols;
    match q {
        Some(q) => e.pass([p, q], [out], move |[p, q], [out]| {
            passes::affine(cols, p, Some(q), coefficients, out)
        }),
        None => e.pass([p], [out], move |[p], [out]| {
            passes::affine(cols, p, None, coefficients, out)
        }),
    }
}

pub fn combine(
    e: &mut CpuEngine,
    out: &CpuMatrix,
    [p, q]: [&CpuMatrix; 2],
    semiring: Semiring,
) -> Result<()> {
    e.pass([p, q], [out], move |[p, q], [out]| {
        passes::combine(semiring, [p, q], out)
    })
}
