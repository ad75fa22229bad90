//! Compute pipelines made from WGSL source, and bind groups of buffers. Neither has
//! a destroy() in WebGPU (the browser frees them when unreferenced); they are
//! counted all the same, so a leak of them shows in the live counts.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    GpuAutoLayoutMode, GpuBindGroup, GpuBindGroupDescriptor, GpuBindGroupEntry, GpuBindGroupLayout,
    GpuBindGroupLayoutDescriptor, GpuBindGroupLayoutEntry, GpuBufferBinding,
    GpuBufferBindingLayout, GpuBufferBindingType, GpuComputePipeline, GpuComputePipelineDescriptor,
    GpuPipelineLayoutDescriptor, GpuProgrammableStage, GpuShaderModuleDescriptor,
};

use super::{Buffer, Gpu};
use crate::error::Result;

/// How a binding of an explicit layout is bound. A supplied program (a learner's)
/// gets one: WebGPU's automatic layout leaves out every binding the shader does not
/// use, and a bind group naming it is then invalid, so an unfinished kernel that
/// ignores one input could not run at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// `var<storage, read>`
    Read,
    /// `var<storage, read_write>`
    ReadWrite,
    /// `var<uniform>`
    Uniform,
}

/// GPUShaderStage.COMPUTE
const COMPUTE: u32 = 4;

pub struct ComputePipeline {
    gpu: Gpu,
    raw: GpuComputePipeline,
    layout: GpuBindGroupLayout,
    name: String,
}

impl ComputePipeline {
    /// Compiles `source` (entry point `main`) with override `constants`. Compilation
    /// errors come with `getCompilationInfo()`'s messages at the next readback (or
    /// now, through [`ComputePipeline::compile`]).
    /// `layout`: group 0's bindings 0, 1, … as listed (None: WebGPU's automatic one).
    pub fn new(
        gpu: &Gpu,
        name: &str,
        source: &str,
        constants: &[(&str, f64)],
        layout: Option<&[Access]>,
    ) -> ComputePipeline {
        let device = gpu.device();
        let (raw, layout) = gpu
            .checks()
            .scoped(device, &format!("compiling {name}"), || {
                let descriptor = descriptor(gpu, name, source, constants, true, layout);
                let raw = device.create_compute_pipeline(&descriptor);
                let layout = raw.get_bind_group_layout(0);
                (raw, layout)
            });
        ComputePipeline::counted(gpu, raw, layout, name)
    }

    /// As `new`, compiled off the page's thread (`createComputePipelineAsync`): for
    /// pipelines that can wait, made while the plain ones keep running. None when the
    /// browser could not make it; its compiler's messages are not queued with the
    /// checks, so that such a failure does not fail the caller's next call (the caller
    /// goes on without the pipeline).
    pub async fn new_in_background(
        gpu: &Gpu,
        name: &str,
        source: &str,
        constants: &[(&str, f64)],
    ) -> Option<ComputePipeline> {
        let descriptor = descriptor(gpu, name, source, constants, false, None);
        let promise = gpu.device().create_compute_pipeline_async(&descriptor);
        let raw: GpuComputePipeline = JsFuture::from(promise).await.ok()?.unchecked_into();
        let layout = raw.get_bind_group_layout(0);
        Some(ComputePipeline::counted(gpu, raw, layout, name))
    }

    fn counted(
        gpu: &Gpu,
        raw: GpuComputePipeline,
        layout: GpuBindGroupLayout,
        name: &str,
    ) -> ComputePipeline {
        gpu.adjust(|c| {
            c.pipelines += 1;
            c.shader_modules += 1;
        });
        ComputePipeline {
            gpu: gpu.clone(),
            raw,
            layout,
            name: name.into(),
        }
    }

    /// As `new`, and waits for the compiler's verdict: a WGSL error is a
    /// `ShaderCompile` error carrying its messages.
    pub async fn compile(
        gpu: &Gpu,
        name: &str,
        source: &str,
        constants: &[(&str, f64)],
    ) -> Result<ComputePipeline> {
        let pipeline = ComputePipeline::new(gpu, name, source, constants, None);
        gpu.settle().await?;
        Ok(pipeline)
    }

    pub fn raw(&self) -> &GpuComputePipeline {
        &self.raw
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// A bind group of group 0 binding `buffers[i]` at binding i, whole.
    pub fn bind(&self, buffers: &[&Buffer]) -> BindGroup {
        self.bind_from(0, buffers)
    }

    /// A bind group of group 0 binding `buffers[i]` at binding `first + i`, whole (a
    /// kernel that uses only the later bindings of a shared declaration).
    pub fn bind_from(&self, first: u32, buffers: &[&Buffer]) -> BindGroup {
        let entries: Vec<GpuBindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let binding = GpuBufferBinding::new(b.raw());
                GpuBindGroupEntry::new_with_gpu_buffer_binding(first + i as u32, &binding)
            })
            .collect();
        let descriptor = GpuBindGroupDescriptor::new(&entries, &self.layout);
        let raw = self.gpu.device().create_bind_group(&descriptor);
        self.gpu.adjust(|c| c.bind_groups += 1);
        BindGroup {
            gpu: self.gpu.clone(),
            raw,
        }
    }
}

/// The pipeline descriptor of `source` (entry point `main`) with override
/// `constants`; with `check`, its shader module's compilation messages are queued
/// with the checks.
fn descriptor(
    gpu: &Gpu,
    name: &str,
    source: &str,
    constants: &[(&str, f64)],
    check: bool,
    layout: Option<&[Access]>,
) -> GpuComputePipelineDescriptor {
    let module_descriptor = GpuShaderModuleDescriptor::new(source);
    module_descriptor.set_label(name);
    let module = gpu.device().create_shader_module(&module_descriptor);
    if check {
        gpu.checks().compilation(name, &module);
    }
    let stage = GpuProgrammableStage::new(&module);
    stage.set_entry_point("main");
    if !constants.is_empty() {
        let o = Object::new();
        for (k, v) in constants {
            let _ = Reflect::set(&o, &(*k).into(), &(*v).into());
        }
        stage.set_constants(o.unchecked_ref());
    }
    let descriptor = match layout.and_then(|access| explicit(gpu, access)) {
        Some(layout) => GpuComputePipelineDescriptor::new(&layout, &stage),
        None => GpuComputePipelineDescriptor::new_with_gpu_auto_layout_mode(
            GpuAutoLayoutMode::Auto,
            &stage,
        ),
    };
    descriptor.set_label(name);
    descriptor
}

/// A pipeline layout of one group binding `access[i]` at binding i (None: the
/// browser threw, which a descriptor of these entries never makes it do; the
/// automatic layout then stands in).
fn explicit(gpu: &Gpu, access: &[Access]) -> Option<web_sys::GpuPipelineLayout> {
    let entries: Vec<GpuBindGroupLayoutEntry> = access
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let buffer = GpuBufferBindingLayout::new();
            buffer.set_type(match a {
                Access::Read => GpuBufferBindingType::ReadOnlyStorage,
                Access::ReadWrite => GpuBufferBindingType::Storage,
                Access::Uniform => GpuBufferBindingType::Uniform,
            });
            let entry = GpuBindGroupLayoutEntry::new(i as u32, COMPUTE);
            entry.set_buffer(&buffer);
            entry
        })
        .collect();
    let device = gpu.device();
    let group = device
        .create_bind_group_layout(&GpuBindGroupLayoutDescriptor::new(&entries))
        .ok()?;
    let groups = [JsValue::from(group).unchecked_into()];
    Some(device.create_pipeline_layout(&GpuPipelineLayoutDescriptor::new(&groups)))
}

impl Drop for ComputePipeline {
    fn drop(&mut self) {
        self.gpu.adjust(|c| {
            c.pipelines -= 1;
            c.shader_modules -= 1;
        });
    }
}

pub struct BindGroup {
    gpu: Gpu,
    raw: GpuBindGroup,
}

impl BindGroup {
    pub fn raw(&self) -> &GpuBindGroup {
        &self.raw
    }
}

impl Drop for BindGroup {
    fn drop(&mut self) {
        self.gpu.adjust(|c| c.bind_groups -= 1);
    }
}
