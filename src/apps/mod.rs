//! Matrix powers at work (the textbook chapter's applications, and shortest paths):
//! each is a sequence of GPU passes built from the product kernels (in a chosen
//! semiring), the element-wise affine kernel and the statistics reduction.
//! Results come back once; per-pass numbers (residuals, updates) come back as a
//! single reduced texel each.

pub mod eigen;
pub mod fibonacci;
pub mod graphs;
pub mod inverse;
pub mod jacobi;

use crate::engine::{DeviceMatrix, Engine};
use crate::error::Result;
use crate::kernels::affine::{self, Affine};
use crate::kernels::reduce::{self, Stats};
use crate::kernels::Kernel;
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

/// One kernel (and so one layout) for every matrix of an application.
pub struct Workspace<'e> {
    pub engine: &'e mut Engine,
    pub kernel: Kernel,
}

impl Workspace<'_> {
    pub fn upload(&mut self, shape: Shape, data: &[f32]) -> Result<DeviceMatrix> {
        self.engine.upload(shape, self.kernel.layout(), data, 0.0)
    }

    /// a · b in the ordinary semiring.
    pub fn mul(&mut self, a: &DeviceMatrix, b: &DeviceMatrix) -> Result<DeviceMatrix> {
        let out = self
            .engine
            .alloc(Shape::new(a.shape.rows, b.shape.cols), self.kernel.layout())?;
        let done = self
            .engine
            .product(self.kernel, Semiring::Ordinary, a, b, &out);
        self.keep_if(done, out)
    }

    /// alpha·p + beta·q + gamma·I.
    pub fn affine(
        &mut self,
        p: &DeviceMatrix,
        q: Option<&DeviceMatrix>,
        alpha: f32,
        beta: f32,
        gamma: f32,
    ) -> Result<DeviceMatrix> {
        let out = self.engine.alloc(p.shape, self.kernel.layout())?;
        let coefficients = Affine { alpha, beta, gamma };
        let done = affine::apply(self.engine, &out, p, q, coefficients, 0.0);
        self.keep_if(done, out)
    }

    pub fn stats(&mut self, m: &DeviceMatrix) -> Result<Stats> {
        reduce::stats(self.engine, m)
    }

    /// Statistics by repeated halving passes (2×2 → 1 per pass).
    pub fn stats_halving(&mut self, m: &DeviceMatrix) -> Result<Stats> {
        reduce::stats_with(self.engine, m, 2)
    }

    pub fn read(&mut self, m: &DeviceMatrix) -> Result<Vec<f32>> {
        self.engine.download(m)
    }

    pub fn free(&mut self, m: DeviceMatrix) {
        self.engine.recycle(m);
    }

    fn keep_if(&mut self, done: Result<()>, out: DeviceMatrix) -> Result<DeviceMatrix> {
        match done {
            Ok(()) => Ok(out),
            Err(e) => {
                self.engine.recycle(out);
                Err(e)
            }
        }
    }
}
