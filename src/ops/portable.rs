//! The library's WGSL through the compilers other browsers use. Chromium compiles it
//! with Tint; Firefox with naga, which then writes it out as MSL on macOS and HLSL on
//! Windows; Safari with WebKit's own compiler, on Metal. Each program the WebGPU backend
//! can create (every kernel and form, semiring, tile shape and override value it uses:
//! the list of `ops::tests`) is validated by naga, given its pipeline constants as the
//! engine gives them, and translated to MSL and HLSL. A shader only Tint accepts fails
//! here.

use naga::back::{hlsl, msl, PipelineConstants};
use naga::valid::{Capabilities, ValidationFlags, Validator};
use naga::ShaderStage;

use super::tests::{compute_programs, CPU_FORMS, GPU_FORMS};
use crate::engine::program::{ComputeProgram, Wgsl};
use crate::kernels::Kernel;
use crate::ops::matmul::webgpu::{Fit, PipelineKey};
use crate::plan::semiring::Semiring;

/// Compiles `program` as Firefox would (naga's WGSL front end and validator, with no
/// optional capability: the library asks for no WebGPU feature its shaders need),
/// sets its override constants, and writes MSL and HLSL: its workgroup size, or the
/// first error in words.
fn through_naga(program: &dyn ComputeProgram) -> Result<[u32; 3], String> {
    let source = program.source();
    let module = naga::front::wgsl::parse_str(&source)
        .map_err(|e| format!("WGSL: {}", e.emit_to_string(&source)))?;
    let info = Validator::new(ValidationFlags::all(), Capabilities::empty())
        .validate(&module)
        .map_err(|e| format!("validation: {}", e.emit_to_string(&source)))?;
    let mut constants = PipelineConstants::default();
    for (name, value) in program.constants() {
        constants.insert(name, value);
    }
    let main = (ShaderStage::Compute, "main");
    let (module, info) =
        naga::back::pipeline_constants::process_overrides(&module, &info, Some(main), &constants)
            .map_err(|e| format!("pipeline constants {:?}: {e}", program.constants()))?;
    // An override without a value fails above; a workgroup size set by one is now known.
    let [entry] = &module.entry_points[..] else {
        return Err("not one entry point main".into());
    };
    if entry.workgroup_size_overrides.is_some() {
        return Err("the workgroup size is left unresolved".into());
    }
    let size = entry.workgroup_size;
    let entry_point = Some((ShaderStage::Compute, "main".to_string()));
    // What Firefox asks of naga on Metal: every access checked, out-of-bounds reads
    // zero and writes dropped (WebGPU's robustness).
    let checked = naga::proc::BoundsCheckPolicy::ReadZeroSkipWrite;
    let options = msl::Options {
        // Metal 2.1: macOS 10.14 and iOS 12, below every Safari with WebGPU.
        lang_version: (2, 1),
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: checked,
            buffer: checked,
            image_load: checked,
            binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
        },
        ..msl::Options::default()
    };
    let pipeline = msl::PipelineOptions {
        entry_point: entry_point.clone(),
        ..msl::PipelineOptions::default()
    };
    msl::write_string(&module, &info, &options, &pipeline).map_err(|e| format!("MSL: {e}"))?;
    // Shader model 5.1 (FXC): the stricter of the two compilers Chromium uses on D3D12.
    let options = hlsl::Options::default();
    let pipeline = hlsl::PipelineOptions { entry_point };
    let mut hlsl_text = String::new();
    hlsl::Writer::new(&mut hlsl_text, &options, &pipeline)
        .write(&module, &info, None)
        .map_err(|e| format!("HLSL: {e}"))?;
    Ok(size)
}

#[test]
fn every_compute_program_compiles_in_naga_and_translates_to_msl_and_hlsl() {
    let all = compute_programs(&[&GPU_FORMS[..], &CPU_FORMS].concat());
    // 3 semirings × (2 other kernels + the register forms' fits: 3 for 128 × 128, 2 for
    // 64 × 64, 3 for 64 × 32, 1 double-buffered, 2 CPU) + 3 stream-K + 3 fixups + 28
    // other programs.
    assert_eq!(
        all.len(),
        3 * (2 + 11) + 3 + 3 + 28,
        "the list changed: say so here"
    );
    let failures: Vec<String> = all
        .iter()
        .filter_map(|p| {
            through_naga(p.as_ref())
                .err()
                .map(|e| format!("{}: {e}", p.name()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn each_register_form_compiles_to_the_workgroup_the_engine_dispatches() {
    // The engine sizes its grid by `workgroup_size()`; the compiled shader's own size
    // (an override in the 64-row file) must be the same.
    for register in [&GPU_FORMS[..], &CPU_FORMS].concat() {
        for fit in [Fit::Any, Fit::Vec4, Fit::Tiles] {
            let key = PipelineKey::Product {
                kernel: Kernel::Register,
                semiring: Semiring::Ordinary,
                register,
                fit,
            };
            let (x, y) = register.workgroup_size();
            assert_eq!(through_naga(&key), Ok([x, y, 1]), "{}", key.name());
        }
    }
}

#[test]
fn naga_refuses_what_firefox_would() {
    // The checks can fail: a type error, an override the source lacks (WebGPU's
    // createComputePipeline refuses one too), an override left without a value.
    let cases = [
        (
            "@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }",
            vec![],
            "WGSL: error: the type of `x` is expected to be `u32`",
        ),
        (
            "@compute @workgroup_size(1) fn main() {}",
            vec![("TILE", 1.0)],
            "not found in the shader",
        ),
        (
            "override N: u32;\n@compute @workgroup_size(N) fn main() {}",
            vec![],
            "Missing value",
        ),
    ];
    for (source, constants, said) in cases {
        let program = Wgsl::new("bad", source).with_constants(&constants);
        let e = through_naga(&program).expect_err(source);
        assert!(e.contains(said), "{source}: {e}");
    }
    let good = Wgsl::new(
        "good",
        "override N: u32;\n@compute @workgroup_size(N) fn main() {}",
    )
    .with_constants(&[("N", 64.0)]);
    through_naga(&good).unwrap();
}

#[test]
fn the_kernel_labs_wgsl_compiles_in_naga_too() {
    // The lab's starters, reference solutions and wrong solutions (wrong in what they
    // compute, not in how they compile) run through the same pipelines as a learner's
    // kernel: each must compile where the lab is used.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/lab/exercises");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{}", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let source = std::fs::read_to_string(path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let e = through_naga(&Wgsl::new(name.clone(), source)).err()?;
            Some(format!("{name}: {e}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
