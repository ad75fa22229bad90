//! The applications of matrix powers, for JavaScript (see `apps`). Each returns a
//! plain object; errors are the same `GpgpuError`s as everywhere.

use js_sys::{Array, Float32Array, Float64Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::apps::eigen::{self, EigenPair};
use crate::apps::fibonacci;
use crate::apps::graphs;
use crate::apps::inverse::{self, InverseMethod, Stopping};
use crate::apps::jacobi::{self, JacobiSettings};
use crate::error::{GpgpuError, Result};
use crate::js::{
    count_option, matrix_arg, number_arg, number_option, options_with, positive_option, set,
    string_option, to_js_error, JsGpgpu,
};
use crate::plan::shape::{self, MAX_COUNT};

type JsResult<T> = std::result::Result<T, JsValue>;

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

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    fn app(&self, f: impl FnOnce(&mut crate::api::Gpgpu) -> Result<Object>) -> JsResult<Object> {
        f(&mut self.inner.borrow_mut()).map_err(to_js_error)
    }

    /// R = b[(I + A)^(n−1)] by ⌈log2(n−1)⌉ boolean squarings on the GPU.
    /// Returns { matrix (0/1), connected (R all ones), squarings }.
    #[wasm_bindgen(unchecked_return_type = "Reachability")]
    pub fn reachability(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] adjacency: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app(|g| {
            let n = g.dim("n", number_arg("n", &n)?)?;
            let adjacency = matrix_arg("adjacency", &adjacency)?;
            let r = graphs::reachability(g, n, &adjacency, &options_with(&options, &[])?)?;
            let o = Object::new();
            set(&o, "matrix", Float32Array::from(&r.matrix[..]));
            set(&o, "connected", r.connected);
            set(&o, "squarings", r.squarings);
            Ok(o)
        })
    }

    /// All-pairs shortest paths by ⌈log2(n−1)⌉ (min, +) squarings. `weights`: row-major
    /// n×n, `weights[i*n + j]` the length of edge i → j, `Infinity` for none. Returns { distances (Infinity where
    /// unreachable), squarings, negativeCycle }.
    #[wasm_bindgen(js_name = shortestPaths, unchecked_return_type = "ShortestPaths")]
    pub fn shortest_paths(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] weights: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app(|g| {
            let n = g.dim("n", number_arg("n", &n)?)?;
            let weights = matrix_arg("weights", &weights)?;
            let r = graphs::shortest_paths(g, n, &weights, &options_with(&options, &[])?)?;
            let o = Object::new();
            set(&o, "distances", Float32Array::from(&r.distances[..]));
            set(&o, "squarings", r.squarings);
            set(&o, "negativeCycle", r.negative_cycle);
            Ok(o)
        })
    }

    /// F(k) from `[[1,1],[1,0]]^k` on the GPU. Returns { k, value (float32 result),
    /// exactValue (decimal string of the true F(k), null past 2^128), exact, passes }.
    #[wasm_bindgen(unchecked_return_type = "FibonacciResult")]
    pub fn fibonacci(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "KernelOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app(|g| {
            let k = shape::count("k", number_arg("k", &k)?, MAX_COUNT)?;
            let f = fibonacci::fibonacci(g, k, &options_with(&options, &[])?)?;
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

    /// A⁻¹ by the doubling product of the power series. options: { kernel,
    /// method: "newton-schulz" (default: converges for every invertible A) | "series"
    /// (the chapter's C = I − dA), d (series only), maxDoublings (default 60),
    /// patience (doublings allowed past the best before stopping, default 0) }.
    /// Returns { matrix (the X of smallest residual), converged, residuals (‖AX − I‖_F
    /// of X₀, then after each doubling), scale, message }.
    #[wasm_bindgen(unchecked_return_type = "InverseResult")]
    pub fn inverse(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "InverseOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app(|g| {
            let n = g.dim("n", number_arg("n", &n)?)?;
            let a = matrix_arg("a", &a)?;
            let opts = options_with(&options, &["method", "d", "maxDoublings", "patience"])?;
            let method = match Reflect::get(&options, &"method".into())
                .ok()
                .filter(|v| !v.is_undefined())
            {
                None => InverseMethod::NewtonSchulz,
                Some(_) => match string_option(&options, "method")?.as_str() {
                    "newton-schulz" => InverseMethod::NewtonSchulz,
                    "series" => InverseMethod::Series {
                        d: number_option(&options, "d")?,
                    },
                    other => {
                        return Err(GpgpuError::BadArgument {
                            name: "options.method".into(),
                            detail: format!(
                                "unknown method '{other}'; use 'newton-schulz' or 'series'"
                            ),
                        })
                    }
                },
            };
            if method == InverseMethod::NewtonSchulz && number_option(&options, "d")?.is_some() {
                return Err(GpgpuError::BadArgument {
                    name: "options.d".into(),
                    detail: "applies to method 'series' only (Newton–Schulz picks its own \
                             scale)"
                        .into(),
                });
            }
            let stopping = Stopping {
                max_doublings: count_option(&options, "maxDoublings", 60, 1000.0)?,
                patience: match number_option(&options, "patience")? {
                    None => 0,
                    Some(p) => shape::count("options.patience", p, 1000.0)? as usize,
                },
            };
            let r = inverse::inverse(g, n, &a, method, stopping, &opts)?;
            let o = Object::new();
            set(&o, "matrix", Float32Array::from(&r.matrix[..]));
            set(&o, "converged", r.converged);
            set(&o, "residuals", f32_as_f64(&r.residuals));
            set(&o, "scale", r.scale);
            set(&o, "message", r.message);
            Ok(o)
        })
    }

    /// The k eigenpairs of largest magnitude of a symmetric matrix by the power
    /// method (square and normalise) and deflation. options: { kernel, maxSquarings
    /// (default 30) }. Returns { pairs: [{ value, vector, converged, history, residuals }] },
    /// stopping after the first pair that does not converge.
    #[wasm_bindgen(unchecked_return_type = "EigenResult")]
    pub fn eigen(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EigenOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app(|g| {
            let n = g.dim("n", number_arg("n", &n)?)?;
            let a = matrix_arg("a", &a)?;
            let k = number_arg("k", &k)?;
            let k = shape::count("k", k, n as f64)
                .map_err(|_| eigen::bad_k(&crate::error::js_number(k), n))?
                as usize;
            let opts = options_with(&options, &["maxSquarings"])?;
            let squarings = count_option(&options, "maxSquarings", 30, 120.0)?;
            let pairs = eigen::eigen(g, n, &a, k, squarings, &opts)?;
            let o = Object::new();
            let list: Array = pairs
                .iter()
                .map(|p| JsValue::from(pair_object(p)))
                .collect();
            set(&o, "pairs", list);
            Ok(o)
        })
    }

    /// Solves A x = b by Jacobi iteration on the GPU. options: { kernel, epsilon
    /// (default 1e-6: stop when Σ|Δx| ≤ ε·Σ|x|), maxIterations (default 1000),
    /// recordEvery (read x back every m iterations into `history`) }. Returns { x,
    /// converged, diverged, iterations, deltas (Σ|Δx| per iteration), norms (Σ|x|
    /// per iteration), history: [{ iteration, x }] }.
    #[wasm_bindgen(unchecked_return_type = "JacobiResult")]
    pub fn jacobi(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "JacobiOptions")] options: JsValue,
    ) -> JsResult<Object> {
        self.app(|g| {
            let n = g.dim("n", number_arg("n", &n)?)?;
            let (a, b) = (matrix_arg("a", &a)?, matrix_arg("b", &b)?);
            let opts = options_with(&options, &["epsilon", "maxIterations", "recordEvery"])?;
            let epsilon = positive_option(&options, "options", "epsilon")?.unwrap_or(1e-6);
            let settings = JacobiSettings {
                epsilon: epsilon as f32,
                max_iterations: count_option(&options, "maxIterations", 1000, 1e6)?,
                record_every: match number_option(&options, "recordEvery")? {
                    None => None,
                    Some(_) => Some(count_option(&options, "recordEvery", 1, 1e6)?),
                },
            };
            let r = jacobi::jacobi(g, n, &a, &b, settings, &opts)?;
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
            Ok(o)
        })
    }
}
