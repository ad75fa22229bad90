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

impl Engine {
    /// RANSAC's hypotheses: `hyps` ← the H of each hypothesis's 4-point sample.
    pub fn ransac_fit(
        &mut self,
        p: &RansacPasses,
        m: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        let p = *p;
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::fit(e, &p, m),
            webgpu: |e: &mut _, m, t: Option<&_>| webgpu::ransac_fit(e, &p, m, t),
            cpu: |e: &mut CpuEngine, [x, s, h]: [_; 3]| {
                e.pass([x, s], [h], move |ins, [h]| passes::ransac_fit(&p, ins, h))
            },
        };
        self.by_backend_timed(m, timed, forms)
    }

    /// RANSAC's scoring: `counts` ← the inliers of each hypothesis.
    pub fn ransac_score(
        &mut self,
        p: &RansacPasses,
        m: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        let p = *p;
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::score(e, &p, m),
            webgpu: |e: &mut _, m, t: Option<&_>| webgpu::ransac_score(e, &p, m, t),
            cpu: |e: &mut CpuEngine, [x, h, c]: [_; 3]| {
                e.pass([x, h], [c], move |ins, [c]| {
                    passes::ransac_score(&p, ins, c)
                })
            },
        };
        self.by_backend_timed(m, timed, forms)
    }
}
