//! The applications of matrix powers, for JavaScript (see `apps`). Each reads its
//! arguments into a job once; the blocking form runs the job at once (WebGL), the
//! Async form returns a Promise of it (either backend). Each returns a plain
//! object; errors are the same `GpgpuError`s as everywhere.

use js_sys::{Array, Float32Array, Float64Array, Object, Promise};
use wasm_bindgen::prelude::*;

use crate::apps::eigen::{self, EigenPair};
use crate::apps::fibonacci;
use crate::apps::graphs;
use crate::apps::inverse::{self, InverseMethod, Stopping};
use crate::apps::jacobi::{self, JacobiSettings, MAX_ITERATIONS};
use crate::error::{GpgpuError, Result};
use crate::js::args::{
    count_option, matrix_arg, matrix_pair, number_arg, number_option, objects, options_with,
    positive_option, set, string_option,
};
use crate::js::{pair, JsGpgpu, JsResult, Op};
use crate::plan::shape::{self, MAX_COUNT};

/// The inverse's methods, as a message lists them.
const METHODS: &str = "'newton-schulz' or 'series'";

fn f64_array(values: &[f64]) -> Float64Array {
    Float64Array::from(values)
}

fn f32_as_f64(values: &[f32]) -> Float64Array {
    let v: Vec<f64> = values.iter().map(|&x| x as f64).collect();
    Float64Array::from(&v[..])
}

fn pair_object(p: &EigenPair) -> Object {
    let o = Object::new();
    set(&o, "value", p.value);
    set(&o, "vector", Float32Array::from(&p.vector[..]));
    set(&o, "converged", p.converged);
    set(&o, "history", f64_array(&p.history));
    set(&o, "residuals", f64_array(&p.residuals));
    o
}

/// Jacobi's result as JavaScript gets it (dense and sparse alike).
pub(crate) fn jacobi_object(r: &jacobi::Jacobi) -> Object {
    let o = Object::new();
    set(&o, "x", Float32Array::from(&r.x[..]));
    set(&o, "converged", r.converged);
    set(&o, "diverged", r.diverged);
    set(&o, "iterations", r.deltas.len() as u32);
    set(&o, "deltas", f32_as_f64(&r.deltas));
    set(&o, "norms", f32_as_f64(&r.norms));
    let history = objects(&r.history, |(k, x), h| {
        set(h, "iteration", *k as u32);
        set(h, "x", Float32Array::from(&x[..]));
    });
    set(&o, "history", history);
    o
}

/// Reads each application's arguments and returns its work.
mod read {
    use super::*;

    pub fn reachability(
        g: &JsGpgpu,
        n: &JsValue,
        adjacency: &JsValue,
        options: &JsValue,
    ) -> Result<Op> {
        let n = g.gpu.dim("n", number_arg("n", n)?)?;
        let adjacency = matrix_arg("adjacency", adjacency)?;
        let options = options_with(options, &[])?;
        g.work(move |h| async move {
            let r = graphs::reachability(&h, n, &adjacency, &options).await?;
            let o = Object::new();
            set(&o, "matrix", Float32Array::from(&r.matrix[..]));
            set(&o, "connected", r.connected);
            set(&o, "squarings", r.squarings);
            Ok(o.into())
        })
    }

    pub fn shortest_paths(
        g: &JsGpgpu,
        n: &JsValue,
        weights: &JsValue,
        options: &JsValue,
    ) -> Result<Op> {
        let n = g.gpu.dim("n", number_arg("n", n)?)?;
        let weights = matrix_arg("weights", weights)?;
        let options = options_with(options, &[])?;
        g.work(move |h| async move {
            let r = graphs::shortest_paths(&h, n, &weights, &options).await?;
            let o = Object::new();
            set(&o, "distances", Float32Array::from(&r.distances[..]));
            set(&o, "squarings", r.squarings);
            set(&o, "negativeCycle", r.negative_cycle);
            Ok(o.into())
        })
    }

    pub fn fibonacci(g: &JsGpgpu, k: &JsValue, options: &JsValue) -> Result<Op> {
        let k = shape::count("k", number_arg("k", k)?, MAX_COUNT)?;
        let options = options_with(options, &[])?;
        g.work(move |h| async move {
            let f = fibonacci::fibonacci(&h, k, &options).await?;
            let o = Object::new();
            set(&o, "k", k as f64);
            set(&o, "value", f.value);
            let exact_value = f
                .exact_value
                .map_or(JsValue::NULL, |x| x.to_string().into());
            set(&o, "exactValue", exact_value);
            set(&o, "exact", f.exact);
            set(&o, "passes", f.passes as u32);
            Ok(o.into())
        })
    }

    pub fn inverse(g: &JsGpgpu, n: &JsValue, a: &JsValue, options: &JsValue) -> Result<Op> {
        let n = g.gpu.dim("n", number_arg("n", n)?)?;
        let a = matrix_arg("a", a)?;
        let opts = options_with(options, &["method", "d", "maxDoublings", "patience"])?;
        let method = match Some(crate::common::guard::field(options, "options", "method")?)
            .filter(|v| !v.is_undefined())
        {
            None => InverseMethod::NewtonSchulz,
            Some(_) => match string_option(options, "method", METHODS)?.as_str() {
                "newton-schulz" => InverseMethod::NewtonSchulz,
                "series" => InverseMethod::Series {
                    d: number_option(options, "d")?,
                },
                other => {
                    return Err(GpgpuError::BadArgument {
                        name: "options.method".into(),
                        detail: format!("unknown method '{other}'; use {METHODS}"),
                    })
                }
            },
        };
        if method == InverseMethod::NewtonSchulz && number_option(options, "d")?.is_some() {
            return Err(GpgpuError::BadArgument {
                name: "options.d".into(),
                detail: "applies to method 'series' only (Newton–Schulz picks its own scale)"
                    .into(),
            });
        }
        let stopping = Stopping {
            max_doublings: count_option(
                options,
                "maxDoublings",
                60,
                inverse::MAX_DOUBLINGS as f64,
            )?,
            patience: match number_option(options, "patience")? {
                None => 0,
                Some(p) => {
                    shape::count("options.patience", p, inverse::MAX_DOUBLINGS as f64)? as usize
                }
            },
        };
        g.work(move |h| async move {
            let r = inverse::inverse(&h, n, &a, method, stopping, &opts).await?;
            let o = Object::new();
            set(&o, "matrix", Float32Array::from(&r.matrix[..]));
            set(&o, "converged", r.converged);
            set(&o, "residuals", f32_as_f64(&r.residuals));
            set(&o, "scale", r.scale);
            set(&o, "message", r.message);
            Ok(o.into())
        })
    }

    pub fn eigen(
        g: &JsGpgpu,
        n: &JsValue,
        a: &JsValue,
        k: &JsValue,
        options: &JsValue,
    ) -> Result<Op> {
        let n = g.gpu.dim("n", number_arg("n", n)?)?;
        let a = matrix_arg("a", a)?;
        let k = number_arg("k", k)?;
        let k = shape::count("k", k, n as f64)
            .map_err(|_| eigen::bad_k(&crate::error::js_number(k), n))? as usize;
        let opts = options_with(options, &["maxSquarings"])?;
        let squarings = count_option(
            options,
            "maxSquarings",
            30,
            eigen::MAX_EIGEN_SQUARINGS as f64,
        )?;
        g.work(move |h| async move {
            let pairs = eigen::eigen(&h, n, &a, k, squarings, &opts).await?;
            let o = Object::new();
            let list: Array = pairs
                .iter()
                .map(|p| JsValue::from(pair_object(p)))
                .collect();
            set(&o, "pairs", list);
            Ok(o.into())
        })
    }

    pub fn jacobi(
        g: &JsGpgpu,
        n: &JsValue,
        a: &JsValue,
        b: &JsValue,
        options: &JsValue,
    ) -> Result<Op> {
        let n = g.gpu.dim("n", number_arg("n", n)?)?;
        let (a, b) = matrix_pair(("a", a), ("b", b))?;
        let opts = options_with(options, &["epsilon", "maxIterations", "recordEvery"])?;
        let epsilon = positive_option(options, "options", "epsilon")?.unwrap_or(1e-6);
        let settings = JacobiSettings {
            epsilon: epsilon as f32,
            max_iterations: count_option(options, "maxIterations", 1000, MAX_ITERATIONS as f64)?,
            record_every: match number_option(options, "recordEvery")? {
                None => None,
                Some(_) => Some(count_option(options, "recordEvery", 1, 1e6)?),
            },
        };
        g.work(move |h| async move {
            let r = jacobi::jacobi(&h, n, &a, &b, settings, &opts).await?;
            Ok(jacobi_object(&r).into())
        })
    }
}

pair! {
    #[doc = " R = b[(I + A)^(n−1)] by ⌈log2(n−1)⌉ boolean squarings on the GPU."]
    #[doc = " Returns { matrix (0/1), connected (R all ones), squarings }. WebGL and the CPU (WebGPU:"]
    #[doc = " reachabilityAsync)."]
    reachability reachability -> Object as "Reachability";
    #[doc = " `reachability` as a Promise, on either backend."]
    reachability_async reachabilityAsync as "Promise<Reachability>";
    (n: "number", adjacency: "Matrix"; options: "KernelOptions") => read::reachability
}

pair! {
    #[doc = " All-pairs shortest paths by ⌈log2(n−1)⌉ (min, +) squarings. `weights`: row-major"]
    #[doc = " n×n, `weights[i*n + j]` the length of edge i → j, `Infinity` for none. Returns"]
    #[doc = " { distances (Infinity where unreachable), squarings, negativeCycle }. WebGL"]
    #[doc = " (WebGPU: shortestPathsAsync)."]
    shortest_paths shortestPaths -> Object as "ShortestPaths";
    #[doc = " `shortestPaths` as a Promise, on either backend."]
    shortest_paths_async shortestPathsAsync as "Promise<ShortestPaths>";
    (n: "number", weights: "Matrix"; options: "KernelOptions") => read::shortest_paths
}

pair! {
    #[doc = " F(k) from `[[1,1],[1,0]]^k` on the GPU. Returns { k, value (float32 result),"]
    #[doc = " exactValue (decimal string of the true F(k), null past 2^128), exact, passes }."]
    #[doc = " WebGL and the CPU (WebGPU: fibonacciAsync)."]
    fibonacci fibonacci -> Object as "FibonacciResult";
    #[doc = " `fibonacci` as a Promise, on either backend."]
    fibonacci_async fibonacciAsync as "Promise<FibonacciResult>";
    (k: "number"; options: "KernelOptions") => read::fibonacci
}

pair! {
    #[doc = " A⁻¹ by the doubling product of the power series. options: { kernel,"]
    #[doc = " method: \"newton-schulz\" (default: converges for every invertible A) | \"series\""]
    #[doc = " (the chapter's C = I − dA), d (series only), maxDoublings (default 60),"]
    #[doc = " patience (doublings allowed past the best before stopping, default 0) }."]
    #[doc = " Returns { matrix (the X of smallest residual), converged, residuals (‖AX − I‖_F"]
    #[doc = " of X₀, then after each doubling), scale, message }. WebGL and the CPU (WebGPU: inverseAsync)."]
    inverse inverse -> Object as "InverseResult";
    #[doc = " `inverse` as a Promise, on either backend."]
    inverse_async inverseAsync as "Promise<InverseResult>";
    (n: "number", a: "Matrix"; options: "InverseOptions") => read::inverse
}

pair! {
    #[doc = " The k eigenpairs of largest magnitude of a symmetric matrix by the power"]
    #[doc = " method (square and normalise) and deflation. options: { kernel, maxSquarings"]
    #[doc = " (default 30) }. Returns { pairs: [{ value, vector, converged, history, residuals }] },"]
    #[doc = " stopping after the first pair that does not converge. WebGL and the CPU (WebGPU: eigenAsync)."]
    eigen eigen -> Object as "EigenResult";
    #[doc = " `eigen` as a Promise, on either backend."]
    eigen_async eigenAsync as "Promise<EigenResult>";
    (n: "number", a: "Matrix", k: "number"; options: "EigenOptions") => read::eigen
}

pair! {
    #[doc = " Solves A x = b by Jacobi iteration on the GPU. options: { kernel, epsilon"]
    #[doc = " (default 1e-6: stop when Σ|Δx| ≤ ε·Σ|x|), maxIterations (default 1000),"]
    #[doc = " recordEvery (read x back every m iterations into `history`) }. Returns { x,"]
    #[doc = " converged, diverged, iterations, deltas (Σ|Δx| per iteration), norms (Σ|x|"]
    #[doc = " per iteration), history: [{ iteration, x }] }. WebGL and the CPU (WebGPU: jacobiAsync)."]
    jacobi jacobi -> Object as "JacobiResult";
    #[doc = " `jacobi` as a Promise, on either backend."]
    jacobi_async jacobiAsync as "Promise<JacobiResult>";
    (n: "number", a: "Matrix", b: "Matrix"; options: "JacobiOptions") => read::jacobi
}
