//! Independent CPU references for the graph applications: breadth-first search
//! from every vertex (reachability) and Floyd–Warshall in float64 (shortest paths).

use std::collections::VecDeque;

/// `R[i][j]` = 1 when j can be reached from i by zero or more edges (`A[i][j] != 0`
/// is an edge i → j), by a BFS from every vertex.
pub fn bfs_reachability(n: usize, adjacency: &[f32]) -> Vec<f32> {
    let edges: Vec<Vec<usize>> = (0..n)
        .map(|u| (0..n).filter(|&v| adjacency[u * n + v] != 0.0).collect())
        .collect();
    let mut r = vec![0f32; n * n];
    for start in 0..n {
        let seen = &mut r[start * n..(start + 1) * n];
        let mut queue = VecDeque::from([start]);
        seen[start] = 1.0;
        while let Some(u) = queue.pop_front() {
            for &v in &edges[u] {
                if seen[v] == 0.0 {
                    seen[v] = 1.0;
                    queue.push_back(v);
                }
            }
        }
    }
    r
}

/// All-pairs shortest path lengths; `f64::INFINITY` marks no edge / unreachable.
pub fn floyd_warshall(n: usize, weights: &[f64]) -> Vec<f64> {
    let mut d = weights.to_vec();
    for i in 0..n {
        d[i * n + i] = d[i * n + i].min(0.0);
    }
    for k in 0..n {
        for i in 0..n {
            let dik = d[i * n + k];
            if dik == f64::INFINITY {
                continue;
            }
            for j in 0..n {
                let via = dik + d[k * n + j];
                if via < d[i * n + j] {
                    d[i * n + j] = via;
                }
            }
        }
    }
    d
}

/// ⌈log2(n − 1)⌉: squarings that take paths of one edge to paths of n − 1 edges.
pub fn squarings_for_paths(n: usize) -> u32 {
    if n <= 2 {
        return 0; // one edge already reaches everything on two vertices
    }
    usize::BITS - (n - 2).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squarings_cover_n_minus_one_edges() {
        for n in 1..300usize {
            let t = squarings_for_paths(n);
            assert!((1usize << t) >= n.saturating_sub(1), "n = {n}");
            assert!(
                t == 0 || (1usize << (t - 1)) < n - 1,
                "n = {n}: {t} is not the least"
            );
        }
        assert_eq!(squarings_for_paths(1024), 10);
        assert_eq!(squarings_for_paths(1025), 10);
        assert_eq!(squarings_for_paths(1026), 11);
    }

    #[test]
    fn bfs_on_a_path_and_floyd_warshall_on_a_triangle() {
        // 0 -> 1 -> 2
        let a = [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        assert_eq!(
            bfs_reachability(3, &a),
            [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]
        );
        let x = f64::INFINITY;
        let w = [0.0, 4.0, 1.0, x, 0.0, x, x, 2.0, 0.0];
        assert_eq!(
            floyd_warshall(3, &w),
            [0.0, 3.0, 1.0, x, 0.0, x, x, 2.0, 0.0]
        );
    }
}
