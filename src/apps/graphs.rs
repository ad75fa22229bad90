//! Graph reachability by boolean squaring and all-pairs shortest paths by
//! (min, +) squaring: R = b[(I + A)^(n−1)] and D = W^(n−1), each in
//! ⌈log2(n − 1)⌉ squarings on the GPU.

use crate::apps::{run_plan, square_input};
use crate::engine::Handle;
use crate::error::Result;
use crate::plan::graphs::squarings_for_paths;
use crate::plan::passes;
use crate::plan::semiring::{Semiring, NO_EDGE};
use crate::work::Options;

/// What [`reachability`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Reachability {
    /// `R[i][j]` = 1 when j is reachable from i (every vertex reaches itself).
    pub matrix: Vec<f32>,
    /// Every vertex reaches every other: R is all ones (strongly connected when
    /// the graph is directed).
    pub connected: bool,
    /// Boolean squarings run: ⌈log2(n − 1)⌉.
    pub squarings: u32,
}

/// `m` squared ⌈log2(n − 1)⌉ times in `semiring` (its paths of up to n − 1 edges),
/// and that count.
async fn paths(
    g: &Handle,
    n: usize,
    m: &[f32],
    semiring: Semiring,
    options: &Options,
) -> Result<(Vec<f32>, u32)> {
    let squarings = squarings_for_paths(n);
    let options = Options {
        semiring,
        ..*options
    };
    let plan = passes::repeated_square(squarings as u64)?;
    Ok((run_plan(g, n, m, plan, &options).await?, squarings))
}

/// Reachability of the graph with adjacency matrix `adjacency` (nonzero = edge i → j).
pub async fn reachability(
    g: &Handle,
    n: usize,
    adjacency: &[f32],
    options: &Options,
) -> Result<Reachability> {
    let n = square_input(g, n, "adjacency", adjacency)?;
    let mut m: Vec<f32> = adjacency.iter().map(|&v| (v != 0.0) as u8 as f32).collect();
    for i in 0..n {
        m[i * n + i] = 1.0; // I + A: paths of length zero
    }
    let (matrix, squarings) = paths(g, n, &m, Semiring::Boolean, options).await?;
    let connected = matrix.iter().all(|&v| v == 1.0);
    Ok(Reachability {
        matrix,
        connected,
        squarings,
    })
}

/// What [`shortest_paths`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct ShortestPaths {
    /// Shortest path lengths; `f32::INFINITY` where there is no path.
    pub distances: Vec<f32>,
    /// (min, +) squarings run: ⌈log2(n − 1)⌉.
    pub squarings: u32,
    /// Some vertex lies on a negative cycle (distances are then meaningless).
    pub negative_cycle: bool,
}

/// All-pairs shortest paths. `weights[i][j]` is the length of edge i → j; no edge is
/// `+Infinity` (or anything >= NO_EDGE / 2). On the GPU "no edge" is the finite
/// `NO_EDGE` = 1e30, since GLSL ES promises no IEEE infinity; |weights| · n must stay
/// well below 1e29. The diagonal counts as 0 unless it is negative.
pub async fn shortest_paths(
    g: &Handle,
    n: usize,
    weights: &[f32],
    options: &Options,
) -> Result<ShortestPaths> {
    let n = square_input(g, n, "weights", weights)?;
    Semiring::MinPlus.check_domain("weights", weights)?;
    let mut w = Semiring::MinPlus.prepare(weights).into_owned();
    for i in 0..n {
        w[i * n + i] = w[i * n + i].min(0.0);
    }
    let (d, squarings) = paths(g, n, &w, Semiring::MinPlus, options).await?;
    // D (with +Inf for no path, as read back) holds paths of up to n − 1 edges; a negative cycle through i shows as a
    // path i → j plus the edge j → i of negative total (an O(n²) check on the CPU).
    let negative_cycle = (0..n).any(|i| {
        (0..n).any(|j| {
            w[j * n + i] < 0.5 * NO_EDGE
                && d[i * n + j] < 0.5 * NO_EDGE
                && d[i * n + j] + w[j * n + i] < 0.0
        })
    });
    Ok(ShortestPaths {
        distances: d,
        squarings,
        negative_cycle,
    })
}
