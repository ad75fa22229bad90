//! Asking the browser for a GPU: `navigator.gpu.requestAdapter()`, then
//! `adapter.requestDevice()` with the adapter's own maxima as required limits (the
//! defaults would cap a storage buffer at 128 MiB), and what the adapter says of
//! itself.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Gpu as GpuEntry, GpuAdapter, GpuAdapterInfo, GpuDevice, GpuDeviceDescriptor,
    GpuPowerPreference, GpuRequestAdapterOptions, GpuSupportedLimits,
};

use crate::common::guard::describe_js;
use crate::error::{GpgpuError, Result};

/// The limits the library asks for and checks sizes against.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuLimits {
    pub max_storage_buffer_binding_size: f64,
    pub max_buffer_size: f64,
    pub max_compute_workgroups_per_dimension: u32,
    pub max_compute_workgroup_storage_size: u32,
    pub max_compute_invocations_per_workgroup: u32,
    pub max_compute_workgroup_size_x: u32,
    pub max_compute_workgroup_size_y: u32,
}

impl GpuLimits {
    /// The largest matrix (bytes) one buffer may hold and a kernel may bind.
    pub fn max_matrix_bytes(&self) -> f64 {
        self.max_storage_buffer_binding_size
            .min(self.max_buffer_size)
    }

    /// WebGPU's guaranteed minimum limits (what a device gets when it asks for none).
    pub fn defaults() -> GpuLimits {
        GpuLimits {
            max_storage_buffer_binding_size: 134_217_728.0,
            max_buffer_size: 268_435_456.0,
            max_compute_workgroups_per_dimension: 65535,
            max_compute_workgroup_storage_size: 16384,
            max_compute_invocations_per_workgroup: 256,
            max_compute_workgroup_size_x: 256,
            max_compute_workgroup_size_y: 256,
        }
    }

    fn of(l: &GpuSupportedLimits) -> GpuLimits {
        GpuLimits {
            max_storage_buffer_binding_size: l.max_storage_buffer_binding_size(),
            max_buffer_size: l.max_buffer_size(),
            max_compute_workgroups_per_dimension: l.max_compute_workgroups_per_dimension(),
            max_compute_workgroup_storage_size: l.max_compute_workgroup_storage_size(),
            max_compute_invocations_per_workgroup: l.max_compute_invocations_per_workgroup(),
            max_compute_workgroup_size_x: l.max_compute_workgroup_size_x(),
            max_compute_workgroup_size_y: l.max_compute_workgroup_size_y(),
        }
    }

    fn as_required(&self) -> Object {
        let o = Object::new();
        for (k, v) in [
            (
                "maxStorageBufferBindingSize",
                self.max_storage_buffer_binding_size,
            ),
            ("maxBufferSize", self.max_buffer_size),
            (
                "maxComputeWorkgroupsPerDimension",
                self.max_compute_workgroups_per_dimension as f64,
            ),
            (
                "maxComputeWorkgroupStorageSize",
                self.max_compute_workgroup_storage_size as f64,
            ),
            (
                "maxComputeInvocationsPerWorkgroup",
                self.max_compute_invocations_per_workgroup as f64,
            ),
            (
                "maxComputeWorkgroupSizeX",
                self.max_compute_workgroup_size_x as f64,
            ),
            (
                "maxComputeWorkgroupSizeY",
                self.max_compute_workgroup_size_y as f64,
            ),
        ] {
            let _ = Reflect::set(&o, &k.into(), &v.into());
        }
        o
    }
}

/// What the adapter says of itself, and what the device was given.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuInfo {
    pub vendor: String,
    pub architecture: String,
    pub device: String,
    pub description: String,
    /// A software (CPU) adapter such as SwiftShader: the browser says it may be slow.
    pub fallback: bool,
    pub limits: GpuLimits,
    /// The device has 'timestamp-query': passes can be timed on the GPU.
    pub timestamp_query: bool,
    /// The adapter offers 'subgroups'.
    pub subgroups: bool,
    /// Every feature the adapter offers.
    pub features: Vec<String>,
}

impl GpuInfo {
    /// A CPU rasterizer rather than a GPU: the browser's own fallback flag, or
    /// SwiftShader by name (some browsers do not set the flag for it).
    pub fn is_software(&self) -> bool {
        self.fallback || self.architecture.contains("swiftshader")
    }
}

/// `navigator.gpu` in a window or a worker, or why there is none.
pub fn entry() -> Result<GpuEntry> {
    let no = |detail: &str| GpgpuError::NoWebGpu {
        detail: detail.into(),
    };
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into())
        .ok()
        .filter(|n| n.is_object())
        .ok_or_else(|| no("this global scope has no navigator"))?;
    let gpu = Reflect::get(&navigator, &"gpu".into()).unwrap_or(JsValue::UNDEFINED);
    if gpu.is_undefined() || gpu.is_null() {
        return Err(no(
            "navigator.gpu is missing: this browser has no WebGPU, has it switched off, or the \
             page is not a secure context (https or localhost)",
        ));
    }
    Ok(gpu.unchecked_into())
}

/// An adapter, or NoWebGpu if the browser has none to give.
pub async fn request_adapter(power: Option<GpuPowerPreference>) -> Result<GpuAdapter> {
    let gpu = entry()?;
    let options = GpuRequestAdapterOptions::new();
    if let Some(p) = power {
        options.set_power_preference(p);
    }
    let adapter = requested(
        gpu.request_adapter_with_options(&options).into(),
        "requestAdapter()",
    )
    .await?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err(GpgpuError::NoWebGpu {
            detail: "requestAdapter() gave no adapter: WebGPU is there but no GPU is usable \
                     (blocklisted, or none in this machine)"
                .into(),
        });
    }
    Ok(adapter.unchecked_into())
}

/// Whether `adapter` is a software (CPU) one, from what it says of itself (before
/// any device is asked for): the fallback flag, or SwiftShader by name.
pub fn is_software(adapter: &GpuAdapter) -> bool {
    let info: GpuAdapterInfo = adapter.info();
    let fallback = Reflect::get(&info, &"isFallbackAdapter".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    fallback || info.architecture().contains("swiftshader")
}

/// What `adapter` says of itself.
pub fn describe(adapter: &GpuAdapter, device: &GpuDevice) -> GpuInfo {
    let info: GpuAdapterInfo = adapter.info();
    // A setlike: Array.from lists it.
    let mut features: Vec<String> = js_sys::Array::from(adapter.features().as_ref())
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    crate::common::sort_short(&mut features, |a, b| a < b);
    GpuInfo {
        vendor: info.vendor(),
        architecture: info.architecture(),
        device: info.device(),
        description: info.description(),
        fallback: Reflect::get(&info, &"isFallbackAdapter".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        limits: GpuLimits::of(&device.limits()),
        timestamp_query: device.features().has("timestamp-query"),
        subgroups: features.iter().any(|f| f == "subgroups"),
        features,
    }
}

/// A device of `adapter` with the adapter's maxima for the limits the library
/// uses, and 'timestamp-query' when offered.
pub async fn request_device(adapter: &GpuAdapter) -> Result<GpuDevice> {
    let descriptor = GpuDeviceDescriptor::new();
    descriptor.set_label("gpgpu-matrix");
    let wanted = GpuLimits::of(&adapter.limits());
    descriptor.set_required_limits(wanted.as_required().unchecked_ref());
    if adapter.features().has("timestamp-query") {
        descriptor.set_required_features(&[js_sys::JsString::from("timestamp-query")]);
    }
    let device = requested(
        adapter.request_device_with_descriptor(&descriptor).into(),
        "requestDevice()",
    )
    .await?;
    Ok(device.unchecked_into())
}

/// What the promise of `call` resolves to; its rejection is NoWebGpu.
async fn requested(promise: JsValue, call: &str) -> Result<JsValue> {
    JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map_err(|e| GpgpuError::NoWebGpu {
            detail: format!("{call} failed: {}", describe_js(&e)),
        })
}

/// The power preference named in JavaScript: "low-power" or "high-performance".
pub fn power_preference(name: &str) -> Option<GpuPowerPreference> {
    match name {
        "low-power" => Some(GpuPowerPreference::LowPower),
        "high-performance" => Some(GpuPowerPreference::HighPerformance),
        _ => None,
    }
}
