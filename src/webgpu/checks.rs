//! WebGPU reports most errors later, on promises: an error scope popped around a
//! call, a shader module's compilation info, the device's uncaptured-error event.
//! `Checks` collects those promises as they are made (in synchronous code) and
//! `settle` awaits them at the next point that waits anyway (a readback), turning
//! the first error into a GpgpuError with WebGPU's own message.

use crate::plan::decimal::display;
use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    GpuCompilationInfo, GpuCompilationMessage, GpuCompilationMessageType, GpuDevice, GpuError,
    GpuErrorFilter,
};

use crate::error::{GpgpuError, Result};

enum Check {
    /// An error scope around `what`; `filter` says which kind it catches.
    Scope {
        what: String,
        filter: GpuErrorFilter,
        popped: Promise,
    },
    /// The compilation info of the WGSL program `program`.
    Compile { program: String, info: Promise },
}

/// Pending checks, plus errors that arrived outside any scope.
#[derive(Default)]
pub struct Checks {
    pending: RefCell<Vec<Check>>,
    uncaptured: Rc<RefCell<Vec<String>>>,
}

impl Checks {
    /// Runs `f` inside error scopes for out-of-memory and validation errors; they are
    /// checked at the next `settle`.
    pub fn scoped<T>(&self, device: &GpuDevice, what: &str, f: impl FnOnce() -> T) -> T {
        device.push_error_scope(GpuErrorFilter::OutOfMemory);
        device.push_error_scope(GpuErrorFilter::Validation);
        let value = f();
        let mut pending = self.pending.borrow_mut();
        // Scopes pop in reverse order of their push.
        for filter in [GpuErrorFilter::Validation, GpuErrorFilter::OutOfMemory] {
            pending.push(Check::Scope {
                what: what.into(),
                filter,
                popped: device.pop_error_scope().unchecked_into(),
            });
        }
        value
    }

    /// Checks a shader module's compilation messages at the next `settle`.
    pub fn compilation(&self, program: &str, module: &web_sys::GpuShaderModule) {
        self.pending.borrow_mut().push(Check::Compile {
            program: program.into(),
            info: module.get_compilation_info().unchecked_into(),
        });
    }

    /// Where the device's `uncapturederror` handler puts its messages.
    pub fn uncaptured(&self) -> Rc<RefCell<Vec<String>>> {
        self.uncaptured.clone()
    }

    /// Drops the errors that arrived outside any scope: after a failure reported
    /// already, they are its consequences (a bind group of a buffer that could not
    /// be made), and left here they would fail the next call.
    pub fn forget_uncaptured(&self) {
        self.uncaptured.borrow_mut().clear();
    }

    /// Awaits every pending check; the first error found is returned (the others
    /// are dropped: they are usually its consequences).
    pub async fn settle(&self) -> Result<()> {
        let pending: Vec<Check> = self.pending.borrow_mut().drain(..).collect();
        let mut first: Option<GpgpuError> = None;
        for check in pending {
            let found = match check {
                Check::Scope {
                    what,
                    filter,
                    popped,
                } => match JsFuture::from(popped).await {
                    Ok(v) if v.is_null() || v.is_undefined() => None,
                    Ok(v) => {
                        let message = v.unchecked_into::<GpuError>().message();
                        Some(match filter {
                            GpuErrorFilter::OutOfMemory => GpgpuError::OutOfMemory {
                                detail: format!("the GPU ran out of memory ({what}: {message})"),
                            },
                            _ => GpgpuError::WebGpu {
                                detail: format!("{what}: {message}"),
                            },
                        })
                    }
                    // popErrorScope rejects when the device is lost; the caller's own
                    // wait reports that.
                    Err(_) => None,
                },
                Check::Compile { program, info } => match JsFuture::from(info).await {
                    Ok(info) => compile_errors(&program, &info.unchecked_into()),
                    Err(_) => None,
                },
            };
            if first.is_none() {
                first = found;
            }
        }
        // Errors outside any scope are reported only when nothing else failed (they
        // are usually its consequences: a bind group of a buffer that could not be
        // made), and dropped either way: left here they would fail the next call.
        let uncaptured: Vec<String> = self.uncaptured.borrow_mut().drain(..).collect();
        if first.is_none() {
            first = uncaptured
                .into_iter()
                .next()
                .map(|detail| GpgpuError::WebGpu { detail });
        }
        first.map_or(Ok(()), Err)
    }
}

/// The error messages of a compilation, as "line:column message" lines, or None.
fn compile_errors(program: &str, info: &GpuCompilationInfo) -> Option<GpgpuError> {
    // Written into one String ("; " between messages): a join of a Vec<String> was
    // the only one of its type in the wasm.
    let mut log = String::new();
    for m in info.messages().iter() {
        let m = m.unchecked_into::<GpuCompilationMessage>();
        if m.type_() == GpuCompilationMessageType::Error {
            let (line, column) = (display(m.line_num()), display(m.line_pos()));
            let sep = if log.is_empty() { "" } else { "; " };
            log += &format!("{sep}{line}:{column} {}", m.message());
        }
    }
    (!log.is_empty()).then(|| GpgpuError::ShaderCompile {
        program: program.into(),
        stage: "WGSL compute",
        log,
    })
}
