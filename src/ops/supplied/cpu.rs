//! A supplied Rust kernel as one pass of the CPU engine.

use super::CpuKernel;
use crate::cpu::{CpuEngine, CpuMatrix};
use crate::error::Result;

pub fn run(
    e: &mut CpuEngine,
    f: CpuKernel,
    [a, b, c]: [&CpuMatrix; 3],
    dims: [usize; 3],
) -> Result<()> {
    // Not poisoned: the kernel's output starts as NaN below, whatever the poison.
    e.pass_with([a, b], [c], None, move |[a, b], [c]| {
        c.fill(f32::NAN);
        f(a, b, c, dims)
    })
}
