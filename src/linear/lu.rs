//! Gaussian elimination with partial pivoting on the GPU: `lu` factors an n × n
//! matrix (P·A = L·U, packed as LAPACK does), `solve` solves A·x = b for nrhs
//! right-hand sides. The algorithm and the singularity rule are
//! [`crate::plan::lu`]'s; here they run as passes, one step per pivot:
//!
//! * WebGPU, in place on one buffer of [A | B]: per step a one-workgroup
//!   dispatch (the previous step's multipliers, the pivot by a reduction in
//!   workgroup memory, the row swap) and a dispatch updating the trailing
//!   block; then one dispatch of back substitution.
//! * WebGL, ping-ponging two textures of [A | B] and two of the state row: per
//!   step a pivot pass and one pass doing the swap and the update; then n passes
//!   of back substitution.
//!
//! Nothing is read back until the end: the pivots and the first singular step
//! live in a state row on the GPU and come back with the result. The residual
//! ‖A·x − b‖ / ‖b‖ is computed in float64 on the CPU from the x read back.

use crate::engine::{kept_or_released, Engine, Handle, Matrix};
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::layout::Layout;
use crate::plan::lu::{check_finite, residual, LuPlan, LuShape};
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

/// A factorization as computed: `lu` packed (U on and above the diagonal, L's
/// multipliers below), `pivots[k]` the row swapped into row k at step k,
/// `singular` the first step whose pivot was at or below n·ε·max|a_ij| (no
/// NaN either way: a singular step eliminates nothing), `steps` the steps run
/// (n unless fewer were asked for) and `passes` the GPU passes they took.
#[derive(Clone, Debug, PartialEq)]
pub struct Lu {
    pub lu: Vec<f32>,
    pub pivots: Vec<u32>,
    pub singular: Option<usize>,
    pub steps: usize,
    pub passes: usize,
}

/// A system's solution: `x` (n × nrhs, row-major) and its residual
/// ‖A·x − b‖ / ‖b‖ in float64, both None when a step was singular (then
/// `singular` says which); `passes`: the GPU passes.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub x: Option<Vec<f32>>,
    pub residual: Option<f64>,
    pub singular: Option<usize>,
    pub passes: usize,
}

/// Checks a factorization's arguments (n as a whole number within the device's
/// limit, `a` n × n and finite, `steps` at most n).
pub fn check_lu(limit: usize, n: usize, a: &[f32], steps: usize) -> Result<LuShape> {
    let s = LuShape::square(n as f64, limit)?;
    s.check_a(a.len())?;
    check_finite("a", a)?;
    if steps > n {
        return Err(GpgpuError::BadCount {
            name: "steps".into(),
            value: steps as f64,
            problem: crate::error::NumberProblem::TooLarge { limit: n as f64 },
            min: 0,
            max: n as f64,
        });
    }
    Ok(s)
}

/// Checks a system's arguments (also: `b` n × nrhs, both finite).
pub fn check_solve(limit: usize, n: usize, a: &[f32], b: &[f32], nrhs: usize) -> Result<LuShape> {
    let s = LuShape::from_numbers(n as f64, nrhs as f64, limit)?;
    s.check_a(a.len())?;
    s.check_b(b.len())?;
    check_finite("a", a)?;
    check_finite("b", b)?;
    Ok(s)
}

/// The GPU objects of one run: [A | B] and the state row (two of each on WebGL,
/// the first current), and x's outputs.
struct Run {
    plan: LuPlan,
    work: Vec<Matrix>,
    state: Vec<Matrix>,
    x: Vec<Matrix>,
    /// Which of `x` holds x after back substitution.
    x_at: usize,
    passes: usize,
}

impl Run {
    /// Uploads [A | B] and the initial state.
    fn start(e: &mut Engine, plan: LuPlan, a: &[f32], b: &[f32]) -> Result<Run> {
        let mut run = Run {
            plan,
            work: vec![],
            state: vec![],
            x: vec![],
            x_at: 0,
            passes: 0,
        };
        let made = (|| {
            let w = Shape::new(plan.shape.n, plan.cols());
            e.check_shape(w)?;
            run.work
                .push(e.upload(w, Layout::Scalar, &plan.augmented(a, b)?, 0.0)?);
            run.state
                .push(e.upload(plan.state(), Layout::Scalar, &plan.initial_state(), 0.0)?);
            if !e.lu_in_place() {
                run.work.push(e.alloc(w, Layout::Scalar)?);
                run.state.push(e.alloc(plan.state(), Layout::Scalar)?);
            }
            Ok(())
        })();
        kept_or_released(e, run, made, Run::release)
    }

    /// Queues the first `steps` steps of elimination.
    fn eliminate(&mut self, e: &mut Engine, steps: usize) -> Result<()> {
        let last = self.work.len() - 1;
        for k in 0..steps {
            let m = [
                &self.work[0],
                &self.state[0],
                &self.work[last],
                &self.state[last],
            ];
            e.lu_step(&self.plan, k, m)?;
            // WebGL: a pivot and an elimination pass; WebGPU: a pivot and an update
            // dispatch (none trails the last step); the CPU: one pass.
            self.passes += match e.backend() {
                Backend::WebGl => 2,
                Backend::WebGpu if k + 1 == self.plan.shape.n => 1,
                Backend::WebGpu => 2,
                Backend::Cpu => 1,
            };
            self.work.swap(0, last);
            self.state.swap(0, last);
        }
        e.lu_stop(&self.plan, steps, [&self.work[0], &self.state[0]])?;
        // WebGPU's part-way factorization takes one more dispatch (Engine::lu_stop).
        if e.backend() == Backend::WebGpu && steps > 0 && steps < self.plan.shape.n {
            self.passes += 1;
        }
        Ok(())
    }

    /// Queues back substitution into `x[x_at]`.
    fn back(&mut self, e: &mut Engine) -> Result<()> {
        let shape = Shape::new(self.plan.shape.n, self.plan.shape.nrhs);
        for _ in 0..2 {
            let m = e.alloc(shape, Layout::Scalar)?;
            self.x.push(m);
        }
        self.x_at = e.lu_back(&self.plan, &self.work[0], [&self.x[0], &self.x[1]])?;
        self.passes += if e.lu_in_place() {
            1
        } else {
            self.plan.shape.n
        };
        Ok(())
    }

    /// Gives every matrix back to the pool.
    fn release(&mut self, e: &mut Engine) {
        for m in self
            .work
            .drain(..)
            .chain(self.state.drain(..))
            .chain(self.x.drain(..))
        {
            e.recycle(m);
        }
    }

    fn lu(&self, w: Vec<f32>, state: &[f32], steps: usize) -> Lu {
        let (pivots, singular) = self.plan.decode(state, steps);
        Lu {
            lu: w,
            pivots,
            singular,
            steps,
            passes: self.passes,
        }
    }

    fn solution(&self, x: Vec<f32>, state: &[f32], a: &[f32], b: &[f32]) -> Solution {
        let s = self.plan.shape;
        let (_, singular) = self.plan.decode(state, s.n);
        let x = singular.is_none().then_some(x);
        Solution {
            residual: x.as_ref().map(|x| residual(s.n, s.nrhs, a, x, b)),
            x,
            singular,
            passes: self.passes,
        }
    }
}

/// Frees the run's matrices whatever happened (a freed engine has nothing to
/// give back to) and passes the result on.
fn finish<T>(handle: &Handle, mut run: Run, done: Result<T>) -> Result<T> {
    let _ = handle.with(|e| {
        run.release(e);
        Ok(())
    });
    done
}

/// The first `steps` steps of the LU factorization of the n × n `a` (`steps` =
/// n: all of it), on either backend.
pub async fn lu(handle: &Handle, n: usize, a: &[f32], steps: usize) -> Result<Lu> {
    handle.ready().await?;
    let limit = handle.with(|e| Ok(e.max_dimension()))?;
    let s = check_lu(limit, n, a, steps)?;
    let mut run = handle.with(|e| Run::start(e, LuPlan::new(s, a), a, &[]))?;
    let done = async {
        let (w, state) = handle.with(|e| {
            run.eliminate(e, steps)?;
            let w = crate::engine::read_for_caller(e, &run.work[0], Semiring::Ordinary)?;
            Ok((
                w,
                crate::engine::read_for_caller(e, &run.state[0], Semiring::Ordinary)?,
            ))
        })?;
        let (w, state) = (w.wait().await?, state.wait().await?);
        Ok(run.lu(w, &state, steps))
    }
    .await;
    finish(handle, run, done)
}

/// x with A·x = b (b: n × nrhs, row-major) by elimination of [A | B] and back
/// substitution, on either backend.
pub async fn solve(
    handle: &Handle,
    n: usize,
    a: &[f32],
    b: &[f32],
    nrhs: usize,
) -> Result<Solution> {
    handle.ready().await?;
    let limit = handle.with(|e| Ok(e.max_dimension()))?;
    let s = check_solve(limit, n, a, b, nrhs)?;
    let mut run = handle.with(|e| Run::start(e, LuPlan::new(s, a), a, b))?;
    let done = async {
        let (x, state) = handle.with(|e| {
            run.eliminate(e, n)?;
            run.back(e)?;
            let x = crate::engine::read_for_caller(e, &run.x[run.x_at], Semiring::Ordinary)?;
            Ok((
                x,
                crate::engine::read_for_caller(e, &run.state[0], Semiring::Ordinary)?,
            ))
        })?;
        let (x, state) = (x.wait().await?, state.wait().await?);
        Ok(run.solution(x, &state, a, b))
    }
    .await;
    finish(handle, run, done)
}
