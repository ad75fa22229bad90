//! The JavaScript API (wasm-bindgen). Numbers arrive as JS numbers (f64) and
//! are validated here, so 2.5 or -1 is an error rather than a silent cast; errors
//! leave as `Error` objects with `name = "GpgpuError"` and a `code` property.

use js_sys::{Array, Float32Array, Float64Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::{Gpgpu, Options};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::kernels::Kernel;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, MAX_COUNT};

/// Converts a library error into a JS `Error` with `code` set.
pub fn to_js_error(e: GpgpuError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("GpgpuError");
    let _ = Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &key.into(), &value.into());
}

/// A matrix argument: a Float32Array, or a Float64Array / plain array of numbers
/// (converted to float32, as the GPU computes in float32 anyway).
pub fn matrix_arg(name: &str, value: &JsValue) -> Result<Vec<f32>> {
    if let Some(a) = value.dyn_ref::<Float32Array>() {
        return Ok(a.to_vec());
    }
    if value.is_instance_of::<Float64Array>() || Array::is_array(value) {
        return Ok(Float32Array::new(value).to_vec());
    }
    Err(GpgpuError::BadArgument {
        name: name.into(),
        detail: format!(
            "expected a row-major Float32Array, got {}",
            value.js_typeof().as_string().unwrap_or_default()
        ),
    })
}

fn string_option(obj: &JsValue, key: &str) -> Result<String> {
    let v = Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED);
    v.as_string().ok_or_else(|| GpgpuError::BadArgument {
        name: format!("options.{key}"),
        detail: "must be a string".into(),
    })
}

/// `{ kernel?: "auto" | "naive" | "packed" | "blocked4" | "blocked8",
///    semiring?: "ordinary" | "boolean" | "min-plus" }`
pub fn options_arg(value: &JsValue) -> Result<Options> {
    let mut options = Options::default();
    if value.is_undefined() || value.is_null() {
        return Ok(options);
    }
    let Some(obj) = value.dyn_ref::<Object>().filter(|_| value.is_object()) else {
        return Err(GpgpuError::BadArgument {
            name: "options".into(),
            detail: "must be an object such as { kernel: 'packed' }".into(),
        });
    };
    let kernels: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
    for key in Object::keys(obj).iter().filter_map(|k| k.as_string()) {
        match key.as_str() {
            "kernel" => {
                let name = string_option(value, "kernel")?;
                options.kernel = match name.as_str() {
                    "auto" => None,
                    _ => Some(Kernel::parse(&name).ok_or_else(|| GpgpuError::BadArgument {
                        name: "options.kernel".into(),
                        detail: format!(
                            "unknown kernel '{name}'; use 'auto' or one of {}",
                            kernels.join(", ")
                        ),
                    })?),
                };
            }
            "semiring" => {
                let name = string_option(value, "semiring")?;
                options.semiring =
                    Semiring::parse(&name).ok_or_else(|| GpgpuError::BadArgument {
                        name: "options.semiring".into(),
                        detail: format!(
                            "unknown semiring '{name}'; use 'ordinary', 'boolean' or 'min-plus'"
                        ),
                    })?;
            }
            other => {
                return Err(GpgpuError::BadArgument {
                    name: "options".into(),
                    detail: format!("unknown option '{other}'; known: kernel, semiring"),
                })
            }
        }
    }
    Ok(options)
}

/// Matrix products, repeated squaring and powers on WebGL2 fragment shaders.
#[wasm_bindgen(js_name = Gpgpu)]
pub struct JsGpgpu {
    inner: Gpgpu,
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// `new Gpgpu(canvas?)`: uses the given HTMLCanvasElement / OffscreenCanvas or
    /// makes its own.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "HTMLCanvasElement | OffscreenCanvas | undefined")]
        canvas: JsValue,
    ) -> std::result::Result<JsGpgpu, JsValue> {
        let canvas = if canvas.is_undefined() || canvas.is_null() {
            None
        } else {
            Some(Canvas::from_js(&canvas).map_err(to_js_error)?)
        };
        let inner = Gpgpu::new(canvas).map_err(to_js_error)?;
        Ok(JsGpgpu { inner })
    }

    fn dim(&self, name: &str, value: f64) -> Result<usize> {
        shape::dimension(name, value, self.inner.max_dimension())
    }

    /// R = M·M for an n×n row-major Float32Array.
    pub fn square(
        &mut self,
        n: f64,
        m: JsValue,
        options: JsValue,
    ) -> std::result::Result<Float32Array, JsValue> {
        self.run(|me| {
            let n = me.dim("n", n)?;
            let m = matrix_arg("m", &m)?;
            me.inner.square(n, &m, &options_arg(&options)?)
        })
    }

    /// A·B with A rows×inner and B inner×cols.
    pub fn multiply(
        &mut self,
        rows: f64,
        inner: f64,
        cols: f64,
        a: JsValue,
        b: JsValue,
        options: JsValue,
    ) -> std::result::Result<Float32Array, JsValue> {
        self.run(|me| {
            let (rows, inner, cols) = (
                me.dim("rows", rows)?,
                me.dim("inner", inner)?,
                me.dim("cols", cols)?,
            );
            let (a, b) = (matrix_arg("a", &a)?, matrix_arg("b", &b)?);
            me.inner
                .multiply(rows, inner, cols, &a, &b, &options_arg(&options)?)
        })
    }

    /// M^(2^times): `times` squarings chained on the GPU; times = 0 returns M.
    #[wasm_bindgen(js_name = squareRepeatedly)]
    pub fn square_repeatedly(
        &mut self,
        n: f64,
        m: JsValue,
        times: f64,
        options: JsValue,
    ) -> std::result::Result<Float32Array, JsValue> {
        self.run(|me| {
            let n = me.dim("n", n)?;
            let times = shape::count("times", times, 64.0)?;
            let m = matrix_arg("m", &m)?;
            me.inner
                .square_repeatedly(n, &m, times, &options_arg(&options)?)
        })
    }

    /// M^p for a whole p >= 0 by binary exponentiation; p = 0 gives the identity.
    pub fn power(
        &mut self,
        n: f64,
        m: JsValue,
        p: f64,
        options: JsValue,
    ) -> std::result::Result<Float32Array, JsValue> {
        self.run(|me| {
            let n = me.dim("n", n)?;
            let p = shape::count("p", p, MAX_COUNT)?;
            let m = matrix_arg("m", &m)?;
            me.inner.power(n, &m, p, &options_arg(&options)?)
        })
    }

    /// { renderer, vendor, webglVersion, glslVersion, maxTextureSize, maxViewportDims,
    ///   maxDrawBuffers, maxTextureUnits, floatRenderable, timerQuery, kernels }
    pub fn info(&self) -> Object {
        let i = self.inner.info();
        let o = Object::new();
        set(&o, "renderer", i.renderer.as_str());
        set(&o, "vendor", i.vendor.as_str());
        set(&o, "webglVersion", i.webgl_version.as_str());
        set(&o, "glslVersion", i.glsl_version.as_str());
        set(&o, "maxTextureSize", i.limits.max_texture_size as u32);
        let dims = Array::of2(
            &(i.limits.max_viewport_dims.0 as u32).into(),
            &(i.limits.max_viewport_dims.1 as u32).into(),
        );
        set(&o, "maxViewportDims", dims);
        set(&o, "maxDrawBuffers", i.limits.max_draw_buffers as u32);
        set(&o, "maxTextureUnits", i.limits.max_texture_units as u32);
        set(&o, "maxDimension", i.limits.max_dimension() as u32);
        set(&o, "floatRenderable", i.float_renderable);
        set(&o, "timerQuery", i.timer_query);
        let kernels: Array = Kernel::ALL
            .iter()
            .filter(|k| k.supported(&i.limits))
            .map(|k| JsValue::from_str(k.name()))
            .collect();
        set(&o, "kernels", kernels);
        o
    }

    /// Live GL objects created by this instance (for leak checks).
    #[wasm_bindgen(js_name = liveObjects)]
    pub fn live_objects(&self) -> Object {
        let c = self.inner.live_objects();
        let o = Object::new();
        for (k, v) in [
            ("textures", c.textures),
            ("framebuffers", c.framebuffers),
            ("programs", c.programs),
            ("shaders", c.shaders),
            ("buffers", c.buffers),
            ("vertexArrays", c.vertex_arrays),
            ("queries", c.queries),
            ("syncs", c.syncs),
        ] {
            set(&o, k, v);
        }
        o
    }

    /// Fill outputs with `value` (e.g. NaN) before every pass, so unwritten texels
    /// show; `null` turns it off. For tests and debugging.
    #[wasm_bindgen(js_name = setPoison)]
    pub fn set_poison(&mut self, value: Option<f64>) {
        self.inner.set_poison(value.map(|v| v as f32));
    }

    /// The canvas the context lives on.
    #[wasm_bindgen(getter)]
    pub fn canvas(&mut self) -> JsValue {
        self.inner.engine().canvas().js_value()
    }

    fn run(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<Vec<f32>>,
    ) -> std::result::Result<Float32Array, JsValue> {
        f(self)
            .map(|v| Float32Array::from(&v[..]))
            .map_err(to_js_error)
    }
}
