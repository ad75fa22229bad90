//! The class `Gpgpu`: creating one on a backend, what it is, and its operations'
//! blocking and Promise forms (each pair one declaration, `pair!`).

use super::*;

/// Matrix products, repeated squaring and matrix powers on WebGL2 fragment shaders,
/// WebGPU compute shaders, or the CPU (a SIMD128 kernel in Web Workers).
#[wasm_bindgen(js_name = Gpgpu)]
pub struct JsGpgpu {
    pub(crate) gpu: Gpgpu,
}

/// `{ backend?, canvas?, powerPreference? }` of `Gpgpu.create`.
fn create_options(value: &JsValue) -> Result<CreateOptions> {
    let mut options = CreateOptions::default();
    let Some(obj) = options_object(value, "options", "{ backend: 'auto' }")? else {
        return Ok(options);
    };
    for key in crate::common::guard::keys(obj, "options")? {
        let v = crate::common::guard::field(value, "options", &key)?;
        if v.is_undefined() {
            continue;
        }
        match key.as_str() {
            "backend" => {
                options.backend = match string_option(value, "backend", BACKENDS)?.as_str() {
                    "auto" => BackendChoice::Auto,
                    "webgl" => BackendChoice::WebGl,
                    "webgpu" => BackendChoice::WebGpu,
                    "cpu" => BackendChoice::Cpu,
                    other => {
                        return Err(GpgpuError::BadArgument {
                            name: "options.backend".into(),
                            detail: format!("unknown backend '{other}'; use {BACKENDS}"),
                        })
                    }
                }
            }
            "canvas" => options.canvas = Some(Canvas::from_js(&v)?),
            "threads" => options.threads = Some(crate::js::cpu::threads_option(value)?),
            "powerPreference" => {
                let name = string_option(value, "powerPreference", PREFERENCES)?;
                options.power_preference =
                    Some(
                        power_preference(&name).ok_or_else(|| GpgpuError::BadArgument {
                            name: "options.powerPreference".into(),
                            detail: format!("unknown preference '{name}'; use {PREFERENCES}"),
                        })?,
                    );
            }
            other => {
                return Err(GpgpuError::BadArgument {
                    name: "options".into(),
                    detail: format!(
                        "unknown option '{other}'; known: backend, canvas, powerPreference, threads"
                    ),
                })
            }
        }
    }
    Ok(options)
}

impl JsGpgpu {
    pub(super) fn handle(&self) -> Handle {
        self.gpu.handle()
    }

    /// A product or power: its passes are queued now, in call order (after a WebGPU
    /// device loss: once the new device is there); only the wait for the readback
    /// comes later, with no borrow held meanwhile.
    pub(super) fn product(&self, start: Result<Start>) -> Result<Op> {
        let handle = self.handle();
        let queue = |handle: &Handle, start: Start| {
            handle.with(|e| {
                let work = start(e)?;
                work::finish_work_async(e, work)
            })
        };
        let start = start?;
        let queued = match handle.with(|e| Ok(e.replacing()))? {
            true => Err(start),
            false => Ok(queue(&handle, start)?),
        };
        op(async move {
            let pending = match queued {
                Ok(pending) => pending,
                Err(start) => {
                    handle.ready().await?;
                    queue(&handle, start)?
                }
            };
            Ok(pending.wait_js().await?.into())
        })
    }

    fn stepwise(&self, start: impl FnOnce(&Gpgpu) -> Result<Start>) -> JsResult<JsRun> {
        let make = || {
            let start = start(&self.gpu)?;
            let mut engine = self.gpu.engine();
            start(&mut engine)?.into_run(&mut engine)
        };
        let run = make().map_err(to_js_error)?;
        Ok(JsRun::new(self.gpu.shared(), run))
    }
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// `new Gpgpu(canvas?)`: WebGL2 on the given HTMLCanvasElement / OffscreenCanvas or
    /// on a canvas of its own. For WebGPU (or the automatic choice) use
    /// `await Gpgpu.create({ backend })`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "CanvasElement | OffscreenCanvas")]
        canvas: JsValue,
    ) -> JsResult<JsGpgpu> {
        // Here, not in the Rust `Gpgpu::new`: a Rust application keeps its own hook,
        // while a JavaScript one gets panics on the console with their message.
        console_error_panic_hook::set_once();
        let canvas = if canvas.is_undefined() || canvas.is_null() {
            None
        } else {
            Some(Canvas::from_js(&canvas).map_err(to_js_error)?)
        };
        let gpu = Gpgpu::new(canvas).map_err(to_js_error)?;
        Ok(JsGpgpu { gpu })
    }

    /// `await Gpgpu.create({ backend, canvas, powerPreference })`: backend "auto"
    /// (default: WebGPU on a hardware adapter, WebGL2 when the only adapter is a
    /// software one or there is none), "webgl" or "webgpu".
    #[wasm_bindgen(unchecked_return_type = "Promise<Gpgpu>")]
    pub fn create(
        #[wasm_bindgen(unchecked_optional_param_type = "CreateOptions")] options: JsValue,
    ) -> Promise {
        console_error_panic_hook::set_once();
        let options = create_options(&options);
        // Through the one Promise runner that every operation shares (a second
        // runner's state machine and glue cost ~1 KB of wasm).
        promise(options.and_then(|options| {
            op(async move {
                Ok(JsGpgpu {
                    gpu: Gpgpu::create(options).await?,
                }
                .into())
            })
        }))
    }

    /// Which backend this instance runs: "webgl" or "webgpu".
    #[wasm_bindgen(getter, unchecked_return_type = "BackendName")]
    pub fn backend(&self) -> String {
        self.gpu.backend().name().into()
    }
}

export! {
    #[doc = " `square` as a `Run` whose passes the caller steps through."]
    start_square startSquare -> JsResult<JsRun>;
    [&self] (n: "number", m: "Matrix"; options: "RunOptions")
        => self.stepwise(|g| start::on_square(g, [&n, &m], None, &options, false))
}

export! {
    #[doc = " `multiply` as a `Run`."]
    start_multiply startMultiply -> JsResult<JsRun>;
    [&self] (rows: "number", inner: "number", cols: "number", a: "Matrix", b: "Matrix"; options: "RunOptions")
        => self.stepwise(|g| start::multiply(g, [&rows, &inner, &cols], &a, &b, &options, false))
}

export! {
    #[doc = " `squareRepeatedly` as a `Run`."]
    start_square_repeatedly startSquareRepeatedly -> JsResult<JsRun>;
    [&self] (n: "number", m: "Matrix", times: "number"; options: "RunOptions")
        => self.stepwise(|g| start::on_square(g, [&n, &m], Some((&start::TIMES, &times)), &options, false))
}

export! {
    #[doc = " `power` as a `Run`."]
    start_power startPower -> JsResult<JsRun>;
    [&self] (n: "number", m: "Matrix", p: "number"; options: "RunOptions")
        => self.stepwise(|g| start::on_square(g, [&n, &m], Some((&start::POWER, &p)), &options, false))
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// Throws what `startMultiply(rows, inner, cols, …)` (inner and cols left out:
    /// `startSquare(rows, …)`, or a power of it) would throw for these sizes, with no
    /// arrays: SIZE_OVER_LIMIT past the device's limit or WebAssembly memory,
    /// BAD_DIMENSION. Give all three sizes or one: two are BAD_ARGUMENT. Call it
    /// before building inputs of that size, which can take long or fail in JavaScript.
    /// (Its d.ts is the two overloads in TS_TYPES, so that tsc refuses two sizes too.)
    #[wasm_bindgen(js_name = checkRunSize, skip_typescript)]
    pub fn check_run_size(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] cols: JsValue,
    ) -> JsResult<()> {
        start::run_size(&self.gpu, [&rows, &inner, &cols]).map_err(to_js_error)
    }

    /// { backend, maxDimension, kernels, timerQuery, … }: WebGL adds renderer, vendor,
    /// versions and texture limits; WebGPU the adapter's description, limits and
    /// features, and the register kernel's form on this device; `fallback`, why 'auto'
    /// made WebGL2 on a browser with a hardware WebGPU adapter; `timerResolutionMs`,
    /// the resolution of the wall clock the library's timings read (measured once).
    #[wasm_bindgen(unchecked_return_type = "DeviceInfo")]
    pub fn info(&self) -> Object {
        let o = Object::new();
        let engine = self.gpu.engine();
        set(&o, "backend", engine.backend().name());
        set(
            &o,
            "timerResolutionMs",
            crate::common::clock::resolution_ms(),
        );
        set(&o, "maxDimension", engine.max_dimension() as f64);
        let kernels: Array = engine
            .kernels()
            .iter()
            .map(|k| JsValue::from_str(k.name()))
            .collect();
        set(&o, "kernels", kernels);
        drop(engine);
        if let Some(why) = self.gpu.fallback() {
            set(&o, "fallback", why);
        }
        match self.gpu.info() {
            Info::WebGl(i) => {
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
                set(&o, "floatRenderable", i.float_renderable);
                set(&o, "timerQuery", i.timer_query);
            }
            Info::WebGpu(i) => {
                set(&o, "vendor", i.vendor.as_str());
                set(&o, "architecture", i.architecture.as_str());
                set(&o, "device", i.device.as_str());
                set(&o, "description", i.description.as_str());
                set(&o, "fallbackAdapter", i.fallback);
                let l = &i.limits;
                set(
                    &o,
                    "maxStorageBufferBindingSize",
                    l.max_storage_buffer_binding_size,
                );
                set(&o, "maxBufferSize", l.max_buffer_size);
                // maxDimension bounds one side; a whole matrix must also fit one buffer.
                set(&o, "maxMatrixBytes", l.max_matrix_bytes());
                set(
                    &o,
                    "maxComputeWorkgroupsPerDimension",
                    l.max_compute_workgroups_per_dimension,
                );
                set(
                    &o,
                    "maxComputeWorkgroupStorageSize",
                    l.max_compute_workgroup_storage_size,
                );
                set(
                    &o,
                    "maxComputeInvocationsPerWorkgroup",
                    l.max_compute_invocations_per_workgroup,
                );
                let features: Array = i.features.iter().map(|f| JsValue::from_str(f)).collect();
                set(&o, "features", features);
                set(&o, "timerQuery", i.timestamp_query);
                let register = self
                    .gpu
                    .engine()
                    .webgpu()
                    .map(|e| e.register_description())
                    .unwrap_or_default();
                set(&o, "registerKernel", register);
            }
            Info::Cpu { threads } => {
                set(&o, "threads", threads as u32);
                set(&o, "simd", "wasm SIMD128, 4x8 register tile");
                set(&o, "timerQuery", false);
            }
        }
        o
    }

    /// Every kernel of the library, WebGL's then WebGPU's:
    /// [{ name, backend, description, planes, file }].
    #[wasm_bindgen(unchecked_return_type = "KernelInfo[]")]
    pub fn kernels() -> Array {
        objects(&Kernel::ALL, |k, o| {
            set(o, "name", k.name());
            set(o, "backend", k.backend().name());
            set(o, "description", k.description());
            set(o, "planes", k.layout().planes() as u32);
            set(o, "file", k.file());
        })
    }

    /// The shader file of a kernel, as written (with its comments): GLSL for the
    /// WebGL kernels, WGSL for the WebGPU ones.
    #[wasm_bindgen(js_name = kernelSource)]
    pub fn kernel_source(
        #[wasm_bindgen(unchecked_param_type = "KernelName")] name: JsValue,
    ) -> JsResult<String> {
        string_arg("kernel", &name, &kernel_names())
            .and_then(|name| kernel_arg(&name))
            .map(|k| k.source().to_string())
            .map_err(to_js_error)
    }

    /// The vertex shader every WebGL program shares (the full-screen quad).
    #[wasm_bindgen(js_name = vertexSource)]
    pub fn vertex_source() -> String {
        crate::engine::program::quad_vertex_source()
    }

    /// The complete fragment shader the GPU compiles for a WebGL kernel and semiring.
    #[wasm_bindgen(js_name = programSource)]
    pub fn program_source(
        #[wasm_bindgen(unchecked_param_type = "KernelName")] name: JsValue,
        #[wasm_bindgen(
            unchecked_optional_param_type = "\"ordinary\" | \"boolean\" | \"min-plus\""
        )]
        semiring: JsValue,
    ) -> JsResult<String> {
        let source = || {
            let (kernel, semiring) = kernel_and_semiring(&name, &semiring)?;
            let other = match kernel.backend() {
                Backend::WebGl => None,
                Backend::WebGpu => Some(
                    "a WebGPU kernel; gpu.shaderSource(kernel) gives the WGSL a device compiles",
                ),
                Backend::Cpu => Some(
                    "the CPU kernel, Rust rather than a shader; Gpgpu.kernelSource('simd') \
                     gives its source",
                ),
            };
            if let Some(what) = other {
                return Err(GpgpuError::BadArgument {
                    name: "kernel".into(),
                    detail: format!("'{}' is {what}", kernel.name()),
                });
            }
            Ok(ProductProgram { kernel, semiring }.fragment_source())
        };
        source().map_err(to_js_error)
    }

    /// The complete shader this device compiles for a kernel of its backend and a
    /// semiring, for an n × n product (n: 1024 when absent; on WebGPU the register
    /// kernel's form and tile sizes depend on the device and on n).
    #[wasm_bindgen(js_name = shaderSource)]
    pub fn shader_source(
        &self,
        #[wasm_bindgen(unchecked_param_type = "KernelName | \"auto\"")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SemiringName")] semiring: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] n: JsValue,
    ) -> JsResult<String> {
        let source = || {
            let (kernel, semiring, n) = self.shader_choice(&name, &semiring, &n)?;
            Ok(self.gpu.engine().product_source(kernel, semiring, n))
        };
        source().map_err(to_js_error)
    }

    /// The file (as `Gpgpu.kernels()` lists them) of the shader `shaderSource` gives:
    /// for the register kernel on WebGPU, the form this device runs for an n × n
    /// product (n: 1024 when absent).
    #[wasm_bindgen(js_name = shaderFile)]
    pub fn shader_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "KernelName | \"auto\"")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] n: JsValue,
    ) -> JsResult<String> {
        let file = || {
            let (kernel, _, n) = self.shader_choice(&name, &JsValue::UNDEFINED, &n)?;
            Ok(self.gpu.engine().product_file(kernel, n).to_string())
        };
        file().map_err(to_js_error)
    }
}

export! {
    #[doc = " The kernel `auto` picks for an n×n product on this device."]
    default_kernel defaultKernel as "KernelName" -> JsResult<String>;
    [&self] (n: "number") => {
        let pick = || {
            let n = self.lookup_size(&n)?;
            let k = self.gpu.engine().choose_kernel(None, Shape::square(n))?;
            Ok(k.name().to_string())
        };
        pick().map_err(to_js_error)
    }
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// Live GPU objects created by this instance (for leak checks): WebGL textures,
    /// framebuffers, …; WebGPU buffers, pipelines, bind groups, query sets.
    #[wasm_bindgen(js_name = liveObjects, unchecked_return_type = "LiveObjects")]
    pub fn live_objects(&self) -> Object {
        let o = Object::new();
        for (k, v) in self.gpu.live_objects() {
            set(&o, k, v);
        }
        o
    }

    /// Fill outputs with `value` (e.g. NaN) before every pass, so unwritten elements
    /// show; `null` turns it off. For tests and debugging.
    #[wasm_bindgen(js_name = setPoison)]
    pub fn set_poison(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | null")] value: JsValue,
    ) -> JsResult<()> {
        let poison = if value.is_null() || value.is_undefined() {
            None
        } else {
            let v = number_arg("value", &value).map_err(to_js_error)?;
            Some(args::f32_value("value", v).map_err(to_js_error)?)
        };
        self.gpu.set_poison(poison);
        Ok(())
    }

    /// Frees pooled GPU memory now rather than at its next reuse.
    pub fn trim(&self) {
        self.gpu.engine().trim();
    }

    /// The canvas the WebGL context lives on (null on WebGPU).
    #[wasm_bindgen(
        getter,
        unchecked_return_type = "CanvasElement | OffscreenCanvas | null"
    )]
    pub fn canvas(&self) -> JsValue {
        match &mut *self.gpu.engine() {
            Engine::WebGl(e) => e.canvas().js_value(),
            Engine::WebGpu(_) | Engine::Cpu(_) => JsValue::NULL,
        }
    }

    /// The GPUDevice (null on WebGL): for interop, and for tests that destroy it
    /// to stand in for a device loss. Typed `object` in the d.ts, so that it compiles
    /// without @webgpu/types; cast it to `GPUDevice` where those types are installed.
    // Typed `object`: TypeScript's DOM library has no GPUDevice (that is @webgpu/types).
    #[wasm_bindgen(getter, unchecked_return_type = "object | null")]
    pub fn device(&self) -> JsValue {
        match &mut *self.gpu.engine() {
            Engine::WebGpu(e) => e.gpu().device().clone().into(),
            Engine::WebGl(_) | Engine::Cpu(_) => JsValue::NULL,
        }
    }
}

impl JsGpgpu {
    pub(super) fn start_heatmap(
        &self,
        rows: &JsValue,
        cols: &JsValue,
        data: &JsValue,
        canvas: &JsValue,
        style: &JsValue,
    ) -> Result<crate::ops::heatmap::PendingDraw> {
        // A side past the device's matrix limit (WebGL's texture side, the CPU's 16384)
        // is coloured here instead of refused: the picture needs only the canvas's
        // pixels (crate::ops::heatmap::heatmap_here).
        let side = |name: &str, value: &JsValue| -> Result<(usize, bool)> {
            let value = number_arg(name, value)?;
            match self.gpu.dim(name, value) {
                Err(e) if e.code() == "SIZE_OVER_LIMIT" => {
                    Ok((crate::work::tiled_dimension(name, value)?, true))
                }
                side => side.map(|d| (d, false)),
            }
        };
        let (rows, rows_past) = side("rows", rows)?;
        let (cols, cols_past) = side("cols", cols)?;
        let data = matrix_arg("data", data)?;
        let shape = Shape::new(rows, cols);
        shape::check_len("data", shape, data.len())?;
        let canvas = canvas_arg(canvas)?;
        let (style, range) = style_arg(style)?;
        // The range of the data as given (finite values only), as the page expects; at
        // least f32::MIN_POSITIVE, as the backends take an all-zero matrix's 0 (a range
        // must be > 0: Style::check).
        let range = range.or_else(|| {
            Some(
                data.iter()
                    .filter(|v| v.is_finite())
                    .fold(f32::MIN_POSITIVE, |a, v| a.max(v.abs())),
            )
        });
        if rows_past || cols_past {
            return crate::ops::heatmap::heatmap_here(shape, &data, &canvas, range, style);
        }
        let mut e = self.gpu.engine();
        let layout = match e.backend() {
            Backend::WebGl => crate::plan::layout::Layout::Scalar,
            Backend::WebGpu | Backend::Cpu => crate::plan::layout::Layout::Linear,
        };
        let m = e.upload(shape, layout, &data, 0.0)?;
        let drawn = e.heatmap(&m, &canvas, range, style);
        e.recycle(m);
        drawn
    }
}

/// A kernel name and an optional semiring name.
fn kernel_and_semiring(name: &JsValue, semiring: &JsValue) -> Result<(Kernel, Semiring)> {
    let kernel = kernel_arg(&string_arg("kernel", name, &kernel_names())?)?;
    let semiring = match semiring.is_undefined() {
        true => Semiring::Ordinary,
        false => {
            let s = string_arg("semiring", semiring, SEMIRING_NAMES)?;
            Semiring::parse(&s).ok_or_else(|| GpgpuError::BadArgument {
                name: "semiring".into(),
                detail: format!("unknown semiring '{s}'; use {SEMIRING_NAMES}"),
            })?
        }
    };
    Ok((kernel, semiring))
}

pair! {
    #[doc = " R = M·M for an n×n row-major Float32Array. WebGL and the CPU (WebGPU: squareAsync)."]
    square square -> Float32Array as "Float32Array";
    #[doc = " Like `square`, without blocking: WebGL reads back through a pixel-pack buffer"]
    #[doc = " and a fence, WebGPU through mapAsync."]
    square_async squareAsync as "Promise<Float32Array>";
    (n: "number", m: "Matrix"; options: "ProductOptions") => products::square
}

pair! {
    #[doc = " A·B with A rows×inner and B inner×cols. WebGL and the CPU (WebGPU: multiplyAsync)."]
    multiply multiply -> Float32Array as "Float32Array";
    #[doc = " Like `multiply`, without blocking."]
    multiply_async multiplyAsync as "Promise<Float32Array>";
    (rows: "number", inner: "number", cols: "number", a: "Matrix", b: "Matrix"; options: "ProductOptions") => products::multiply
}

pair! {
    #[doc = " M^(2^times): `times` squarings chained on the GPU; times = 0 returns M."]
    square_repeatedly squareRepeatedly -> Float32Array as "Float32Array";
    #[doc = " Like `squareRepeatedly`, without blocking."]
    square_repeatedly_async squareRepeatedlyAsync as "Promise<Float32Array>";
    (n: "number", m: "Matrix", times: "number"; options: "ProductOptions") => products::repeat
}

pair! {
    #[doc = " M^p for a whole p >= 0 by binary exponentiation; p = 0 gives the identity."]
    power power -> Float32Array as "Float32Array";
    #[doc = " Like `power`, without blocking."]
    power_async powerAsync as "Promise<Float32Array>";
    (n: "number", m: "Matrix", p: "number"; options: "ProductOptions") => products::power
}

pair! {
    #[doc = " Draws any rows×cols array (e.g. |GPU − double|) as a heatmap on `canvas`,"]
    #[doc = " through the same colour map. Returns { blockRows, blockCols, stride }."]
    #[doc = " WebGL and the CPU (WebGPU: drawHeatmapAsync)."]
    draw_heatmap drawHeatmap -> Object as "HeatmapDrawn";
    #[doc = " Like `drawHeatmap`, on either backend: resolves once the picture is on the"]
    #[doc = " canvas (WebGPU colours it in a compute pass and sends only the pixels back)."]
    draw_heatmap_async drawHeatmapAsync as "Promise<HeatmapDrawn>";
    (rows: "number", cols: "number", data: "Matrix", canvas: "CanvasElement | OffscreenCanvas"; style: "HeatmapStyle") => products::heatmap
}

impl JsGpgpu {
    /// The n of `defaultKernel`, `shaderSource` and `shaderFile`: any size a product
    /// takes; past the device's limit a product runs in tiles of that limit, so the
    /// answer is the one for such a tile.
    fn lookup_size(&self, n: &JsValue) -> Result<usize> {
        let n = work::tiled_dimension("n", number_arg("n", n)?)?;
        Ok(n.min(self.gpu.max_dimension()))
    }

    /// The kernel, semiring and size `shaderSource` / `shaderFile` are asked about:
    /// 'auto' is the kernel the rule picks for an n × n product; n defaults to 1024.
    fn shader_choice(
        &self,
        name: &JsValue,
        semiring: &JsValue,
        n: &JsValue,
    ) -> Result<(Kernel, Semiring, usize)> {
        let n = match n.is_undefined() {
            true => 1024,
            false => self.lookup_size(n)?,
        };
        let engine = self.gpu.engine();
        let auto = format!("'auto' or {}", kernel_names());
        let (kernel, semiring) = match string_arg("kernel", name, &auto)?.as_str() {
            "auto" => {
                let (_, semiring) = kernel_and_semiring(&"naive".into(), semiring)?;
                (engine.choose_kernel(None, Shape::square(n))?, semiring)
            }
            _ => kernel_and_semiring(name, semiring)?,
        };
        engine.choose_kernel(Some(kernel), Shape::square(1))?;
        Ok((kernel, semiring, n))
    }
}
