//! Pieces that several operations' shaders share: GLSL's first lines, its layout
//! and atlas addressing, WGSL's atlas addressing, and the workgroup grid of a pass
//! over a list.

use crate::engine::program::{FragmentProgram, ProgramId};
use crate::plan::layout::Layout;

pub use crate::engine::program::{GLSL_HEADER as HEADER, QUAD_VERT};
pub use crate::engine::webgpu::line_workgroups;

pub const LAYOUT_GLSL: &str = include_str!("../../glsl/common/layout.glsl");
/// Addressing of tiles in an atlas, prepended to the programs that read atlases.
pub const ATLAS_GLSL: &str = include_str!("../../glsl/common/atlas.glsl");

pub fn layout_name(layout: Layout) -> String {
    match layout {
        Layout::Scalar => "scalar".into(),
        Layout::Packed { planes } => format!("packed{planes}"),
        Layout::Linear => "linear".into(),
    }
}

pub fn layout_define(layout: Layout) -> String {
    let planes = match layout {
        Layout::Scalar | Layout::Linear => 0,
        Layout::Packed { planes } => planes,
    };
    format!("#define LAYOUT_PLANES {planes}\n")
}

/// Addressing of tiles in an atlas, prepended to the kernels that read atlases.
pub const ATLAS_WGSL: &str = crate::common::shader!("wgsl/common/atlas.wgsl");

/// A fragment program of the library's compiled for matrices in one layout: the
/// layout's define, then `body`.
#[derive(Clone, Copy)]
pub struct InLayout {
    pub name: &'static str,
    pub body: fn() -> String,
    pub layout: Layout,
}

impl FragmentProgram for InLayout {
    fn id(&self) -> ProgramId {
        ProgramId::of(self.name, &self.layout)
    }

    fn name(&self) -> String {
        format!("{}/{}", self.name, layout_name(self.layout))
    }

    fn fragment_source(&self) -> String {
        format!("{HEADER}{}{}", layout_define(self.layout), (self.body)())
    }
}
