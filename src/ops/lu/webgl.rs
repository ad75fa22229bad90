//! Binds the WebGL passes of Gaussian elimination over R32F textures (scalar
//! layout), ping-ponging: glsl/lu/pivot.frag (step k's pivot into the next state
//! row), glsl/lu/eliminate.frag (the swap and the update of step k, the whole
//! [A | B] into the other texture) and glsl/lu/back.frag (one step of back
//! substitution).

use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{Destination, GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::HEADER;
use crate::plan::lu::LuPlan;

pub const PIVOT_SOURCE: &str = crate::common::shader!("glsl/lu/pivot.frag");
pub const ELIMINATE_SOURCE: &str = crate::common::shader!("glsl/lu/eliminate.frag");
pub const BACK_SOURCE: &str = crate::common::shader!("glsl/lu/back.frag");

pub const PIVOT: StaticGlsl = StaticGlsl::new("lu-pivot", || format!("{HEADER}{PIVOT_SOURCE}"));

pub const ELIMINATE: StaticGlsl =
    StaticGlsl::new("lu-eliminate", || format!("{HEADER}{ELIMINATE_SOURCE}"));

pub const BACK: StaticGlsl = StaticGlsl::new("lu-back", || format!("{HEADER}{BACK_SOURCE}"));

/// Step k: `state_dst` ← `state_src` with step k's pivot (and singular step),
/// then `w_dst` ← `w_src` with the rows swapped and the trailing block updated.
pub fn step(
    engine: &mut GlEngine,
    p: &LuPlan,
    k: usize,
    [w_src, state_src, w_dst, state_dst]: [&GlMatrix; 4],
) -> Result<()> {
    engine.draw_into(&PIVOT, state_dst, |program| {
        program.set_texture("u_work", 0, w_src.texture());
        program.set_texture("u_state", 1, state_src.texture());
        program.set_int("u_n", p.shape.n as i32);
        program.set_int("u_k", k as i32);
        program.set_float("u_tiny", p.tiny);
    })?;
    // Rows 0..k−1 have been final since step k − 2, whose output this target
    // holds (ping-pong), so only rows k − 1.. are drawn: the viewport starts there
    // (gl_FragCoord stays the texel's). That halves the fragments of a
    // factorization (n³/2 instead of n³). Not poisoned: the rows it keeps are
    // part of its result.
    let first = k.saturating_sub(1);
    let gl = engine.gl().clone();
    let (cols, rows) = (p.cols() as i32, (p.shape.n - first) as i32);
    engine.draw(&ELIMINATE, Destination::Texture(&w_dst.target), |program| {
        program.set_texture("u_work", 0, w_src.texture());
        program.set_texture("u_state", 1, state_dst.texture());
        program.set_int("u_k", k as i32);
        program.set_float("u_tiny", p.tiny);
        gl.viewport(0, first as i32, cols, rows);
    })
}

/// Back substitution over the eliminated `w`, ping-ponging `x`: n passes from
/// step n − 1 down; returns the index in `x` of the one holding x.
pub fn back(engine: &mut GlEngine, p: &LuPlan, w: &GlMatrix, x: [&GlMatrix; 2]) -> Result<usize> {
    let n = p.shape.n;
    let mut out = 0;
    for k in (0..n).rev() {
        // The first step reads y from B's columns of [A | B].
        let (y, col) = if k == n - 1 { (w, n) } else { (x[1 - out], 0) };
        engine.draw_into(&BACK, x[out], |program| {
            program.set_texture("u_work", 0, w.texture());
            program.set_texture("u_b", 1, y.texture());
            program.set_int("u_b_col", col as i32);
            program.set_int("u_k", k as i32);
        })?;
        out = 1 - out;
    }
    Ok(1 - out)
}
