//! Binds the WebGL passes of the batched Jacobi SVD over R32F atlases (scalar
//! layout): glsl/svd/pairs.frag and glsl/svd/round.frag (one round of rotations:
//! the rotation of each pair, then each entry rotated), glsl/svd/measure.frag
//! (what is left to rotate, per matrix) and glsl/svd/finish.frag (σ, U, V sorted),
//! all with glsl/svd/common.glsl prepended.

use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::{ATLAS_GLSL, HEADER};
use crate::plan::svd::{SvdPlan, TOL};

pub const COMMON: &str = crate::common::shader!("glsl/svd/common.glsl");
pub const PAIRS_SOURCE: &str = crate::common::shader!("glsl/svd/pairs.frag");
pub const ROUND_SOURCE: &str = crate::common::shader!("glsl/svd/round.frag");
pub const MEASURE_SOURCE: &str = crate::common::shader!("glsl/svd/measure.frag");
pub const FINISH_SOURCE: &str = crate::common::shader!("glsl/svd/finish.frag");

pub const PAIRS: StaticGlsl = StaticGlsl::new("svd-pairs", || {
    format!("{HEADER}{ATLAS_GLSL}\n{COMMON}\n{PAIRS_SOURCE}")
});

pub const ROUND: StaticGlsl = StaticGlsl::new("svd-round", || {
    format!("{HEADER}{ATLAS_GLSL}\n{COMMON}\n{ROUND_SOURCE}")
});

pub const MEASURE: StaticGlsl = StaticGlsl::new("svd-measure", || {
    format!("{HEADER}{ATLAS_GLSL}\n{COMMON}\n{MEASURE_SOURCE}")
});

pub const FINISH: StaticGlsl = StaticGlsl::new("svd-finish", || {
    format!("{HEADER}{ATLAS_GLSL}\n{COMMON}\n{FINISH_SOURCE}")
});

/// The uniforms every pass takes.
fn sizes(program: &crate::gl::program::Program, p: &SvdPlan) {
    for (name, v) in [
        ("u_count", p.shape.count),
        ("u_rows", p.shape.rows),
        ("u_cols", p.shape.cols),
        ("u_per_row", p.work.per_row),
    ] {
        program.set_int(name, v as i32);
    }
}

/// dst (a [A; V] atlas) ← src with round `round`'s pairs rotated: first each
/// pair's rotation into `rotations` (one float per column), then every entry.
/// The rotation is computed once per pair rather than by each of the
/// rows + cols fragments of its two columns: with every fragment recomputing
/// α, β, γ, 1000 9×9 SVDs took 3.0 s on SwiftShader and 200 32×16 ones 12.3 s;
/// with the extra pass, 1.2 s and 2.4 s (3×3 ones, where a fragment has little to
/// recompute, went from 59 to 129 ms for 1000: one draw per round more).
pub fn round(
    engine: &mut GlEngine,
    p: &SvdPlan,
    round: usize,
    [src, rotations, dst]: [&GlMatrix; 3],
) -> Result<()> {
    let even = p.shape.even_cols() as i32;
    engine.draw_into(&PAIRS, rotations, |program| {
        program.set_texture("u_work", 0, src.texture());
        sizes(program, p);
        program.set_int("u_even", even);
        program.set_int("u_round", round as i32);
        program.set_int("u_out_per_row", p.rotations.per_row as i32);
        program.set_float("u_tol", TOL);
    })?;
    engine.draw_into(&ROUND, dst, |program| {
        program.set_texture("u_work", 0, src.texture());
        program.set_texture("u_rotations", 1, rotations.texture());
        sizes(program, p);
        program.set_int("u_even", even);
        program.set_int("u_round", round as i32);
        program.set_int("u_rotations_per_row", p.rotations.per_row as i32);
    })
}

/// out (one float per matrix) ← the largest |γ|/√(αβ) of the pairs of `work`
/// that would still rotate, 0 where none would.
pub fn measure(engine: &mut GlEngine, p: &SvdPlan, work: &GlMatrix, out: &GlMatrix) -> Result<()> {
    engine.draw_into(&MEASURE, out, |program| {
        program.set_texture("u_work", 0, work.texture());
        sizes(program, p);
        program.set_int("u_out_per_row", p.scalars.per_row as i32);
        program.set_float("u_tol", TOL);
    })
}

/// out (the [U; V; σᵀ] atlas) ← the sorted, signed results of the converged `work`.
pub fn finish(engine: &mut GlEngine, p: &SvdPlan, work: &GlMatrix, out: &GlMatrix) -> Result<()> {
    engine.draw_into(&FINISH, out, |program| {
        program.set_texture("u_work", 0, work.texture());
        sizes(program, p);
        program.set_int("u_out_per_row", p.out.per_row as i32);
    })
}
