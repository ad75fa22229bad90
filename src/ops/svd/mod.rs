//! The batched SVD by one-sided Jacobi (see [`crate::plan::svd`]). WebGPU and the
//! CPU run a whole batch's sweeps in one dispatch or pass (wgsl/svd/jacobi.wgsl, an
//! invocation per column); WebGL, whose fragments cannot share a sweep, runs round
//! by round: the pairs' rotations, the round applied, what is left to rotate, and
//! the sorted results (glsl/svd_*.frag). `crate::batched::svd` drives both forms.

pub mod webgl;
pub mod webgpu;

use crate::cpu::passes;
use crate::cpu::CpuEngine;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::engine::{Engine, Forms, Matrix};
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::svd::SvdPlan;

/// The batched SVD runs as one dispatch on WebGPU and as passes per round on
/// WebGL: a call of the other backend's form.
fn svd_form(backend: Backend) -> GpgpuError {
    GpgpuError::BadArgument {
        name: "engine".into(),
        detail: format!(
            "this SVD pass is not the {} form: WebGPU and the CPU run svd_jacobi (one \
             dispatch), WebGL svd_round, svd_measure and svd_finish (crate::batched::svd \
             drives both)",
            backend.name()
        ),
    }
}

impl Engine {
    /// A batch of SVDs in one dispatch (WebGPU, the CPU): `m` = [a, out, sweeps],
    /// `out` ← the [U; V; σᵀ] tiles and `sweeps` ← each matrix's sweeps, from the
    /// atlas `a` (see [`SvdPlan`]).
    pub fn svd_jacobi(&mut self, p: &SvdPlan, m: [&Matrix; 3]) -> Result<()> {
        let p = *p;
        let forms = Forms {
            webgl: |_: &mut _, _| Err(svd_form(Backend::WebGl)),
            webgpu: |e: &mut _, m| webgpu::svd_jacobi(e, &p, m),
            cpu: |e: &mut CpuEngine, [a, o, n]: [_; 3]| {
                e.pass([a], [o, n], move |[a], outs| {
                    passes::svd_jacobi(&p, a, outs)
                })
            },
        };
        self.by_backend(m, forms)
    }

    /// One round of the batched SVD's rotations (WebGL): `m` = [src, rotations, dst],
    /// `dst` ← `src` with the round's pairs of every [A; V] tile rotated
    /// (`rotations`: the pairs' rotations, one float per column).
    pub fn svd_round(&mut self, p: &SvdPlan, round: usize, m: [&Matrix; 3]) -> Result<()> {
        self.svd_on_webgl(m, |e, m| webgl::round(e, p, round, m))
    }

    /// What is left to rotate in each [A; V] tile of `work` (WebGL): `out` gets one
    /// float per matrix, 0 once no pair would rotate.
    pub fn svd_measure(&mut self, p: &SvdPlan, work: &Matrix, out: &Matrix) -> Result<()> {
        self.svd_on_webgl([work, out], |e, [w, o]| webgl::measure(e, p, w, o))
    }

    /// The [U; V; σᵀ] tiles of the converged [A; V] tiles of `work` (WebGL).
    pub fn svd_finish(&mut self, p: &SvdPlan, work: &Matrix, out: &Matrix) -> Result<()> {
        self.svd_on_webgl([work, out], |e, [w, o]| webgl::finish(e, p, w, o))
    }

    /// A pass of WebGL's form of the SVD; the other backends run `svd_jacobi`.
    fn svd_on_webgl<'m, const N: usize>(
        &mut self,
        m: [&'m Matrix; N],
        pass: impl FnOnce(&mut GlEngine, [&'m GlMatrix; N]) -> Result<()>,
    ) -> Result<()> {
        let forms = Forms {
            webgl: pass,
            webgpu: |_: &mut _, _| Err(svd_form(Backend::WebGpu)),
            cpu: |_: &mut _, _| Err(svd_form(Backend::Cpu)),
        };
        self.by_backend(m, forms)
    }
}
