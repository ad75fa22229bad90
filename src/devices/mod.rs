//! Several devices at once (the course report's two-GPU split): the rows of A and
//! C are split among engines (any mix of WebGL, WebGPU adapters and the CPU) at
//! given ratios, each part is a plain product on its engine, all started at once
//! and awaited together, and C is assembled in row order. `Ratios::Auto` balances
//! by each device's measured throughput, refined after every run ([`plan::Balance`]).

pub mod plan;

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use wasm_bindgen::prelude::*;

use crate::blocks::grid;
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::shape;
use crate::work::{self, Options};
use plan::Balance;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// How rows are shared.
#[derive(Clone, Debug, PartialEq)]
pub enum Ratios {
    /// One number ≥ 0 per device (not all 0): device i gets `ratios[i] / Σ ratios` of the rows.
    Given(Vec<f64>),
    /// Proportional to each device's measured throughput, refined after each run.
    Auto,
}

/// One device's part of a split product.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub backend: Backend,
    /// Rows of C it computed (0: it sat this one out).
    pub rows: usize,
    /// From the common start to its part's arrival, ms (uploads, the product and
    /// the readback; 0 with no rows).
    pub ms: f64,
}

/// A split product's result and its report (the course report's table row).
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// C, rows×cols, row-major.
    pub c: Vec<f32>,
    pub parts: Vec<Part>,
    /// From the start to C assembled, ms.
    pub total_ms: f64,
    /// The ratios used (normalised to add up to 1).
    pub ratios: Vec<f64>,
}

/// Several engines that share products.
pub struct Devices {
    handles: Vec<(Handle, Backend)>,
    balance: RefCell<Balance>,
}

impl Devices {
    /// At least one engine; each is held weakly (freeing one makes its parts FREED).
    pub fn new(engines: Vec<(Handle, Backend)>) -> Result<Devices> {
        if engines.is_empty() {
            return Err(GpgpuError::BadArgument {
                name: "devices".into(),
                detail: "is empty; give one Gpgpu or more".into(),
            });
        }
        let n = engines.len();
        Ok(Devices {
            handles: engines,
            balance: RefCell::new(Balance::new(n)),
        })
    }

    pub fn len(&self) -> usize {
        self.handles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    pub fn backends(&self) -> Vec<Backend> {
        self.handles.iter().map(|(_, b)| *b).collect()
    }

    /// The ratios 'auto' would use now (equal before the first run; see
    /// [`Balance::ratios`]), with a device freed since it was given none.
    pub fn auto_ratios(&self) -> Vec<f64> {
        let ratios = self
            .auto_over(&self.freed())
            .unwrap_or_else(|_| self.balance.borrow().ratios());
        plan::shares(&ratios)
    }

    /// Which devices were freed.
    fn freed(&self) -> Vec<bool> {
        self.handles.iter().map(|(h, _)| !h.alive()).collect()
    }

    /// The ratios 'auto' uses among the devices not `left_out`: what the balance
    /// says, or where that gives every row to a device left out, the proportional
    /// split. FREED where every device is left out.
    fn auto_over(&self, left_out: &[bool]) -> Result<Vec<f64>> {
        let balance = self.balance.borrow();
        let over = |ratios: Vec<f64>| -> Vec<f64> {
            let kept = ratios.iter().zip(left_out);
            kept.map(|(&r, &out)| if out { 0.0 } else { r }).collect()
        };
        [balance.ratios(), balance.proportional()]
            .into_iter()
            .map(over)
            .find(|r| r.iter().any(|&r| r > 0.0))
            .ok_or_else(|| self.freed_before(0))
    }

    fn freed_before(&self, i: usize) -> GpgpuError {
        GpgpuError::FreedBefore {
            what: format!("devices[{i}] (backend '{}')", self.handles[i].1.name()),
        }
    }

    /// C = A·B with C's rows split among the devices at `ratios`; every part is
    /// started before any is awaited. Each run (given ratios too) refines the
    /// throughput estimates 'auto' uses. 'auto' leaves out a device that was freed,
    /// and one whose part fails because its GPU or Gpgpu went during the call (lost,
    /// freed, no replacement), running the product again on the others; given
    /// ratios that give such a device rows fail with its error.
    pub async fn multiply_split(
        &self,
        [rows, inner, cols]: [usize; 3],
        a: &[f32],
        b: &[f32],
        ratios_choice: &Ratios,
        options: &Options,
    ) -> Result<Split> {
        // As multiplySplitAsync reads them: a zero size is BAD_DIMENSION here too.
        for (name, v) in [("rows", rows), ("inner", inner), ("cols", cols)] {
            shape::dimension(name, v as f64, usize::MAX)?;
        }
        let [sa, sb, out] = shape::product_shapes([rows, inner, cols], a.len(), b.len())?;
        // C is assembled here, in one array: past what one holds, the parts all ran
        // and then the assembly panicked ("capacity overflow" for an outer product of
        // two 23200-long vectors, whose parts of 1.08 GB each fit).
        grid::check_memory("this split product", &[sa, sb], out, grid::SMALLER_MATRICES)?;
        let auto = *ratios_choice == Ratios::Auto;
        let mut left_out = match auto {
            true => self.freed(),
            false => vec![false; self.len()],
        };
        let start = performance_now();
        let (split, ratios, done) = loop {
            let ratios = match ratios_choice {
                Ratios::Given(r) if r.len() != self.len() => {
                    return Err(GpgpuError::BadArgument {
                        name: "options.ratios".into(),
                        detail: format!(
                            "has {} for {} devices; give one number per device, or 'auto'",
                            plural(r.len(), "number"),
                            self.len()
                        ),
                    })
                }
                Ratios::Given(r) => r.clone(),
                Ratios::Auto => self.auto_over(&left_out)?,
            };
            let split = plan::split_rows(rows, &ratios)?;
            // A device freed before this call says so, by its place in the list (not
            // as work cut short while running).
            let mut parts = self.handles.iter().zip(&split).enumerate();
            if let Some((i, _)) = parts.find(|(_, ((h, _), &n))| n > 0 && !h.alive()) {
                return Err(self.freed_before(i));
            }
            let done = self
                .run_parts([inner, cols], a, b, &split, options, start)
                .await;
            let gone: Vec<usize> = (0..done.len())
                .filter(|&i| matches!(&done[i], Err(e) if device_gone(e)))
                .collect();
            let others_left = (0..self.len()).any(|i| !left_out[i] && !gone.contains(&i));
            if !auto || gone.is_empty() || !others_left {
                break (split, ratios, done);
            }
            gone.iter().for_each(|&i| left_out[i] = true);
        };
        // Asked for without aborting: the parts' results are in wasm memory beside it.
        let mut c = crate::error::room(rows * cols, || {
            format!("the {rows}x{cols} result of a split product")
        })?;
        let mut report = Vec::with_capacity(done.len());
        for (((_, backend), &n), part) in self.handles.iter().zip(&split).zip(done) {
            let (piece, ms) = part?;
            c.extend_from_slice(&piece);
            report.push(Part {
                backend: *backend,
                rows: n,
                ms,
            });
        }
        let total_ms = performance_now() - start;
        // In f64: a usize product of three sizes wraps on wasm32 from 2^32 multiply-adds.
        let work: Vec<f64> = split
            .iter()
            .map(|&n| n as f64 * inner as f64 * cols as f64)
            .collect();
        let ms: Vec<f64> = report.iter().map(|p| p.ms).collect();
        self.balance.borrow_mut().update(&work, &ms, total_ms, auto);
        Ok(Split {
            c,
            parts: report,
            total_ms,
            ratios: plan::shares(&ratios),
        })
    }

    /// Every device's part (`split[i]` rows of A from the top, in order), all started
    /// before any is awaited: each part's rows of C and its ms since `start`.
    async fn run_parts(
        &self,
        [inner, cols]: [usize; 2],
        a: &[f32],
        b: &[f32],
        split: &[usize],
        options: &Options,
        start: f64,
    ) -> Vec<Result<(Vec<f32>, f64)>> {
        let mut first = 0;
        let parts: Vec<_> = self
            .handles
            .iter()
            .zip(split)
            .map(|((handle, _), &n)| {
                let a_part = &a[first * inner..(first + n) * inner];
                first += n;
                async move {
                    if n == 0 {
                        return Ok((Vec::new(), 0.0));
                    }
                    let c = product_on(handle, [n, inner, cols], a_part, b, options).await?;
                    Ok((c, performance_now() - start))
                }
            })
            .collect();
        join_all(parts).await
    }
}

/// Whether a part failed because its device went (its Gpgpu freed, its WebGPU
/// device lost with or without a replacement, its WebGL context lost), not because
/// of the product: 'auto' then runs it on the others.
fn device_gone(e: &GpgpuError) -> bool {
    matches!(
        e.code(),
        "FREED" | "DEVICE_LOST" | "NO_WEBGPU" | "CONTEXT_LOST"
    )
}

/// A plain product on one engine, as `multiply_async` runs it.
async fn product_on(
    handle: &Handle,
    dims: [usize; 3],
    a: &[f32],
    b: &[f32],
    options: &Options,
) -> Result<Vec<f32>> {
    handle.ready().await?;
    let pending = handle.with(|e| {
        let work = work::begin_product(e, dims, a, b, options)?;
        work::finish_work_async(e, work)
    })?;
    pending.wait().await
}

/// Polls every future until all are done; their outputs in order.
async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut out: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, o) in futures.iter_mut().zip(out.iter_mut()) {
            if o.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *o = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        match pending {
            true => Poll::Pending,
            false => Poll::Ready(()),
        }
    })
    .await;
    out.into_iter()
        .map(|o| o.expect("every future is done"))
        .collect()
}

/// "1 number", "2 numbers".
fn plural(count: usize, what: &str) -> String {
    format!("{count} {what}{}", if count == 1 { "" } else { "s" })
}
