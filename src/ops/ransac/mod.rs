//! RANSAC's two passes over many hypotheses at once (see
//! [`crate::plan::homography`]): the fit (each hypothesis's H from its 4 sampled
//! correspondences, by an exact 8 × 8 solve) and the scoring (each hypothesis's
//! inliers). WebGL: glsl/ransac/fit.frag (a fragment per entry of H) and
//! glsl/ransac/score.frag (a fragment per hypothesis); WebGPU: wgsl/ransac/fit.wgsl
//! (an invocation per hypothesis) and wgsl/ransac/score.wgsl (a workgroup per
//! hypothesis, a tree reduction); CPU: `plan::cpu::passes`.

pub mod webgl;
pub mod webgpu;

use crate::cpu;
use crate::engine::{foreign, gl_timed, gpu_timed, Engine, Matrix, Timer};
use crate::error::Result;
use crate::plan::homography::RansacPasses;

impl Engine {
    /// RANSAC's hypotheses: `hyps` ← the H of each hypothesis's 4-point sample.
    pub fn ransac_fit(
        &mut self,
        p: &RansacPasses,
        [pts, samples, hyps]: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        match (self, pts, samples, hyps) {
            (Engine::WebGl(e), Matrix::Gl(x), Matrix::Gl(s), Matrix::Gl(h)) => {
                gl_timed(e, timed, |e| webgl::fit(e, p, [x, s, h]))
            }
            (Engine::WebGpu(e), Matrix::Gpu(x), Matrix::Gpu(s), Matrix::Gpu(h)) => {
                gpu_timed(e, timed, |e, t| webgpu::ransac_fit(e, p, [x, s, h], t))
            }
            (Engine::Cpu(e), Matrix::Cpu(x), Matrix::Cpu(s), Matrix::Cpu(h)) => {
                let p = *p;
                e.pass([x, s], [h], move |ins, [h]| {
                    cpu::passes::ransac_fit(&p, ins, h)
                })
                .map(|()| None)
            }
            _ => Err(foreign()),
        }
    }

    /// RANSAC's scoring: `counts` ← the inliers of each hypothesis.
    pub fn ransac_score(
        &mut self,
        p: &RansacPasses,
        [pts, hyps, counts]: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        match (self, pts, hyps, counts) {
            (Engine::WebGl(e), Matrix::Gl(x), Matrix::Gl(h), Matrix::Gl(c)) => {
                gl_timed(e, timed, |e| webgl::score(e, p, [x, h, c]))
            }
            (Engine::WebGpu(e), Matrix::Gpu(x), Matrix::Gpu(h), Matrix::Gpu(c)) => {
                gpu_timed(e, timed, |e, t| webgpu::ransac_score(e, p, [x, h, c], t))
            }
            (Engine::Cpu(e), Matrix::Cpu(x), Matrix::Cpu(h), Matrix::Cpu(c)) => {
                let p = *p;
                e.pass([x, h], [c], move |ins, [c]| {
                    cpu::passes::ransac_score(&p, ins, c)
                })
                .map(|()| None)
            }
            _ => Err(foreign()),
        }
    }
}
