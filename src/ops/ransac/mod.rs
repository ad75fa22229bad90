//! RANSAC's two passes over many hypotheses at once (see
//! [`crate::plan::homography`]): the fit (each hypothesis's H from its 4 sampled
//! correspondences, by an exact 8 × 8 solve) and the scoring (each hypothesis's
//! inliers). WebGL: glsl/ransac/fit.frag (a fragment per entry of H) and
//! glsl/ransac/score.frag (a fragment per hypothesis); WebGPU: wgsl/ransac/fit.wgsl
//! (an invocation per hypothesis) and wgsl/ransac/score.wgsl (a workgroup per
//! hypothesis, a tree reduction); CPU: `plan::cpu::passes`.

pub mod webgl;
pub mod webgpu;

use crate::cpu::{passes, CpuEngine};
use crate::engine::{Engine, Forms, Matrix, Timer};
use crate::error::Result;
use crate::plan::homography::RansacPasses;

/// RANSAC's two passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Each hypothesis's H from its 4 sampled correspondences.
    Fit,
    /// Each hypothesis's inliers.
    Score,
}

impl Engine {
    /// One of RANSAC's passes, timed where the device can: the fit with `m` =
    /// [points, samples, hypotheses] (hypotheses ← the H of each hypothesis's 4-point
    /// sample), the scoring with [points, hypotheses, counts] (counts ← the inliers of
    /// each hypothesis).
    pub fn ransac(
        &mut self,
        pass: Pass,
        p: &RansacPasses,
        m: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        let p = *p;
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::pass(e, pass, &p, m),
            webgpu: |e: &mut _, m, t: Option<&_>| webgpu::pass(e, pass, &p, m, t),
            cpu: |e: &mut CpuEngine, [x, y, out]: [_; 3]| {
                e.pass([x, y], [out], move |ins, [out]| match pass {
                    Pass::Fit => passes::ransac_fit(&p, ins, out),
                    Pass::Score => passes::ransac_score(&p, ins, out),
                })
            },
        };
        self.by_backend_timed(m, timed, forms)
    }
}
