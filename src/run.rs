//! A run: one operation's inputs uploaded, its pass plan, and the GPU matrices in
//! between. Every operation goes through a run, on either backend; the teaching
//! page drives one pass at a time (`step`), the plain calls run them all
//! (`run_all`).

use crate::engine::{Engine, Input, Matrix, PendingRead, Timer};
use crate::error::{GpgpuError, Result};
use crate::kernels::{Backend, Kernel};
use crate::plan::passes::PassPlan;
use crate::plan::reference;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};

/// One operation on the GPU: its inputs uploaded, its pass plan, the matrices in
/// between. Made by [`Gpgpu::start_plan`](crate::Gpgpu::start_plan) or
/// [`Gpgpu::start_product`](crate::Gpgpu::start_product); stepped with [`Run::step`]
/// or completed with [`Gpgpu::finish`](crate::Gpgpu::finish) /
/// [`Gpgpu::finish_async`](crate::Gpgpu::finish_async).
///
/// Its kernel and semiring are fixed at the start (read them with [`Run::kernel`]
/// and [`Run::semiring`]):
///
/// ```compile_fail
/// fn switch(run: &mut gpgpu_matrix::run::Run) {
///     run.semiring = gpgpu_matrix::Semiring::MinPlus;
/// }
/// ```
pub struct Run {
    // Private: the inputs were uploaded in this kernel's layout and this semiring's
    // encoding, so changing either after the start could only go wrong.
    kernel: Kernel,
    semiring: Semiring,
    plan: PassPlan,
    /// Shape each slot holds (known up front: inputs, and each step's output).
    shapes: Vec<Shape>,
    slots: Vec<Option<Matrix>>,
    /// The answer when it is the identity (p = 0).
    identity: Option<Matrix>,
    next: usize,
    /// One timer per pass run with timing on (None where it was off or unsupported).
    timers: Vec<Option<Timer>>,
    /// The context or device generation the matrices belong to.
    generation: u32,
    /// The engine whose context or device holds the matrices (see `check_alive`).
    engine: u64,
}

impl Run {
    /// A run of `plan` whose slots 0.. hold `inputs` (row-major). A plan that cannot
    /// run on these inputs (see [`PassPlan::check`]) or an input of the wrong length
    /// is a `BadArgument` / `BadLength`, before anything is uploaded.
    pub fn new(
        engine: &mut Engine,
        kernel: Kernel,
        semiring: Semiring,
        plan: PassPlan,
        inputs: &[(Shape, Input<'_>)],
    ) -> Result<Run> {
        let input_shapes: Vec<Shape> = inputs.iter().map(|(s, _)| *s).collect();
        let shapes = plan.check(&input_shapes)?;
        let name = |i: usize| match (inputs.len(), i) {
            (1, _) => "m",
            (_, 0) => "a",
            _ => "b",
        };
        for (i, (shape, data)) in inputs.iter().enumerate() {
            shape::check_len(name(i), *shape, data.len())?;
        }
        // WebGPU uploads a JavaScript caller's array as it is where the semiring
        // leaves the numbers as they are; anything else is brought into wasm memory,
        // checked and prepared.
        let direct = semiring == Semiring::Ordinary && engine.backend() == Backend::WebGpu;
        let mut held = Vec::with_capacity(inputs.len());
        for (shape, data) in inputs {
            held.push(match data {
                Input::Js(_) if direct => (*shape, data.clone()),
                _ => (*shape, Input::Wasm(data.in_wasm()?)),
            });
        }
        let inputs = held;
        for (i, (_, data)) in inputs.iter().enumerate() {
            if let Input::Wasm(d) = data {
                semiring.check_domain(name(i), d)?;
            }
        }
        for s in &shapes {
            engine.check_shape(*s)?;
        }
        engine.choose_kernel(Some(kernel), shapes[0])?;
        engine.ensure()?;
        let mut slots: Vec<Option<Matrix>> = (0..shapes.len()).map(|_| None).collect();
        let (layout, pad) = (kernel.layout(), semiring.zero() as f32);
        let mut run = Run {
            kernel,
            semiring,
            plan,
            shapes,
            slots: vec![],
            identity: None,
            next: 0,
            timers: Vec::new(),
            generation: engine.generation(),
            engine: engine.id(),
        };
        // On failure, what was made so far goes back to the pool.
        let filled = (|| {
            for (i, (shape, data)) in inputs.iter().enumerate() {
                slots[i] = Some(match data {
                    Input::Js(a) => engine.upload_js(*shape, layout, a)?,
                    Input::Wasm(d) => engine.upload(*shape, layout, &semiring.prepare(d), pad)?,
                });
            }
            // Every output now, so the first pass is not slowed by allocation.
            for step in &run.plan.steps {
                let dst = step.dst();
                if slots[dst].is_none() {
                    slots[dst] = Some(engine.alloc(run.shapes[dst], layout)?);
                }
            }
            // M^0 = I needs no pass, but it is still a matrix the page can draw.
            if run.plan.result.is_none() {
                let n = run.shapes[0].rows;
                let id: Vec<f32> = reference::identity(semiring, n)
                    .into_iter()
                    .map(|v| v as f32)
                    .collect();
                run.identity = Some(engine.upload(Shape::square(n), layout, &id, pad)?);
            }
            Ok(())
        })();
        run.slots = slots;
        match filled {
            Ok(()) => Ok(run),
            Err(e) => {
                run.recycle(engine);
                Err(e)
            }
        }
    }

    /// The kernel running the passes.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The semiring of the products.
    pub fn semiring(&self) -> Semiring {
        self.semiring
    }

    /// The passes this run makes.
    pub fn plan(&self) -> &PassPlan {
        &self.plan
    }

    /// How many passes the plan has.
    pub fn pass_count(&self) -> usize {
        self.plan.steps.len()
    }

    /// How many passes have run.
    pub fn passes_done(&self) -> usize {
        self.next
    }

    /// Whether every pass has run (the result can be read).
    pub fn is_done(&self) -> bool {
        self.next == self.plan.steps.len()
    }

    /// Runs the next pass on `engine` (the one that started the run); `timed` times
    /// it on the GPU where the device can (a WebGL timer query, WebGPU timestamps).
    /// Returns false when every pass has run.
    pub fn step(&mut self, engine: &mut Engine, timed: bool) -> Result<bool> {
        let Some(&step) = self.plan.steps.get(self.next) else {
            return Ok(false);
        };
        self.check_alive(engine)?;
        let (a, b) = step.sources();
        // `PassPlan::check` made sure of these; an error rather than a panic all the same.
        let get = |s: usize| {
            self.slot(s).ok_or_else(|| GpgpuError::BadArgument {
                name: "plan".into(),
                detail: format!("step {} uses slot {s}, which holds no matrix", self.next),
            })
        };
        let timer = engine.product(
            self.kernel,
            self.semiring,
            [get(a)?, get(b)?, get(step.dst())?],
            timed,
        )?;
        self.timers.push(timer);
        self.next += 1;
        Ok(true)
    }

    /// Runs every remaining pass.
    pub fn run_all(&mut self, engine: &mut Engine) -> Result<()> {
        while self.step(engine, false)? {}
        Ok(())
    }

    /// The matrix in slot `slot` (inputs are slots 0 and, for products, 1).
    pub fn slot(&self, slot: usize) -> Option<&Matrix> {
        self.slots.get(slot).and_then(|s| s.as_ref())
    }

    /// Whether this run is a product of two inputs (A in slot 0, B in slot 1).
    pub fn is_product(&self) -> bool {
        self.plan == crate::plan::passes::product()
    }

    /// The answer's matrix (for M^0, the identity uploaded at the start).
    pub fn result(&self) -> Option<&Matrix> {
        match self.plan.result {
            Some(s) => self.slot(s),
            None => self.identity.as_ref(),
        }
    }

    /// Waits for the GPU to finish the passes issued so far (WebGL: reads one
    /// texel; WebGPU cannot block: NeedsAsync naming `whenDone`).
    pub fn sync(&self, engine: &mut Engine) -> Result<()> {
        self.check_alive(engine)?;
        engine.sync(self.latest(), "run.sync()", "await run.whenDone()")
    }

    /// Fails if `engine` is not the one that started this run: its matrices live in
    /// another context or device, where using them or pooling them fails.
    pub fn check_engine(&self, engine: &Engine) -> Result<()> {
        if engine.id() == self.engine {
            return Ok(());
        }
        Err(GpgpuError::BadArgument {
            name: "run".into(),
            detail: "this run was started on another Gpgpu, whose context or device holds \
                     its matrices; step, read and finish it with the Gpgpu that started it"
                .into(),
        })
    }

    /// Fails if `engine` did not start this run, or if the context or device was
    /// lost since this run uploaded its inputs: its matrices died with it and the
    /// run must be started again.
    pub fn check_alive(&self, engine: &mut Engine) -> Result<()> {
        self.check_engine(engine)?;
        // Checked before ensure(): "wait and call again" would be wrong for this run.
        if engine.generation() != self.generation {
            return Err(engine.outlived());
        }
        engine.ensure()?;
        if engine.generation() != self.generation {
            return Err(engine.outlived());
        }
        Ok(())
    }

    /// The output of the latest pass, or the first input before any pass ran.
    pub fn latest(&self) -> &Matrix {
        let slot = match self.next {
            0 => 0,
            k => self.plan.steps[k - 1].dst(),
        };
        self.slots[slot].as_ref().expect("written slot")
    }

    /// The answer's shape.
    pub fn result_shape(&self) -> Shape {
        match self.plan.result {
            Some(slot) => self.shapes[slot],
            None => self.shapes[0],
        }
    }

    /// Fails unless every pass has run: before that, the result slot holds an
    /// intermediate power (or nothing at all).
    pub fn check_done(&self) -> Result<()> {
        if self.is_done() {
            return Ok(());
        }
        Err(GpgpuError::BadArgument {
            name: "run".into(),
            detail: format!(
                "{} of {} passes have run; step to the end first: call run.step() until it \
                 returns false (in Rust, finish(run) or finish_async(run) runs the rest)",
                self.passes_done(),
                self.pass_count()
            ),
        })
    }

    /// The identity the plan's result is when p = 0 (made on the CPU).
    fn identity_data(&self) -> Vec<f32> {
        let n = self.shapes[0].rows;
        self.semiring.decode(
            reference::identity(self.semiring, n)
                .into_iter()
                .map(|v| v as f32)
                .collect(),
        )
    }

    /// Reads the answer back, blocking (WebGL and the CPU: [`Self::read_result_async`]
    /// completed at once); `BadArgument` until every pass has run. p = 0 gives the
    /// identity.
    pub fn read_result(&self, engine: &mut Engine) -> Result<Vec<f32>> {
        let (call, instead) = ("run.result()", "run.resultAsync()");
        self.check_engine(engine)?;
        // On WebGPU the blocking read is never possible: say so before anything else.
        if engine.backend() == crate::kernels::Backend::WebGpu {
            return Err(GpgpuError::NeedsAsync { call, instead });
        }
        let read = async { self.read_result_async(engine)?.wait().await };
        crate::common::now(read, call, instead)
    }

    /// Starts reading the answer back without blocking (either backend).
    pub fn read_result_async(&self, engine: &mut Engine) -> Result<PendingRead> {
        self.check_alive(engine)?;
        self.check_done()?;
        match self.plan.result {
            Some(_) => crate::engine::read_for_caller(engine, self.result_matrix()?, self.semiring),
            None => Ok(PendingRead::ready(self.identity_data())),
        }
    }

    fn result_matrix(&self) -> Result<&Matrix> {
        let slot = self.plan.result.unwrap_or(0);
        self.slot(slot).ok_or_else(|| GpgpuError::BadArgument {
            name: "plan".into(),
            detail: format!("result = slot {slot}, which holds no matrix"),
        })
    }

    /// GPU time of each pass run so far in ms: None while the result is pending (it
    /// arrives after control returns to the browser), NaN if timing was off or
    /// unsupported, or if the GPU reported the interval unreliable.
    pub fn gpu_times_ms(&self, engine: &Engine) -> Vec<Option<f64>> {
        if self.check_engine(engine).is_err() {
            return vec![Some(f64::NAN); self.timers.len()];
        }
        self.timers
            .iter()
            .map(|t| match t {
                None => Some(f64::NAN),
                Some(t) => engine.timer_ms(t),
            })
            .collect()
    }

    /// Returns the run's matrices to the engine's pool; given another engine, drops
    /// them instead (that pool could not use them).
    pub fn recycle(self, engine: &mut Engine) {
        if self.check_engine(engine).is_err() {
            return;
        }
        for m in self.slots.into_iter().flatten().chain(self.identity) {
            engine.recycle(m);
        }
    }
}
