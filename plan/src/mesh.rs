//! Fox's and Cannon's algorithms (the textbook chapter's message-passing products)
//! as data: a q×q mesh of nodes, node (i, j) owning block (i, j) of A, B and C,
//! simulated step by step. Each step says which blocks every node holds after it,
//! which point-to-point messages it sent, and which local block products it does.
//! The GPU part (`blocks::mesh`) runs the products this plan lists, so the plan's
//! bookkeeping is what makes the answer right.
//!
//! n need not be a multiple of q: rows and columns split into q parts as evenly as
//! possible, the first n mod q parts one larger, so blocks differ in size and so do
//! the messages that carry them.

use std::ops::Range;

use crate::error::{js_number, GpgpuError, Result};
use crate::shape::Shape;

/// The largest mesh side: 8×8 = 64 nodes.
pub const MAX_MESH: usize = 8;

/// A node (i, j) of the mesh, or a block (r, c) of a matrix.
pub type Index = [usize; 2];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Broadcast A along rows, roll B up columns.
    Fox,
    /// Skew A and B once, then roll A left and B up.
    Cannon,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Fox => "fox",
            Algorithm::Cannon => "cannon",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Skew,
    Broadcast,
    Multiply,
    Roll,
}

impl StepKind {
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Skew => "skew",
            StepKind::Broadcast => "broadcast",
            StepKind::Multiply => "multiply",
            StepKind::Roll => "roll",
        }
    }
}

/// Which input a message carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    A,
    B,
}

impl Operand {
    pub fn name(self) -> &'static str {
        match self {
            Operand::A => "A",
            Operand::B => "B",
        }
    }
}

/// What a node holds after a step: its blocks of A and of B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hold {
    pub node: Index,
    pub a: Index,
    pub b: Index,
}

/// One point-to-point message: `block` of `matrix` from one node to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub from: Index,
    pub to: Index,
    pub matrix: Operand,
    pub block: Index,
    /// rows × cols × 4 of that block (float32).
    pub bytes: usize,
}

/// C_node += A_a · B_b, done by `node` on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockProduct {
    pub node: Index,
    pub a: Index,
    pub b: Index,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MeshStep {
    pub label: String,
    pub kind: StepKind,
    /// Every node's blocks after the step, row by row.
    pub holds: Vec<Hold>,
    pub messages: Vec<Message>,
    /// The local products (multiply steps only).
    pub products: Vec<BlockProduct>,
}

/// A whole run of one algorithm on an n×n product over a q×q mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPlan {
    pub algorithm: Algorithm,
    pub n: usize,
    pub q: usize,
    /// Where part p starts; part p is offsets[p]..offsets[p + 1].
    offsets: Vec<usize>,
    pub steps: Vec<MeshStep>,
}

/// The mesh side given as a JS number: a whole number from 1 to min(8, n). With
/// n = 0 no q fits, and n is at fault: BAD_DIMENSION naming n, as JavaScript says it.
pub fn mesh_side(value: f64, n: usize) -> Result<usize> {
    crate::shape::dimension("n", n as f64, usize::MAX)?;
    let limit = MAX_MESH.min(n);
    if value.is_finite() && value.fract() == 0.0 && value >= 1.0 && value <= limit as f64 {
        return Ok(value as usize);
    }
    let why = if !value.is_finite() {
        "not a finite number".to_string()
    } else if value.fract() != 0.0 {
        "not a whole number".to_string()
    } else if value < 1.0 {
        "less than 1: the mesh needs at least one node".to_string()
    } else if value > MAX_MESH as f64 {
        format!("more than {MAX_MESH}: the mesh is at most {MAX_MESH}x{MAX_MESH} nodes")
    } else {
        format!("more than n = {n}: every node needs at least one row and one column")
    };
    Err(GpgpuError::BadArgument {
        name: "q".into(),
        detail: format!(
            "is {}, {why}. Use a whole number q from 1 to {limit} (a q x q mesh, \
             q <= {MAX_MESH} and q <= n)",
            js_number(value)
        ),
    })
}

/// Where each of the q parts of 0..n starts (q + 1 offsets, the last n): the first
/// n mod q parts are one longer. q = 0 (no parts to cut n into) is BAD_ARGUMENT.
pub fn partition(n: usize, q: usize) -> Result<Vec<usize>> {
    if q == 0 {
        return Err(GpgpuError::BadArgument {
            name: "q".into(),
            detail: "is 0: n is cut into q parts, so q must be at least 1".into(),
        });
    }
    let (size, longer) = (n / q, n % q);
    Ok((0..=q).map(|p| p * size + p.min(longer)).collect())
}

/// "i", "(i+2) mod 3": how a block index shifted by `k` reads in a label.
fn shifted(base: &str, k: usize, q: usize) -> String {
    if k == 0 {
        base.into()
    } else {
        format!("({base}+{k}) mod {q}")
    }
}

/// The mesh while an algorithm runs: what each node holds, and the steps so far.
struct Mesh {
    q: usize,
    offsets: Vec<usize>,
    /// (A block, B block) held by node (i, j) at i·q + j.
    held: Vec<(Index, Index)>,
    steps: Vec<MeshStep>,
}

impl Mesh {
    fn new(n: usize, q: usize) -> Result<Mesh> {
        let held = (0..q * q)
            .map(|k| ([k / q, k % q], [k / q, k % q]))
            .collect();
        Ok(Mesh {
            q,
            offsets: partition(n, q)?,
            held,
            steps: Vec::new(),
        })
    }

    fn nodes(&self) -> impl Iterator<Item = Index> {
        let q = self.q;
        (0..q * q).map(move |k| [k / q, k % q])
    }

    fn holding(&self, node: Index) -> (Index, Index) {
        self.held[node[0] * self.q + node[1]]
    }

    fn message(&self, from: Index, to: Index, matrix: Operand, block: Index) -> Message {
        let part = |p: usize| self.offsets[p + 1] - self.offsets[p];
        Message {
            from,
            to,
            matrix,
            block,
            bytes: part(block[0]) * part(block[1]) * 4,
        }
    }

    /// Each node sends what it holds of `matrix` to `to(node)` (None: it keeps it).
    /// `to` is a `dyn Fn`: one shift in the wasm, not one per rule (five).
    fn shift(&self, matrix: Operand, to: &dyn Fn(Index) -> Option<Index>) -> Vec<Message> {
        self.nodes()
            .filter_map(|from| {
                let (a, b) = self.holding(from);
                let block = if matrix == Operand::A { a } else { b };
                to(from).map(|to| self.message(from, to, matrix, block))
            })
            .collect()
    }

    /// Delivers the messages all at once (each receiver's block is replaced by the
    /// one it was sent) and records the step.
    fn communicate(&mut self, kind: StepKind, label: String, messages: Vec<Message>) {
        let q = self.q;
        for m in &messages {
            let held = &mut self.held[m.to[0] * q + m.to[1]];
            match m.matrix {
                Operand::A => held.0 = m.block,
                Operand::B => held.1 = m.block,
            }
        }
        self.record(kind, label, messages, Vec::new());
    }

    /// Every node multiplies the blocks it holds into its C.
    fn multiply(&mut self, label: String) {
        let products = self
            .nodes()
            .map(|node| {
                let (a, b) = self.holding(node);
                BlockProduct { node, a, b }
            })
            .collect();
        self.record(StepKind::Multiply, label, Vec::new(), products);
    }

    fn record(
        &mut self,
        kind: StepKind,
        label: String,
        messages: Vec<Message>,
        products: Vec<BlockProduct>,
    ) {
        let holds = self
            .nodes()
            .map(|node| {
                let (a, b) = self.holding(node);
                Hold { node, a, b }
            })
            .collect();
        self.steps.push(MeshStep {
            label,
            kind,
            holds,
            messages,
            products,
        });
    }

    fn into_plan(self, algorithm: Algorithm, n: usize) -> MeshPlan {
        MeshPlan {
            algorithm,
            n,
            q: self.q,
            offsets: self.offsets,
            steps: self.steps,
        }
    }
}

impl MeshPlan {
    /// The run of `algorithm` for an n×n product on a q×q mesh; n = 0 is
    /// `BadDimension`, q outside 1..=min(8, n) `BadArgument`.
    pub fn new(algorithm: Algorithm, n: usize, q: usize) -> Result<MeshPlan> {
        let q = mesh_side(q as f64, n)?;
        let mesh = Mesh::new(n, q)?;
        let mesh = match algorithm {
            Algorithm::Fox => fox(mesh),
            Algorithm::Cannon => cannon(mesh),
        };
        Ok(mesh.into_plan(algorithm, n))
    }

    pub fn fox(n: usize, q: usize) -> Result<MeshPlan> {
        MeshPlan::new(Algorithm::Fox, n, q)
    }

    pub fn cannon(n: usize, q: usize) -> Result<MeshPlan> {
        MeshPlan::new(Algorithm::Cannon, n, q)
    }

    /// The rows (or columns) of part p.
    pub fn part(&self, p: usize) -> Range<usize> {
        self.offsets[p]..self.offsets[p + 1]
    }

    /// The shape of block (r, c) of A, B or C.
    pub fn block_shape(&self, [r, c]: Index) -> Shape {
        Shape::new(self.part(r).len(), self.part(c).len())
    }

    /// Block (r, c) of a row-major n×n matrix, row-major.
    pub fn block(&self, m: &[f32], [r, c]: Index) -> Vec<f32> {
        let cols = self.part(c);
        self.part(r)
            .flat_map(|i| {
                m[i * self.n + cols.start..i * self.n + cols.end]
                    .iter()
                    .copied()
            })
            .collect()
    }

    /// The n×n matrix from its q² blocks (block (r, c) at r·q + c, each row-major).
    pub fn assemble(&self, blocks: &[Vec<f32>]) -> Vec<f32> {
        let n = self.n;
        let mut m = vec![0.0; n * n];
        for (k, block) in blocks.iter().enumerate() {
            let (rows, cols) = (self.part(k / self.q), self.part(k % self.q));
            for (row, i) in block.chunks_exact(cols.len()).zip(rows) {
                m[i * n + cols.start..i * n + cols.end].copy_from_slice(row);
            }
        }
        m
    }

    /// Every local product, in the order the multiply steps do them.
    pub fn products(&self) -> impl Iterator<Item = &BlockProduct> {
        self.steps.iter().flat_map(|s| &s.products)
    }

    pub fn messages(&self) -> usize {
        self.steps.iter().map(|s| s.messages.len()).sum()
    }

    pub fn bytes(&self) -> usize {
        self.steps
            .iter()
            .flat_map(|s| &s.messages)
            .map(|m| m.bytes)
            .sum()
    }

    pub fn block_products(&self) -> usize {
        self.steps.iter().map(|s| s.products.len()).sum()
    }
}

/// Fox: at stage k node (i, (i+k) mod q) broadcasts its own A block along row i,
/// every node multiplies it by the B it holds, and B rolls up one node.
fn fox(mut mesh: Mesh) -> Mesh {
    let q = mesh.q;
    for k in 0..q {
        let diagonal = shifted("i", k, q);
        if q > 1 {
            // The root sends the A block it owns, whichever A it used last stage.
            let roots: Vec<Index> = (0..q).map(|i| [i, (i + k) % q]).collect();
            let messages = roots
                .iter()
                .flat_map(|&root| {
                    (0..q)
                        .filter(move |&j| j != root[1])
                        .map(move |j| (root, [root[0], j]))
                })
                .map(|(root, to)| mesh.message(root, to, Operand::A, root))
                .collect();
            let label = format!(
                "stage {k}: node (i, {diagonal}) broadcasts its A(i, {diagonal}) along row i"
            );
            for root in roots {
                mesh.held[root[0] * q + root[1]].0 = root;
            }
            mesh.communicate(StepKind::Broadcast, label, messages);
        }
        mesh.multiply(format!(
            "stage {k}: C(i, j) += A(i, {diagonal}) · B({diagonal}, j)"
        ));
        if k + 1 < q {
            let messages = mesh.shift(Operand::B, &|[i, j]| Some([(i + q - 1) % q, j]));
            let label =
                format!("stage {k}: B rolls up: node (i, j) sends its B to (i-1 mod {q}, j)");
            mesh.communicate(StepKind::Roll, label, messages);
        }
    }
    mesh
}

/// Cannon: skew row i of A left by i and column j of B up by j, so node (i, j)
/// holds A(i, i+j) and B(i+j, j); then multiply and roll A left and B up, q times.
fn cannon(mut mesh: Mesh) -> Mesh {
    let q = mesh.q;
    if q > 1 {
        let mut messages = mesh.shift(Operand::A, &|[i, j]| {
            (i > 0).then_some([i, (j + q - i) % q])
        });
        messages.extend(mesh.shift(Operand::B, &|[i, j]| {
            (j > 0).then_some([(i + q - j) % q, j])
        }));
        let label = "skew: row i of A shifts left by i, column j of B up by j".to_string();
        mesh.communicate(StepKind::Skew, label, messages);
    }
    for k in 0..q {
        // i+j itself passes q − 1 (node (q−1, q−1)): it wraps at stage 0 too.
        let index = if k == 0 {
            format!("(i+j) mod {q}")
        } else {
            shifted("i+j", k, q)
        };
        mesh.multiply(format!(
            "stage {k}: C(i, j) += A(i, {index}) · B({index}, j)"
        ));
        if k + 1 < q {
            let mut messages = mesh.shift(Operand::A, &|[i, j]| Some([i, (j + q - 1) % q]));
            messages.extend(mesh.shift(Operand::B, &|[i, j]| Some([(i + q - 1) % q, j])));
            let label = format!("stage {k}: A rolls left and B rolls up by one node");
            mesh.communicate(StepKind::Roll, label, messages);
        }
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random;
    use crate::reference::{multiply, to_f64};
    use crate::semiring::Semiring;

    /// Every (n, q) the tests run: q = 1..8 on n from q up, multiples of q and not.
    fn cases() -> impl Iterator<Item = (usize, usize)> {
        (1..=MAX_MESH).flat_map(|q| {
            [1, 2, 3, 7, 8, 10, 16, 17, 33]
                .into_iter()
                .filter(move |&n| n >= q)
                .map(move |n| (n, q))
        })
    }

    fn plans() -> impl Iterator<Item = MeshPlan> {
        cases().flat_map(|(n, q)| {
            [
                MeshPlan::fox(n, q).unwrap(),
                MeshPlan::cannon(n, q).unwrap(),
            ]
        })
    }

    #[test]
    fn parts_are_as_even_as_possible_and_cover_n() {
        assert_eq!(partition(10, 3).unwrap(), [0, 4, 7, 10]);
        assert_eq!(partition(16, 8).unwrap(), [0, 2, 4, 6, 8, 10, 12, 14, 16]);
        assert_eq!(partition(3, 3).unwrap(), [0, 1, 2, 3]);
        for (n, q) in cases() {
            let offsets = partition(n, q).unwrap();
            let sizes: Vec<usize> = offsets.windows(2).map(|w| w[1] - w[0]).collect();
            assert_eq!(offsets[q], n);
            assert!(sizes.iter().all(|&s| s == n / q || s == n / q + 1));
            // The longer parts come first.
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{n} {q}: {sizes:?}");
        }
    }

    #[test]
    fn message_counts_follow_the_formulas() {
        for plan in plans() {
            let q = plan.q;
            let want = match plan.algorithm {
                Algorithm::Fox => 2 * q * q * (q - 1),
                Algorithm::Cannon => 2 * q * (q - 1) + 2 * q * q * (q - 1),
            };
            assert_eq!(plan.messages(), want, "{plan:?}");
            assert_eq!(plan.block_products(), q * q * q);
            let multiplies = plan.steps.iter().filter(|s| s.kind == StepKind::Multiply);
            assert_eq!(multiplies.count(), q);
            let count = |kind| plan.steps.iter().filter(|s| s.kind == kind).count();
            assert_eq!(count(StepKind::Roll), q - 1);
            match plan.algorithm {
                Algorithm::Fox => {
                    assert_eq!(count(StepKind::Broadcast), if q > 1 { q } else { 0 });
                    assert_eq!(count(StepKind::Skew), 0);
                }
                Algorithm::Cannon => {
                    assert_eq!(count(StepKind::Skew), (q > 1) as usize);
                    assert_eq!(count(StepKind::Broadcast), 0);
                }
            }
            for step in &plan.steps {
                let per_step = match (plan.algorithm, step.kind) {
                    (_, StepKind::Multiply) => 0,
                    (Algorithm::Fox, StepKind::Broadcast) => q * (q - 1),
                    (Algorithm::Fox, StepKind::Roll) => q * q,
                    (Algorithm::Cannon, StepKind::Skew) => 2 * q * (q - 1),
                    (Algorithm::Cannon, StepKind::Roll) => 2 * q * q,
                    other => panic!("no {other:?} step expected"),
                };
                assert_eq!(step.messages.len(), per_step, "{}", step.label);
            }
        }
    }

    #[test]
    fn cannon_labels_wrap_the_block_index_at_every_stage() {
        // Node (2, 2) of a 3x3 mesh multiplies A(2, 1) at stage 0: i+j = 4, wrapped.
        let plan = MeshPlan::cannon(6, 3).unwrap();
        let multiplies: Vec<&MeshStep> = plan
            .steps
            .iter()
            .filter(|s| s.kind == StepKind::Multiply)
            .collect();
        assert_eq!(
            multiplies[0].label,
            "stage 0: C(i, j) += A(i, (i+j) mod 3) · B((i+j) mod 3, j)"
        );
        assert_eq!(
            multiplies[1].label,
            "stage 1: C(i, j) += A(i, (i+j+1) mod 3) · B((i+j+1) mod 3, j)"
        );
        let p = multiplies[0].products.iter().find(|p| p.node == [2, 2]);
        assert_eq!(p.map(|p| (p.a, p.b)), Some(([2, 1], [1, 2])));
    }

    #[test]
    fn one_node_multiplies_once_and_sends_nothing() {
        for n in [1, 5] {
            for plan in [
                MeshPlan::fox(n, 1).unwrap(),
                MeshPlan::cannon(n, 1).unwrap(),
            ] {
                assert_eq!(plan.steps.len(), 1);
                assert_eq!(plan.steps[0].kind, StepKind::Multiply);
                assert_eq!((plan.messages(), plan.bytes()), (0, 0));
            }
        }
    }

    #[test]
    fn bytes_are_the_blocks_sizes_summed_over_messages() {
        for plan in plans() {
            let mut total = 0;
            for m in plan.steps.iter().flat_map(|s| &s.messages) {
                let [r, c] = m.block;
                assert_eq!(m.bytes, plan.part(r).len() * plan.part(c).len() * 4);
                assert_ne!(m.from, m.to, "a message to itself");
                total += m.bytes;
            }
            assert_eq!(plan.bytes(), total);
        }
        // n = 10, q = 3: parts 4, 3, 3. Fox's stage 0 broadcasts A00 (4x4), A11 and
        // A22 (3x3) twice each.
        let fox = MeshPlan::fox(10, 3).unwrap();
        assert_eq!(fox.steps[0].kind, StepKind::Broadcast);
        let stage0: usize = fox.steps[0].messages.iter().map(|m| m.bytes).sum();
        assert_eq!(stage0, 2 * (16 + 9 + 9) * 4);
        // Over the whole run every block of A goes to q − 1 nodes and every block of
        // B moves q − 1 times: (q − 1)·4·(n² + n²) bytes.
        assert_eq!(fox.bytes(), 2 * 2 * 4 * 100);
    }

    #[test]
    fn each_step_moves_blocks_only_through_messages() {
        for plan in plans() {
            let q = plan.q;
            let mut before: Vec<Hold> = (0..q * q)
                .map(|k| Hold {
                    node: [k / q, k % q],
                    a: [k / q, k % q],
                    b: [k / q, k % q],
                })
                .collect();
            for step in &plan.steps {
                assert_eq!(step.holds.len(), q * q);
                for (h, old) in step.holds.iter().zip(&before) {
                    let got = |matrix| {
                        let into: Vec<&Message> = step
                            .messages
                            .iter()
                            .filter(|m| m.to == h.node && m.matrix == matrix)
                            .collect();
                        assert!(into.len() <= 1, "{}: two blocks into one node", step.label);
                        into.first().map(|m| m.block)
                    };
                    // A Fox root uses the A block it owns without sending it to itself.
                    let own = (step.kind == StepKind::Broadcast && h.a == h.node).then_some(h.node);
                    assert_eq!(
                        h.a,
                        got(Operand::A).or(own).unwrap_or(old.a),
                        "{}",
                        step.label
                    );
                    assert_eq!(h.b, got(Operand::B).unwrap_or(old.b), "{}", step.label);
                }
                for m in &step.messages {
                    let sender = &before[m.from[0] * q + m.from[1]];
                    let sent = match (step.kind, m.matrix) {
                        (StepKind::Broadcast, _) => m.from, // its own block
                        (_, Operand::A) => sender.a,
                        (_, Operand::B) => sender.b,
                    };
                    assert_eq!(
                        m.block, sent,
                        "{}: sent a block it does not hold",
                        step.label
                    );
                }
                before = step.holds.clone();
            }
        }
    }

    #[test]
    fn every_node_multiplies_a_ik_by_b_kj_once_for_every_k() {
        for plan in plans() {
            let q = plan.q;
            for i in 0..q {
                for j in 0..q {
                    let mut ks: Vec<usize> = plan
                        .products()
                        .filter(|p| p.node == [i, j])
                        .map(|p| {
                            assert_eq!((p.a[0], p.b[1]), (i, j), "{p:?}");
                            assert_eq!(p.a[1], p.b[0], "{p:?}: inner blocks differ");
                            p.a[1]
                        })
                        .collect();
                    ks.sort();
                    assert_eq!(ks, (0..q).collect::<Vec<_>>(), "node ({i}, {j})");
                }
            }
            // Each multiply step's products are the holds of that step.
            for s in plan.steps.iter().filter(|s| s.kind == StepKind::Multiply) {
                for (p, h) in s.products.iter().zip(&s.holds) {
                    assert_eq!((p.node, p.a, p.b), (h.node, h.a, h.b));
                }
            }
        }
    }

    #[test]
    fn fox_uses_the_diagonal_shifted_by_the_stage() {
        let plan = MeshPlan::fox(7, 3).unwrap();
        let multiplies: Vec<&MeshStep> = plan
            .steps
            .iter()
            .filter(|s| s.kind == StepKind::Multiply)
            .collect();
        for (k, step) in multiplies.iter().enumerate() {
            for h in &step.holds {
                let [i, j] = h.node;
                assert_eq!(h.a, [i, (i + k) % 3]);
                assert_eq!(h.b, [(i + k) % 3, j]);
            }
        }
        let kinds: Vec<&str> = plan.steps.iter().map(|s| s.kind.name()).collect();
        let stage = ["broadcast", "multiply", "roll"];
        assert_eq!(kinds, [&stage[..], &stage[..], &stage[..2]].concat());
    }

    #[test]
    fn cannon_holds_after_the_skew_are_a_i_i_plus_j_and_b_i_plus_j_j() {
        for (n, q) in cases().filter(|&(_, q)| q > 1) {
            let plan = MeshPlan::cannon(n, q).unwrap();
            let skew = &plan.steps[0];
            assert_eq!(skew.kind, StepKind::Skew);
            for step in [skew, &plan.steps[1]] {
                for h in &step.holds {
                    let [i, j] = h.node;
                    assert_eq!(h.a, [i, (i + j) % q], "{}", step.label);
                    assert_eq!(h.b, [(i + j) % q, j], "{}", step.label);
                }
            }
            assert_eq!(plan.steps[1].kind, StepKind::Multiply);
        }
    }

    #[test]
    fn blocks_multiplied_as_planned_give_a_times_b() {
        // The GPU does exactly this with each block product (blocks::mesh).
        for plan in plans().filter(|p| p.n <= 17) {
            let n = plan.n;
            let a = random::integers(1, n * n, -3, 3);
            let b = random::integers(2, n * n, -3, 3);
            let mut c: Vec<Vec<f64>> = (0..plan.q * plan.q)
                .map(|k| vec![0.0; plan.block_shape([k / plan.q, k % plan.q]).len()])
                .collect();
            for p in plan.products() {
                let (sa, sb) = (plan.block_shape(p.a), plan.block_shape(p.b));
                let (ba, bb) = (to_f64(&plan.block(&a, p.a)), to_f64(&plan.block(&b, p.b)));
                let prod = multiply(Semiring::Ordinary, sa.rows, sa.cols, sb.cols, &ba, &bb);
                let acc = &mut c[p.node[0] * plan.q + p.node[1]];
                acc.iter_mut().zip(prod).for_each(|(x, y)| *x += y);
            }
            let blocks: Vec<Vec<f32>> = c
                .iter()
                .map(|b| b.iter().map(|&v| v as f32).collect())
                .collect();
            let want = multiply(Semiring::Ordinary, n, n, n, &to_f64(&a), &to_f64(&b));
            assert_eq!(to_f64(&plan.assemble(&blocks)), want, "{plan:?}");
        }
    }

    #[test]
    fn blocks_cut_and_assemble_back() {
        let plan = MeshPlan::cannon(10, 3).unwrap();
        let m: Vec<f32> = (0..100).map(|v| v as f32).collect();
        assert_eq!(plan.block(&m, [0, 0])[..5], [0.0, 1.0, 2.0, 3.0, 10.0]);
        assert_eq!(
            plan.block(&m, [2, 1]),
            [74.0, 75.0, 76.0, 84.0, 85.0, 86.0, 94.0, 95.0, 96.0]
        );
        assert_eq!(plan.block_shape([0, 2]), Shape::new(4, 3));
        let blocks: Vec<Vec<f32>> = (0..9).map(|k| plan.block(&m, [k / 3, k % 3])).collect();
        assert_eq!(plan.assemble(&blocks), m);
    }

    #[test]
    fn q_must_be_a_whole_number_from_1_to_8_and_at_most_n() {
        assert_eq!(mesh_side(1.0, 1), Ok(1));
        assert_eq!(mesh_side(8.0, 16), Ok(8));
        assert_eq!(mesh_side(3.0, 3), Ok(3));
        for (q, n, says) in [
            (0.0, 4, "less than 1"),
            (-2.0, 4, "less than 1"),
            (9.0, 16, "more than 8"),
            (4.0, 3, "more than n = 3"),
            (1.5, 4, "not a whole number"),
            (f64::NAN, 4, "not a finite number"),
            (f64::INFINITY, 4, "not a finite number"),
        ] {
            let e = mesh_side(q, n).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT");
            let msg = e.to_string();
            assert!(msg.starts_with("q: is ") && msg.contains(says), "{msg}");
            let limit = n.min(MAX_MESH);
            assert!(msg.contains(&format!("from 1 to {limit}")), "{msg}");
        }
        assert!(MeshPlan::fox(3, 4).is_err() && MeshPlan::cannon(0, 1).is_err());
    }

    #[test]
    fn zero_parts_are_an_error_not_a_division_by_zero() {
        let e = partition(4, 0).unwrap_err();
        assert_eq!(e.code(), "BAD_ARGUMENT");
        assert!(e.to_string().starts_with("q: is 0"), "{e}");
        assert_eq!(partition(0, 2).unwrap(), [0, 0, 0]);
    }

    #[test]
    fn n_zero_is_blamed_on_n_not_on_q() {
        // fox(0, 1) said "q: is 1, more than n = 0": q was fine, n was not.
        for e in [
            MeshPlan::fox(0, 1).unwrap_err(),
            MeshPlan::cannon(0, 3).unwrap_err(),
            mesh_side(1.0, 0).unwrap_err(),
        ] {
            assert_eq!(e.code(), "BAD_DIMENSION");
            assert_eq!(
                e.to_string(),
                "n = 0: a dimension must be a whole number >= 1."
            );
        }
    }
}
