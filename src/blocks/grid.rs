//! Products past the device limit: a matrix held as a grid of tiles, each an
//! ordinary GPU matrix, and a pass plan run on grids. Tile C_ij of a product is
//! Σ_k A_ik · B_kj: one product pass per term, summed by element-wise passes in the
//! run's semiring (min for min-plus, OR for boolean), all on the GPU; the tiles of
//! the result are read back at the end and put together. The chapter's partitioned
//! product, used for what it was invented for: matrices too big for one processor.

use crate::engine::{Engine, Matrix, PendingRead};
use crate::error::{GpgpuError, Result};
use crate::kernels::{Backend, Kernel};
use crate::plan::blocks::{cut, pieces};
use crate::plan::passes::PassPlan;
use crate::plan::reference;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{Shape, MAX_ARRAY_BYTES};

/// The wasm32 address space: the inputs, the result and one tile in flight must
/// fit in it together (a tab's WebAssembly memory cannot grow past 4 GiB).
pub const MAX_CPU_BYTES: f64 = 4.0 * 1024.0 * 1024.0 * 1024.0;

/// A matrix as a grid of tiles, row-major over the grid.
pub struct Grid {
    shape: Shape,
    rows: Vec<(usize, usize)>,
    cols: Vec<(usize, usize)>,
    tiles: Vec<Matrix>,
}

impl Grid {
    fn tile(&self, i: usize, j: usize) -> &Matrix {
        &self.tiles[i * self.cols.len() + j]
    }

    fn recycle(self, engine: &mut Engine) {
        for t in self.tiles {
            engine.recycle(t);
        }
    }
}

/// Tiles past the device limit are at most this side: 256 MB of float32, small
/// enough to allocate beside its neighbours, large enough that a tile product
/// (8192³ multiply-adds) dwarfs its pass's fixed cost.
pub const MAX_TILE: usize = 8192;

/// The tile side used past the device limit: [`MAX_TILE`], or less where the
/// device holds less as one matrix (WebGL's dimension limit; on WebGPU one storage
/// binding / buffer, rounded down to a multiple of the register kernel's 128).
pub fn device_tile(engine: &Engine) -> usize {
    let mut t = engine.max_dimension().min(MAX_TILE);
    if let Engine::WebGpu(e) = engine {
        let limits = &e.info().limits;
        let bytes = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        t = t.min((bytes / 4.0).sqrt() as usize);
        if t >= 128 {
            t -= t % 128;
        }
    }
    t.max(1)
}

/// The tile side a product over `shapes` needs: None when every matrix fits the
/// device whole and `max_tile` (the caller's cap) does not ask for tiles.
pub fn tile_for(engine: &Engine, shapes: &[Shape], max_tile: Option<usize>) -> Option<usize> {
    let largest = shapes.iter().map(|s| s.rows.max(s.cols)).max().unwrap_or(1);
    let fits =
        largest <= engine.max_dimension() && shapes.iter().all(|s| engine.check_shape(*s).is_ok());
    let device = device_tile(engine);
    match max_tile {
        Some(t) if largest > t => Some(t.min(device)),
        _ if !fits => Some(device),
        _ => None,
    }
}

/// What helps when a call's matrices do not fit WebAssembly memory (the hint of
/// [`check_memory`]'s error): smaller matrices, for one operation.
pub const SMALLER_MATRICES: &str = "Use smaller matrices: WebAssembly in a browser holds at \
     most 4 GiB, and the inputs and the result must all be there.";

/// [`SMALLER_MATRICES`] for a batch of small matrices (at most 32 a side already):
/// fewer of them is what helps.
pub const SMALLER_BATCH: &str = "Use a smaller batch (fewer matrices per call, over several \
     calls if need be): WebAssembly in a browser holds at most 4 GiB, and the whole batch and \
     its results must be there at once.";

/// Refuses a call whose inputs and result cannot be held in WebAssembly memory,
/// naming the bytes needed: SIZE_OVER_LIMIT, with `hint` (e.g. [`SMALLER_MATRICES`]).
pub fn check_memory(what: &str, inputs: &[Shape], result: Shape, hint: &'static str) -> Result<()> {
    let holding = Holding {
        copies: 1.0,
        limit: MAX_CPU_BYTES,
        held: "holding its inputs and result",
        limit_name: "the address space of wasm32",
    };
    check_held(what, inputs, result, holding, hint)
}

/// Room the CPU backend leaves in wasm memory for everything but a call's matrices.
const CPU_HEADROOM_BYTES: f64 = 256.0 * 1024.0 * 1024.0;

/// What one call may hold in wasm memory: its 4 GiB less room for everything else.
pub const MAX_CALL_BYTES: f64 = MAX_CPU_BYTES - CPU_HEADROOM_BYTES;

/// `check_memory` for a call on `backend`. The CPU backend holds its matrices in
/// the same WebAssembly memory as the copies of the inputs: its own copy of each
/// input, and besides the result one more matrix of its size (a pass's target, a
/// heatmap's pixels). Counted only as the inputs and the result, a 15000² product
/// passed the check and then ran out of memory (RuntimeError: unreachable).
pub fn check_memory_on(
    backend: Backend,
    what: &str,
    inputs: &[Shape],
    result: Shape,
    hint: &'static str,
) -> Result<()> {
    match backend {
        Backend::Cpu => {
            let holding = Holding {
                copies: 2.0,
                limit: MAX_CALL_BYTES,
                held: "holding its inputs and result twice over (the CPU backend's own copies)",
                // Not "4 GiB": 4.1e9 bytes refused as over the 4 GiB (4.29e9) made no sense.
                limit_name:
                    "what the CPU backend may hold (wasm32's 4 GiB less 256 MiB for the rest)",
            };
            check_held(what, inputs, result, holding, hint)
        }
        _ => check_memory(what, inputs, result, hint),
    }
}

/// How many copies of a call's matrices a backend holds, against which limit, as a
/// message says them. (`held` is the subject of "needs": "holding its inputs and
/// result", not "its inputs and result", which made "its inputs and result needs".)
struct Holding {
    copies: f64,
    limit: f64,
    held: &'static str,
    limit_name: &'static str,
}

/// Refuses `copies` × (the inputs and the result) past the limit, then any one of
/// them past [`MAX_ARRAY_BYTES`] (a 25000 × 1 by 1 × 25000 product's 2.5 GB result
/// fitted the 4 GiB and then panicked with "capacity overflow").
fn check_held(
    what: &str,
    inputs: &[Shape],
    result: Shape,
    h: Holding,
    hint: &'static str,
) -> Result<()> {
    let floats: f64 = inputs
        .iter()
        .chain([&result])
        .map(|s| s.rows as f64 * s.cols as f64)
        .sum();
    let bytes = floats * 4.0 * h.copies;
    if bytes > h.limit {
        return Err(GpgpuError::DeviceLimit {
            what: format!("{what}: {}", h.held),
            needed: bytes,
            unit: "bytes of WebAssembly memory",
            limit_name: h.limit_name,
            limit: h.limit,
            hint,
        });
    }
    // Within the 4 GiB, still no one array past what wasm32 allocates.
    for s in inputs.iter().chain([&result]) {
        let bytes = s.rows as f64 * s.cols as f64 * 4.0;
        if bytes > MAX_ARRAY_BYTES {
            return Err(GpgpuError::DeviceLimit {
                what: format!("{what}: one {}x{} matrix", s.rows, s.cols),
                needed: bytes,
                unit: "bytes of WebAssembly memory",
                limit_name: "the largest array WebAssembly allocates",
                limit: MAX_ARRAY_BYTES,
                hint: "Use smaller matrices: one matrix (an input or the result) holds at \
                       most 2^29 floats, e.g. a 23170 x 23170 one; compute a larger result \
                       in parts (a block of rows at a time).",
            });
        }
    }
    Ok(())
}

/// A pass plan run on tiled matrices: what [`crate::run::Run`] is for matrices that
/// fit the device whole. Not steppable: it runs to the end and is read once.
pub struct TiledRun {
    kernel: Kernel,
    semiring: Semiring,
    plan: PassPlan,
    shapes: Vec<Shape>,
    slots: Vec<Option<Grid>>,
    tile: usize,
    engine: u64,
    generation: u32,
}

impl TiledRun {
    /// Checks the plan and uploads `inputs` (row-major) as tiles of at most `tile`.
    pub fn new(
        engine: &mut Engine,
        kernel: Kernel,
        semiring: Semiring,
        plan: PassPlan,
        inputs: &[(Shape, &[f32])],
        tile: usize,
    ) -> Result<TiledRun> {
        let input_shapes: Vec<Shape> = inputs.iter().map(|(s, _)| *s).collect();
        let shapes = plan.check(&input_shapes)?;
        let result = match plan.result {
            Some(slot) => shapes[slot],
            None => shapes[0],
        };
        check_memory_on(
            engine.backend(),
            "a tiled product",
            &input_shapes,
            result,
            SMALLER_MATRICES,
        )?;
        for (i, (_, data)) in inputs.iter().enumerate() {
            semiring.check_domain(
                if inputs.len() == 1 {
                    "m"
                } else {
                    ["a", "b"][i.min(1)]
                },
                data,
            )?;
        }
        // The kernel is chosen for a whole tile, the shape most passes have.
        let kernel = engine.choose_kernel(Some(kernel), Shape::square(tile))?;
        engine.ensure()?;
        let mut run = TiledRun {
            kernel,
            semiring,
            plan,
            slots: (0..shapes.len()).map(|_| None).collect(),
            shapes,
            tile,
            engine: engine.id(),
            generation: engine.generation(),
        };
        for (slot, (shape, data)) in inputs.iter().enumerate() {
            match run.upload(engine, *shape, &semiring.prepare(data)) {
                Ok(grid) => run.slots[slot] = Some(grid),
                Err(e) => {
                    run.recycle(engine);
                    return Err(e);
                }
            }
        }
        Ok(run)
    }

    /// The tile side.
    pub fn tile(&self) -> usize {
        self.tile
    }

    /// The kernel of the tile products.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    fn upload(&self, engine: &mut Engine, shape: Shape, data: &[f32]) -> Result<Grid> {
        let (rows, cols) = (pieces(shape.rows, self.tile), pieces(shape.cols, self.tile));
        let mut grid = Grid {
            shape,
            rows: rows.clone(),
            cols: cols.clone(),
            tiles: vec![],
        };
        let pad = self.semiring.zero() as f32;
        for &r in &rows {
            for &c in &cols {
                let piece = cut(data, shape.cols, r, c);
                match engine.upload(Shape::new(r.1, c.1), self.kernel.layout(), &piece, pad) {
                    Ok(m) => grid.tiles.push(m),
                    Err(e) => {
                        grid.recycle(engine);
                        return Err(e);
                    }
                }
            }
        }
        Ok(grid)
    }

    /// Tiles of out = a · b: each tile the semiring sum of its tile products.
    fn product(&self, engine: &mut Engine, a: &Grid, b: &Grid) -> Result<Grid> {
        let mut out = Grid {
            shape: Shape::new(a.shape.rows, b.shape.cols),
            rows: a.rows.clone(),
            cols: b.cols.clone(),
            tiles: vec![],
        };
        for i in 0..a.rows.len() {
            for j in 0..b.cols.len() {
                match self.tile_product(engine, a, b, (i, j)) {
                    Ok(t) => out.tiles.push(t),
                    Err(e) => {
                        out.recycle(engine);
                        return Err(e);
                    }
                }
            }
        }
        Ok(out)
    }

    /// C_ij = A_i0·B_0j ⊕ A_i1·B_1j ⊕ …: each term into a matrix of its own, added
    /// into a fresh sum (a pass may not read the matrix it writes).
    fn tile_product(
        &self,
        engine: &mut Engine,
        a: &Grid,
        b: &Grid,
        (i, j): (usize, usize),
    ) -> Result<Matrix> {
        let shape = Shape::new(a.rows[i].1, b.cols[j].1);
        let layout = self.kernel.layout();
        let (kernel, semiring) = (self.kernel, self.semiring);
        let mut acc = engine.alloc(shape, layout)?;
        let mut temps = vec![];
        let mut done = engine
            .product(kernel, semiring, [a.tile(i, 0), b.tile(0, j), &acc], false)
            .map(|_| ());
        for k in 1..a.cols.len() {
            if done.is_err() {
                break;
            }
            done = (|| {
                let term = engine.alloc(shape, layout)?;
                let r =
                    engine.product(kernel, semiring, [a.tile(i, k), b.tile(k, j), &term], false);
                temps.push(term);
                r?;
                let sum = engine.alloc(shape, layout)?;
                let r = engine.combine(&sum, [&acc, temps.last().expect("term")], semiring);
                temps.push(std::mem::replace(&mut acc, sum));
                r
            })();
            // The pool may hand these out again at once: later passes are ordered
            // after the ones that read them.
            for t in temps.drain(..) {
                engine.recycle(t);
            }
        }
        match done {
            Ok(()) => Ok(acc),
            Err(e) => {
                engine.recycle(acc);
                Err(e)
            }
        }
    }

    fn check_alive(&self, engine: &mut Engine) -> Result<()> {
        if engine.id() != self.engine {
            return Err(GpgpuError::BadArgument {
                name: "run".into(),
                detail: "a tiled run belongs to the Gpgpu that started it".into(),
            });
        }
        if engine.generation() != self.generation {
            return Err(engine.outlived());
        }
        engine.ensure()
    }

    /// Runs every pass of the plan.
    pub fn run_all(&mut self, engine: &mut Engine) -> Result<()> {
        self.check_alive(engine)?;
        for step in self.plan.steps.clone() {
            let (a, b) = step.sources();
            let missing = |s: usize| GpgpuError::BadArgument {
                name: "plan".into(),
                detail: format!("a step uses slot {s}, which holds no matrix"),
            };
            let ga = self.slots[a].as_ref().ok_or_else(|| missing(a))?;
            let gb = self.slots[b].as_ref().ok_or_else(|| missing(b))?;
            let out = self.product(engine, ga, gb)?;
            if let Some(old) = self.slots[step.dst()].replace(out) {
                old.recycle(engine);
            }
        }
        Ok(())
    }

    fn result_grid(&self) -> Option<&Grid> {
        self.plan.result.and_then(|s| self.slots[s].as_ref())
    }

    fn identity(&self) -> Vec<f32> {
        let n = self.shapes[0].rows;
        let id = reference::identity(self.semiring, n)
            .into_iter()
            .map(|v| v as f32)
            .collect();
        self.semiring.decode(id)
    }

    /// Queues the readback of every tile of the result (either backend).
    pub fn read_async(&self, engine: &mut Engine) -> Result<PendingRead> {
        self.check_alive(engine)?;
        let Some(grid) = self.result_grid() else {
            return Ok(PendingRead::ready(self.identity()));
        };
        let mut tiles = vec![];
        for (i, r) in grid.rows.iter().enumerate() {
            for (j, c) in grid.cols.iter().enumerate() {
                let read = crate::engine::read_for_caller(engine, grid.tile(i, j), self.semiring)?;
                tiles.push((read, (r.0, c.0), Shape::new(r.1, c.1)));
            }
        }
        Ok(PendingRead::tiles(grid.shape, tiles))
    }

    /// Returns every tile to the engine's pool (a run of another engine: dropped).
    pub fn recycle(self, engine: &mut Engine) {
        if engine.id() != self.engine {
            return;
        }
        for grid in self.slots.into_iter().flatten() {
            grid.recycle(engine);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal of holding one square of `side` and its result on `backend`.
    fn refusal_of_a_square(backend: Backend, side: usize) -> String {
        let side = Shape::square(side);
        check_memory_on(backend, "this operation", &[side], side, SMALLER_MATRICES)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn the_cpu_limit_is_named_for_what_it_is() {
        // 2 × (16000² + 16000²) floats: 4.096e9 bytes, under 4 GiB but over 4 GiB less 256 MiB.
        let message = refusal_of_a_square(Backend::Cpu, 16000);
        assert!(
            message.contains("needs 3.81 GiB (4,096,000,000 bytes) of WebAssembly memory"),
            "{message}"
        );
        // "its inputs and result needs" did not agree: the subject is the holding.
        assert!(
            message.starts_with("this operation: holding its inputs and result twice over"),
            "{message}"
        );
        assert!(
            message.contains("256 MiB for the rest) of 3.75 GiB (4,026,531,840 bytes)."),
            "{message}"
        );
        assert!(!message.contains("wasm32 of"), "{message}");
        // Other backends hold the whole 4 GiB for the matrices: that one is named so.
        let message = refusal_of_a_square(Backend::WebGl, 33000);
        assert!(
            message.contains("over the address space of wasm32 of 4 GiB (4,294,967,296 bytes)."),
            "{message}"
        );
    }

    #[test]
    fn one_matrix_past_what_wasm32_allocates_is_refused_though_all_fit_in_4_gib() {
        // An outer product: 200 KB of inputs, a 2.5 GB result. It passed (under 4 GiB)
        // and then panicked allocating the result: RuntimeError: unreachable.
        let (a, b) = (Shape::new(25000, 1), Shape::new(1, 25000));
        let out = Shape::new(25000, 25000);
        for backend in [Backend::WebGl, Backend::WebGpu] {
            let err = check_memory_on(backend, "this product", &[a, b], out, SMALLER_MATRICES)
                .unwrap_err();
            assert_eq!(err.code(), "SIZE_OVER_LIMIT");
            let message = err.to_string();
            assert!(message.contains("one 25000x25000 matrix"), "{message}");
            let limit =
                "over the largest array WebAssembly allocates of 2 GiB (2,147,483,647 bytes).";
            assert!(message.contains(limit), "{message}");
        }
        // The largest square that fits one array still passes.
        let side = Shape::square(23170);
        check_memory_on(
            Backend::WebGl,
            "this square",
            &[side],
            side,
            SMALLER_MATRICES,
        )
        .unwrap();
    }
}
