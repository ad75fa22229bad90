//! Statistics of a resident matrix (largest |value|, NaN and ±∞ counts, sums of |x|
//! and x², min and max), by reduction on the device: WebGL by passes that each
//! shrink the grid `factor`-fold (glsl/stats/reduce.frag), read at once; WebGPU by two
//! passes (wgsl/stats/reduce.wgsl), read when mapped; the CPU by one loop.

pub mod cpu;
pub mod webgl;
pub mod webgpu;

use crate::common::Stats;
use crate::cpu::CpuRead;
use crate::engine::webgpu::GpuRead;
use crate::engine::{foreign, Engine, Matrix};
use crate::error::{GpgpuError, Result};
use crate::plan::semiring::Semiring;

impl Engine {
    /// Statistics of `m` by GPU reduction (WebGL: `factor`-fold passes, read at once;
    /// WebGPU: two passes, read when mapped). On a min-plus matrix, entries ≥
    /// NO_EDGE / 2 count as +Infinity, which is what they read back as.
    pub fn stats_with(
        &mut self,
        m: &Matrix,
        factor: usize,
        semiring: Semiring,
    ) -> Result<PendingStats> {
        let no_edge = semiring == Semiring::MinPlus;
        match (self, m) {
            (Engine::WebGl(e), Matrix::Gl(m)) => {
                webgl::stats_with(e, m, factor, no_edge).map(|s| PendingStats(StatsState::Ready(s)))
            }
            (Engine::WebGpu(e), Matrix::Gpu(m)) => {
                Ok(PendingStats(StatsState::Gpu(webgpu::stats(e, m, no_edge)?)))
            }
            (Engine::Cpu(e), Matrix::Cpu(m)) => {
                Ok(PendingStats(StatsState::Cpu(cpu::stats(e, m, no_edge))))
            }
            _ => Err(foreign()),
        }
    }

    /// Statistics of `m` in few passes.
    pub fn stats(&mut self, m: &Matrix) -> Result<PendingStats> {
        self.stats_with(m, webgl::FACTOR, Semiring::Ordinary)
    }

    /// Statistics of `m`, a matrix of `semiring`'s values, in few passes.
    pub fn stats_in(&mut self, m: &Matrix, semiring: Semiring) -> Result<PendingStats> {
        self.stats_with(m, webgl::FACTOR, semiring)
    }
}

enum StatsState {
    Ready(Stats),
    Gpu(GpuRead),
    Cpu(CpuRead<Stats>),
}

/// Statistics on their way.
pub struct PendingStats(StatsState);

impl PendingStats {
    pub async fn wait(self) -> Result<Stats> {
        match self.0 {
            StatsState::Ready(s) => Ok(s),
            StatsState::Gpu(read) => Ok(Stats::from_record(&read.wait_f32().await?)),
            StatsState::Cpu(read) => read.wait().await,
        }
    }

    /// The statistics if they are already here (WebGL), for blocking callers.
    pub fn now(self, call: &'static str, instead: &'static str) -> Result<Stats> {
        match self.0 {
            StatsState::Ready(s) => Ok(s),
            StatsState::Gpu(_) => Err(GpgpuError::NeedsAsync { call, instead }),
            StatsState::Cpu(read) => crate::common::now(read.wait(), call, instead),
        }
    }
}
