//! The applications of matrix powers, for JavaScript (see `apps`). Each reads its
//! arguments into a job once; the blocking form runs the job at once (WebGL), the
//! Async form returns a Promise of it (either backend). Each returns a plain
//! object; errors are the same `GpgpuError`s as everywhere.

use std::future::Future;
use std::pin::Pin;

use js_sys::{Array, Float32Array, Float64Array, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::apps::eigen::{self, EigenPair};
use crate::apps::fibonacci;
use crate::apps::graphs;
use crate::apps::inverse::{self, InverseMethod, Stopping};
use crate::apps::jacobi::{self, JacobiSettings, MAX_ITERATIONS};
use crate::common::now;
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::js::args::{
    count_option, matrix_arg, matrix_pair, number_arg, number_option, options_with,
    positive_option, set, string_option, to_js_error,
};
use crate::js::{JsGpgpu, JsResult};
use crate::kernels::Backend;
use crate::plan::shape::{self, MAX_COUNT};

/// The inverse's methods, as a message lists them.
const METHODS: &str = "'newton-schulz' or 'series'";

/// An application with its arguments read: given the engine's handle, the work.
type Job = Box<dyn FnOnce(Handle) -> Pin<Box<dyn Future<Output = Result<Object>>>>>;

fn job<F>(work: impl FnOnce(Handle) -> F + 'static) -> Result<Job>
where
    F: Future<Output = Result<Object>> + 'static,
{
    Ok(Box::new(move |h| Box::pin(work(h))))
}

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
    let history: Array = r
        .history
        .iter()
        .map(|(k, x)| {
            let h = Object::new();
            set(&h, "iteration", *k as u32);
            set(&h, "x", Float32Array::from(&x[..]));
            JsValue::from(h)
        })
        .collect();
    set(&o, "history", history);
    o
}

impl JsGpgpu {
    /// The blocking form: WebGL and the CPU (their reads are synchronous, so the job
    /// completes at once).
    fn app(
        &self,
        call: &'static str,
        instead: &'static str,
        read: impl FnOnce(&crate::api::Gpgpu) -> Result<Job>,
    ) -> JsResult<Object> {
        let run = || {
            if self.gpu.backend() == Backend::WebGpu {
                return Err(GpgpuError::NeedsAsync { call, instead });
            }
            now(read(&self.gpu)?(self.gpu.handle()), call, instead)
        };
        run().map_err(to_js_error)
    }

    /// The Promise form, on either backend.
    fn app_async(&self, read: impl FnOnce(&crate::api::Gpgpu) -> Result<Job>) -> Promise {
        let job = read(&self.gpu);
        let handle = self.gpu.handle();
        future_to_promise(async move {
            let job = job.map_err(to_js_error)?;
            Ok(job(handle).await.map_err(to_js_error)?.into())
        })
    }
}

/// Reads each application's arguments and returns its job.
mod read {
    use super::*;
    use crate::api::Gpgpu;

    pub fn reachability(
        g: &Gpgpu,
        n: &JsValue,
        adjacency: &JsValue,
        options: &JsValue,
    ) -> Result<Job> {
        let n = g.dim("n", number_arg("n", n)?)?;
        let adjacency = matrix_arg("adjacency", adjacency)?;
        let options = options_with(options, &[])?;
        job(move |h| async move {
            let r = graphs::reachability(&h, n, &adjacency, &options).await?;
            let o = Object::new();
            set(&o, "matrix", Float32Array::from(&r.matrix[..]));
            set(&o, "connected", r.connected);
            set(&o, "squarings", r.squarings);
            Ok(o)
        })
    }

    pub fn shortest_paths(
        g: &Gpgpu,
        n: &JsValue,
        weights: &JsValue,
        options: &JsValue,
    ) -> Result<Job> {
        let n = g.dim("n", number_arg("n", n)?)?;
        let weights = matrix_arg("weights", weights)?;
        let options = options_with(options, &[])?;
        job(move |h| async move {
            let r = graphs::shortest_paths(&h, n, &weights, &options).await?;
            let o = Object::new();
            set(&o, "distances", Float32Array::from(&r.distances[..]));
            set(&o, "squarings", r.squarings);
            set(&o, "negativeCycle", r.negative_cycle);
            Ok(o)
        })
    }

    pub fn fibonacci(k: &JsValue, options: &JsValue) -> Result<Job> {
        let k = shape::count("k", number_arg("k", k)?, MAX_COUNT)?;
        let options = options_with(options, &[])?;
        job(move |h| async move {
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
            Ok(o)
        })
    }

    pub fn inverse(g: &Gpgpu, n: &JsValue, a: &JsValue, options: &JsValue) -> Result<Job> {
        let n = g.dim("n", number_arg("n", n)?)?;
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
        job(move |h| async move {
            let r = inverse::inverse(&h, n, &a, method, stopping, &opts).await?;
            let o = Object::new();
            set(&o, "matrix", Float32Array::from(&r.matrix[..]));
            set(&o, "converged", r.converged);
            set(&o, "residuals", f32_as_f64(&r.residuals));
            set(&o, "scale", r.scale);
            set(&o, "message", r.message);
            Ok(o)
        })
    }

    pub fn eigen(
        g: &Gpgpu,
        n: &JsValue,
        a: &JsValue,
        k: &JsValue,
        options: &JsValue,
    ) -> Result<Job> {
        let n = g.dim("n", number_arg("n", n)?)?;
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
        job(move |h| async move {
            let pairs = eigen::eigen(&h, n, &a, k, squarings, &opts).await?;
            let o = Object::new();
            let list: Array = pairs
                .iter()
                .map(|p| JsValue::from(pair_object(p)))
                .collect();
            set(&o, "pairs", list);
            Ok(o)
        })
    }

    pub fn jacobi(
        g: &Gpgpu,
        n: &JsValue,
        a: &JsValue,
        b: &JsValue,
        options: &JsValue,
    ) -> Result<Job> {
        let n = g.dim("n", number_arg("n", n)?)?;
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
        job(move |h| async move {
            let r = jacobi::jacobi(&h, n, &a, &b, settings, &opts).await?;
            Ok(jacobi_object(&r))
        })
    }
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// R = b[(I + A)^(n−1)] by ⌈log2(n−1)⌉ boolean squarings on the GPU.
    /// Returns { matrix (0/1), connected (R all ones), squarings }. WebGL and the CPU (WebGPU:
    /// reachabilityAsync).
    #[wasm_bindgen(unchecked_return_type = "Reachability")]
    pub fn reachability(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] adjacency: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app("reachability", "reachabilityAsync", |g| {
            read::reachability(g, &n, &adjacency, &options)
        })
    }

    /// `reachability` as a Promise, on either backend.
    #[wasm_bindgen(js_name = reachabilityAsync, unchecked_return_type = "Promise<Reachability>")]
    pub fn reachability_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] adjacency: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> Promise {
        self.app_async(|g| read::reachability(g, &n, &adjacency, &options))
    }

    /// All-pairs shortest paths by ⌈log2(n−1)⌉ (min, +) squarings. `weights`: row-major
    /// n×n, `weights[i*n + j]` the length of edge i → j, `Infinity` for none. Returns
    /// { distances (Infinity where unreachable), squarings, negativeCycle }. WebGL
    /// (WebGPU: shortestPathsAsync).
    #[wasm_bindgen(js_name = shortestPaths, unchecked_return_type = "ShortestPaths")]
    pub fn shortest_paths(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] weights: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app("shortestPaths", "shortestPathsAsync", |g| {
            read::shortest_paths(g, &n, &weights, &options)
        })
    }

    /// `shortestPaths` as a Promise, on either backend.
    #[wasm_bindgen(js_name = shortestPathsAsync, unchecked_return_type = "Promise<ShortestPaths>")]
    pub fn shortest_paths_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] weights: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> Promise {
        self.app_async(|g| read::shortest_paths(g, &n, &weights, &options))
    }

    /// F(k) from `[[1,1],[1,0]]^k` on the GPU. Returns { k, value (float32 result),
    /// exactValue (decimal string of the true F(k), null past 2^128), exact, passes }.
    /// WebGL and the CPU (WebGPU: fibonacciAsync).
    #[wasm_bindgen(unchecked_return_type = "FibonacciResult")]
    pub fn fibonacci(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app("fibonacci", "fibonacciAsync", |_| {
            read::fibonacci(&k, &options)
        })
    }

    /// `fibonacci` as a Promise, on either backend.
    #[wasm_bindgen(js_name = fibonacciAsync, unchecked_return_type = "Promise<FibonacciResult>")]
    pub fn fibonacci_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> Promise {
        self.app_async(|_| read::fibonacci(&k, &options))
    }

    /// A⁻¹ by the doubling product of the power series. options: { kernel,
    /// method: "newton-schulz" (default: converges for every invertible A) | "series"
    /// (the chapter's C = I − dA), d (series only), maxDoublings (default 60),
    /// patience (doublings allowed past the best before stopping, default 0) }.
    /// Returns { matrix (the X of smallest residual), converged, residuals (‖AX − I‖_F
    /// of X₀, then after each doubling), scale, message }. WebGL and the CPU (WebGPU: inverseAsync).
    #[wasm_bindgen(unchecked_return_type = "InverseResult")]
    pub fn inverse(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "InverseOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app("inverse", "inverseAsync", |g| {
            read::inverse(g, &n, &a, &options)
        })
    }

    /// `inverse` as a Promise, on either backend.
    #[wasm_bindgen(js_name = inverseAsync, unchecked_return_type = "Promise<InverseResult>")]
    pub fn inverse_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "InverseOptions")] options: JsValue,
    ) -> Promise {
        self.app_async(|g| read::inverse(g, &n, &a, &options))
    }

    /// The k eigenpairs of largest magnitude of a symmetric matrix by the power
    /// method (square and normalise) and deflation. options: { kernel, maxSquarings
    /// (default 30) }. Returns { pairs: [{ value, vector, converged, history, residuals }] },
    /// stopping after the first pair that does not converge. WebGL and the CPU (WebGPU: eigenAsync).
    #[wasm_bindgen(unchecked_return_type = "EigenResult")]
    pub fn eigen(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EigenOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app("eigen", "eigenAsync", |g| {
            read::eigen(g, &n, &a, &k, &options)
        })
    }

    /// `eigen` as a Promise, on either backend.
    #[wasm_bindgen(js_name = eigenAsync, unchecked_return_type = "Promise<EigenResult>")]
    pub fn eigen_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EigenOptions")] options: JsValue,
    ) -> Promise {
        self.app_async(|g| read::eigen(g, &n, &a, &k, &options))
    }

    /// Solves A x = b by Jacobi iteration on the GPU. options: { kernel, epsilon
    /// (default 1e-6: stop when Σ|Δx| ≤ ε·Σ|x|), maxIterations (default 1000),
    /// recordEvery (read x back every m iterations into `history`) }. Returns { x,
    /// converged, diverged, iterations, deltas (Σ|Δx| per iteration), norms (Σ|x|
    /// per iteration), history: [{ iteration, x }] }. WebGL and the CPU (WebGPU: jacobiAsync).
    #[wasm_bindgen(unchecked_return_type = "JacobiResult")]
    pub fn jacobi(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "JacobiOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app("jacobi", "jacobiAsync", |g| {
            read::jacobi(g, &n, &a, &b, &options)
        })
    }

    /// `jacobi` as a Promise, on either backend.
    #[wasm_bindgen(js_name = jacobiAsync, unchecked_return_type = "Promise<JacobiResult>")]
    pub fn jacobi_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "JacobiOptions")] options: JsValue,
    ) -> Promise {
        self.app_async(|g| read::jacobi(g, &n, &a, &b, &options))
    }
}
