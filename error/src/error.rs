//! The library's one error type. Every variant is something a caller can act on,
//! and its message says what went wrong and what to do about it.

use std::fmt;

/// What to do about a WebGPU device limit.
pub const WEBGPU_LIMIT_HINT: &str = "Use a smaller matrix (the device's limits are in info()), \
     or the WebGL backend, whose limit is the texture size; the plain and Async products cut \
     matrices past the limit into tiles, step-through runs do not.";

/// What limits a matrix side on the CPU backend, and what to do about it: a cap on
/// each side, whatever the other side (a 100000 x 1 matrix is 400 KB, and over it),
/// not the memory a call holds, which is checked besides with its own message.
pub const CPU_LIMIT_HINT: &str = "The CPU backend uses no GPU; it takes matrices of at \
     most 16384 rows and 16384 columns, whatever the other side, so that one matrix stays \
     within 1 GiB of WebAssembly's 4 GiB of memory (what a whole call holds, with the \
     copies it makes, is checked besides: a product of n x n matrices fits up to \
     n = 12,900 or so). Use sides of at most 16384; the plain and Async products cut \
     matrices past that into tiles, step-through runs do not.";

/// Why a dimension or count given by the caller was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum NumberProblem {
    NotFinite,
    NotInteger,
    Negative,
    Zero,
    TooLarge { limit: f64 },
}

#[derive(Clone, Debug, PartialEq)]
pub enum GpgpuError {
    /// The browser could not give a WebGL2 context.
    NoWebGl2 { detail: String },
    /// Float32 textures cannot be rendered to (extension missing or the
    /// framebuffer-completeness probe failed).
    NoFloatRenderTarget { detail: String },
    /// A dimension is larger than what this GPU accepts for a texture or viewport.
    SizeOverLimit {
        name: String,
        value: f64,
        limit: usize,
    },
    /// A dimension that is not a positive integer.
    BadDimension {
        name: String,
        value: f64,
        problem: NumberProblem,
    },
    /// A count (an exponent, a repeat count, a block size, a batch) that is not a whole
    /// number from `min` to `max`.
    BadCount {
        name: String,
        value: f64,
        problem: NumberProblem,
        min: u64,
        max: f64,
    },
    /// An array whose length does not match the shape it was given with.
    BadLength {
        name: String,
        rows: usize,
        cols: usize,
        actual: usize,
    },
    /// A list that is no matrix (a vector, a Csr's arrays, a tridiagonal matrix's
    /// diagonals) whose length is not the one it must have: `expected` entries, and
    /// `why` (the rule, and where `expected` comes from). The same code as
    /// [`GpgpuError::BadLength`].
    BadListLength {
        name: String,
        /// In u64: a length a product of sizes gives (n · nrhs) may pass a wasm32 usize.
        expected: u64,
        actual: usize,
        why: String,
    },
    /// An argument of the wrong kind (not a typed array, unknown option value, ...).
    BadArgument { name: String, detail: String },
    /// A shader failed to compile; carries the compiler's messages (the GLSL info
    /// log; WGSL's as `line:column message`, joined by "; ").
    ShaderCompile {
        program: String,
        stage: &'static str,
        log: String,
    },
    /// A program failed to link; carries the driver's info log.
    ProgramLink { program: String, log: String },
    /// The WebGL context is lost (GPU reset, driver update, too many contexts, or
    /// WEBGL_lose_context). Resources are rebuilt once it is restored.
    ContextLost,
    /// The Gpgpu was freed (dropped) while work it started (an async call, a run) was
    /// in flight, or before a call made through its `Handle` or on a `Run` of it
    /// (neither keeps it alive).
    Freed,
    /// A Gpgpu was freed (dropped) before a call that needed it: `what` names it (a
    /// part of a `Devices` split).
    FreedBefore { what: String },
    /// An argument that is one of the library's objects (a Csr, a BlockSparse, a
    /// Gpgpu of a Devices) was freed before the call: FREED, as a method of it is.
    FreedArgument { name: String, detail: String },
    /// The context was lost (and maybe restored) after a step-by-step run uploaded its
    /// inputs: the run's textures are gone, so it must be started again.
    RunOutlivedContext,
    /// The GPU refused an operation for a reason not covered above (e.g. out of memory).
    Gl { detail: String },
    /// The browser offers no WebGPU (no `navigator.gpu`, or no adapter).
    NoWebGpu { detail: String },
    /// The WebGPU device was lost (`device.lost`: a driver reset, the GPU taken
    /// away, or `device.destroy()`). The next call makes a new device.
    DeviceLost { detail: String },
    /// The WebGPU device was lost after a step-by-step run uploaded its inputs: the
    /// run's buffers are gone, so it must be started again.
    RunOutlivedDevice,
    /// A size over a limit: one of the WebGPU device's (buffer size, binding size,
    /// workgroups per dimension), the largest texture or atlas side, or what
    /// WebAssembly memory holds. `hint` says what to do.
    DeviceLimit {
        what: String,
        needed: f64,
        unit: &'static str,
        limit_name: &'static str,
        limit: f64,
        hint: &'static str,
    },
    /// Memory ran out: the GPU's (WebGPU, caught by an error scope) or
    /// WebAssembly's (an allocation that memory could not give, refused before it
    /// aborted). `detail` says which, and for what.
    OutOfMemory { detail: String },
    /// WebGPU reported an error not covered above (a validation or internal error).
    WebGpu { detail: String },
    /// A blocking call on a backend that cannot block (WebGPU reads back only
    /// through promises): `call` names the method, `instead` its Async form.
    NeedsAsync {
        call: &'static str,
        instead: &'static str,
    },
    /// A CPU worker failed (a script error, a message it could not read, a trap in
    /// its WebAssembly) or could not be started.
    Worker { detail: String },
}

pub type Result<T> = std::result::Result<T, GpgpuError>;

impl GpgpuError {
    /// A stable, machine-readable name of the variant (JavaScript gets it as `error.code`).
    pub fn code(&self) -> &'static str {
        match self {
            GpgpuError::NoWebGl2 { .. } => "NO_WEBGL2",
            GpgpuError::NoFloatRenderTarget { .. } => "NO_FLOAT_RENDER_TARGET",
            GpgpuError::SizeOverLimit { .. } => "SIZE_OVER_LIMIT",
            GpgpuError::BadDimension { .. } => "BAD_DIMENSION",
            GpgpuError::BadCount { .. } => "BAD_COUNT",
            GpgpuError::BadLength { .. } | GpgpuError::BadListLength { .. } => "BAD_LENGTH",
            GpgpuError::BadArgument { .. } => "BAD_ARGUMENT",
            GpgpuError::ShaderCompile { .. } => "SHADER_COMPILE",
            GpgpuError::ProgramLink { .. } => "PROGRAM_LINK",
            GpgpuError::ContextLost | GpgpuError::RunOutlivedContext => "CONTEXT_LOST",
            GpgpuError::Freed
            | GpgpuError::FreedBefore { .. }
            | GpgpuError::FreedArgument { .. } => "FREED",
            GpgpuError::Gl { .. } => "GL_ERROR",
            GpgpuError::NoWebGpu { .. } => "NO_WEBGPU",
            GpgpuError::DeviceLost { .. } | GpgpuError::RunOutlivedDevice => "DEVICE_LOST",
            GpgpuError::DeviceLimit { .. } => "SIZE_OVER_LIMIT",
            GpgpuError::OutOfMemory { .. } => "OUT_OF_MEMORY",
            GpgpuError::WebGpu { .. } => "WEBGPU_ERROR",
            GpgpuError::NeedsAsync { .. } => "NEEDS_ASYNC",
            GpgpuError::Worker { .. } => "WORKER_ERROR",
        }
    }
}

/// An empty Vec with room for `len` values, asked for without aborting: a failed
/// allocation aborts, a trap (RuntimeError: unreachable) that leaves the page's
/// library unusable, where wasm memory's 4 GiB, shared with every object the page
/// holds, cannot give it. `what` names the copy in the OUT_OF_MEMORY error.
pub fn room<T>(len: usize, what: impl FnOnce() -> String) -> Result<Vec<T>> {
    let mut v = Vec::new();
    match v.try_reserve_exact(len) {
        Ok(()) => Ok(v),
        Err(_) => Err(GpgpuError::OutOfMemory {
            detail: format!(
                "WebAssembly ran out of memory: {}, {}, does not fit beside what the \
                 page holds there (4 GiB at most)",
                what(),
                bytes_text(len as f64 * std::mem::size_of::<T>() as f64)
            ),
        }),
    }
}

/// `len` copies of `value`, asked for as [`room`] asks (OUT_OF_MEMORY, not an abort,
/// where wasm memory cannot give them): `vec![value; len]` for a readback's buffer.
pub fn filled<T: Clone>(len: usize, value: T, what: impl FnOnce() -> String) -> Result<Vec<T>> {
    let mut v = room(len, what)?;
    v.resize(len, value);
    Ok(v)
}

/// A byte count as people read it, with the exact count beside it: "2 GiB
/// (2,147,483,648 bytes)", "3.81 GiB (4,096,000,000 bytes)", "512 bytes". Limits
/// printed as 2147483648 bytes had to be counted to be read as 2 GiB.
pub fn bytes_text(bytes: f64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let Some((unit, scale)) = (1..=UNITS.len())
        .rev()
        .map(|k| (UNITS[k - 1], 1024f64.powi(k as i32)))
        .find(|&(_, scale)| bytes.abs() >= scale)
        // Past 1024 TiB (a size no device has), the count alone.
        .filter(|&(_, scale)| bytes.abs() < scale * 1024.0)
    else {
        return format!("{} bytes", js_number(bytes));
    };
    // Three significant digits, trailing zeros dropped: 2, 3.81, 37.3, 1000.
    let v = bytes / scale;
    let digits = if v.abs() >= 100.0 {
        0
    } else if v.abs() >= 10.0 {
        1
    } else {
        2
    };
    let short = crate::decimal::fixed(v, digits);
    let short = match short.contains('.') {
        true => short.trim_end_matches('0').trim_end_matches('.'),
        false => &short,
    };
    format!("{short} {unit} ({} bytes)", grouped(bytes))
}

/// A whole number with its digits in groups of three ("2,147,483,648"); a number
/// that is not one (or past what an f64 holds exactly) as JavaScript prints it.
fn grouped(v: f64) -> String {
    if v.fract() != 0.0 || v.abs() > 9_007_199_254_740_992.0 {
        return js_number(v);
    }
    let digits = format!("{}", v.abs() as u64);
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    if v < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// A number as JavaScript prints it, so a message repeats what the caller passed:
/// `Infinity` rather than `inf`, `1e+300` rather than 301 digits.
pub fn js_number(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if v != 0.0 && (v.abs() >= 1e21 || v.abs() < 1e-6) {
        let e = crate::decimal::exponential(v, None);
        match e.split_once('e') {
            Some((m, x)) if !x.starts_with('-') => format!("{m}e+{x}"),
            _ => e,
        }
    } else {
        crate::decimal::display(v)
    }
}

fn describe(problem: &NumberProblem) -> String {
    match problem {
        NumberProblem::NotFinite => "is not a finite number".into(),
        NumberProblem::NotInteger => "is not an integer".into(),
        NumberProblem::Negative => "is negative".into(),
        NumberProblem::Zero => "is 0".into(),
        NumberProblem::TooLarge { limit } => format!("is larger than {}", js_number(*limit)),
    }
}

impl fmt::Display for GpgpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpgpuError::NoWebGl2 { detail } => write!(
                f,
                "WebGL2 is not available ({detail}). Use a browser with WebGL2 enabled \
                 (check chrome://gpu or about:support), or pass a canvas that has no other context."
            ),
            GpgpuError::NoFloatRenderTarget { detail } => write!(
                f,
                "this GPU cannot render to float32 textures ({detail}). GPGPU here needs \
                 EXT_color_buffer_float; try another browser or device."
            ),
            GpgpuError::SizeOverLimit { name, value, limit } => write!(
                f,
                "{name} = {} is larger than this device's limit of {limit} \
                 (info().maxDimension: on WebGL MAX_TEXTURE_SIZE / MAX_VIEWPORT_DIMS, on \
                 the CPU 16384 rows or columns a side). Use {name} <= {limit}.",
                js_number(*value)
            ),
            // "n = 0: …", not "n = 0 is 0: …".
            GpgpuError::BadDimension {
                name,
                problem: NumberProblem::Zero,
                ..
            } => write!(f, "{name} = 0: a dimension must be a whole number >= 1.",),
            GpgpuError::BadDimension {
                name,
                value,
                problem,
            } => write!(
                f,
                "{name} = {} {}: a dimension must be a whole number >= 1.",
                js_number(*value),
                describe(problem)
            ),
            GpgpuError::BadCount {
                name,
                value,
                problem,
                min,
                max,
            } => {
                // "batch = 0: …", not "batch = 0 is 0: …".
                match problem {
                    NumberProblem::Zero => write!(f, "{name} = 0")?,
                    _ => write!(f, "{name} = {} {}", js_number(*value), describe(problem))?,
                }
                write!(
                    f,
                    ": it must be a whole number from {min} to {}.",
                    js_number(*max)
                )
            }
            GpgpuError::BadLength {
                name,
                rows,
                cols,
                actual,
            } => write!(
                f,
                "{name} has {actual} elements but a {rows}x{cols} matrix needs {}. \
                 Pass the matrix row-major, rows*cols numbers long (a Float32Array in \
                 JavaScript, a &[f32] in Rust).",
                // In u64: a huge batch's rows × cols wraps a wasm32 usize.
                *rows as u64 * *cols as u64
            ),
            GpgpuError::BadListLength {
                name,
                expected,
                actual,
                why,
            } => write!(f, "{name} has {actual} entries but needs {expected}: {why}."),
            GpgpuError::BadArgument { name, detail } => write!(f, "{name}: {detail}"),
            GpgpuError::ShaderCompile {
                program,
                stage,
                log,
            } => write!(
                f,
                "the {stage} shader of program '{program}' failed to compile: {log} (a \
                 program of your own: fix the lines named; one of the library's: a bug or a \
                 driver limitation, please report it with this log)"
            ),
            GpgpuError::ProgramLink { program, log } => write!(
                f,
                "program '{program}' failed to link: {log} (a program of your own: its \
                 shaders' inputs and outputs must match; one of the library's: please report \
                 it with this log)"
            ),
            GpgpuError::ContextLost => write!(
                f,
                "the WebGL context is lost. Wait for the canvas's 'webglcontextrestored' \
                 event and call again: GPU resources are rebuilt automatically. If the \
                 browser took it away because the page holds too many WebGL contexts \
                 (about 16), no restore comes: free the Gpgpu objects you no longer need \
                 (free() in JavaScript, drop them in Rust) and create a new one."
            ),
            GpgpuError::Freed => write!(
                f,
                "this Gpgpu was freed (free() in JavaScript, dropped in Rust) before the \
                 call, or while it was still in flight (on its GPU, or on the CPU backend's \
                 workers), and its result went with it. Free a Gpgpu only after everything \
                 it returned has settled (every promise in JavaScript, every PendingRead in \
                 Rust). In Rust a Handle (gpu.handle()) or a Run does not keep its Gpgpu \
                 alive: keep the Gpgpu itself for as long as they are used."
            ),
            GpgpuError::FreedBefore { what } => write!(
                f,
                "{what} was freed (free() in JavaScript, dropped in Rust) before this call, \
                 so it could not take its part. A Devices holds its Gpgpu objects weakly: \
                 give that device a ratio of 0, or make a new Devices without it."
            ),
            GpgpuError::FreedArgument { name, detail } => write!(f, "{name}: {detail}"),
            GpgpuError::RunOutlivedContext => write!(
                f,
                "the WebGL context was lost after this run started, and its textures went \
                 with it. Start a new run (free or drop this one); the library rebuilds its GPU \
                 resources once the canvas fires 'webglcontextrestored'."
            ),
            GpgpuError::Gl { detail } => write!(
                f,
                "the GPU refused the operation ({detail}). Try a smaller size or reload the page."
            ),
            GpgpuError::NoWebGpu { detail } => write!(
                f,
                "WebGPU is not available ({detail}). The WebGL backend works without it: \
                 Gpgpu.create({{ backend: 'webgl' }}) or new Gpgpu() in JavaScript, \
                 CreateOptions {{ backend: BackendChoice::WebGl, .. }} in Rust; 'auto' falls back to it by itself."
            ),
            GpgpuError::DeviceLost { detail } => write!(
                f,
                "the WebGPU device was lost ({detail}). Call again: the next call makes a new \
                 device (an Async call waits for it; a blocking or step call made before it \
                 is ready fails like this one). A Run started on the lost device cannot go on: \
                 start a new one."
            ),
            GpgpuError::RunOutlivedDevice => write!(
                f,
                "the WebGPU device was lost after this run started, and its buffers went with \
                 it. Start a new run (free or drop this one); the library makes a new device \
                 for it."
            ),
            GpgpuError::DeviceLimit {
                what,
                needed,
                unit,
                limit_name,
                limit,
                hint,
            } => match unit.strip_prefix("bytes") {
                // "needs 3.81 GiB (4,096,000,000 bytes) of WebAssembly memory".
                Some(rest) => write!(
                    f,
                    "{what} needs {}{rest}, over {limit_name} of {}. {hint}",
                    bytes_text(*needed),
                    bytes_text(*limit)
                ),
                None => write!(
                    f,
                    "{what} needs {} {unit}, over {limit_name} of {}. {hint}",
                    js_number(*needed),
                    js_number(*limit)
                ),
            },
            GpgpuError::OutOfMemory { detail } => write!(
                f,
                "{detail}. Free what you no longer need (Run, Gpgpu, Csr, Tridiagonal and \
                 BlockSparse objects: free() in JavaScript, drop in Rust; trim() empties the \
                 pool) or use smaller matrices."
            ),
            GpgpuError::WebGpu { detail } => write!(
                f,
                "WebGPU reported an error ({detail}). This is a bug or a driver limitation; \
                 please report it with this message."
            ),
            GpgpuError::NeedsAsync { call, instead } => write!(
                f,
                "{call} waits for the GPU, which a WebGPU device cannot do (its results come \
                 back only through promises): use {instead} (await it in JavaScript; in Rust \
                 the async method of the same name), or a Gpgpu on the WebGL backend."
            ),
            GpgpuError::Worker { detail } => write!(
                f,
                "a CPU worker failed ({detail}). The call's work was dropped and its workers \
                 ended; the next call starts new ones."
            ),
        }
    }
}

impl std::error::Error for GpgpuError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_javascript_prints_them() {
        assert_eq!(js_number(f64::INFINITY), "Infinity");
        assert_eq!(js_number(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(js_number(f64::NAN), "NaN");
        assert_eq!(js_number(1e300), "1e+300");
        assert_eq!(js_number(2.5e-7), "2.5e-7");
        assert_eq!(js_number(4294967300.0), "4294967300");
        assert_eq!(js_number(-3.0), "-3");
        assert_eq!(js_number(0.5), "0.5");
        assert_eq!(js_number(0.0), "0");
    }

    #[test]
    fn room_memory_cannot_give_is_out_of_memory() {
        let e = filled(usize::MAX / 2, 0f32, || "a readback".into()).unwrap_err();
        assert_eq!(e.code(), "OUT_OF_MEMORY");
        assert!(e.to_string().contains("a readback, "), "{e}");
        assert_eq!(filled(3, 1u8, String::new).unwrap(), [1, 1, 1]);
    }

    #[test]
    fn byte_counts_read_in_binary_units_with_the_exact_count() {
        assert_eq!(bytes_text(2147483648.0), "2 GiB (2,147,483,648 bytes)");
        assert_eq!(bytes_text(2147483647.0), "2 GiB (2,147,483,647 bytes)");
        assert_eq!(bytes_text(4096e6), "3.81 GiB (4,096,000,000 bytes)");
        assert_eq!(
            bytes_text(256.0 * 1024.0 * 1024.0),
            "256 MiB (268,435,456 bytes)"
        );
        assert_eq!(bytes_text(1536.0), "1.5 KiB (1,536 bytes)");
        assert_eq!(
            bytes_text(40.0 * 1024f64.powi(4)),
            "40 TiB (43,980,465,111,040 bytes)"
        );
        assert_eq!(bytes_text(512.0), "512 bytes");
        assert_eq!(bytes_text(1e300), "1e+300 bytes");
        assert_eq!(bytes_text(f64::INFINITY), "Infinity bytes");
    }

    #[test]
    fn messages_say_what_and_what_to_do() {
        let e = GpgpuError::BadLength {
            name: "m".into(),
            rows: 3,
            cols: 3,
            actual: 8,
        };
        let s = e.to_string();
        assert!(s.contains("8 elements") && s.contains("needs 9"), "{s}");
        // Rust callers read these too: each names the Rust way beside the JavaScript one.
        assert!(s.contains("&[f32] in Rust"), "{s}");
        for e in [GpgpuError::ContextLost, GpgpuError::Freed] {
            assert!(e.to_string().contains("in Rust"), "{e}");
        }
        // A Handle used after its Gpgpu was dropped meets Freed before any work is in
        // flight: the message must cover that and say what keeps the Gpgpu alive.
        let freed = GpgpuError::Freed.to_string();
        assert!(freed.contains("before the call"), "{freed}");
        assert!(
            freed.contains("a Handle (gpu.handle()) or a Run does not keep"),
            "{freed}"
        );
        assert_eq!(e.code(), "BAD_LENGTH");
        let e = GpgpuError::SizeOverLimit {
            name: "n".into(),
            value: 4294967300.0,
            limit: 8192,
        };
        let s = e.to_string();
        assert!(
            s.contains("n = 4294967300 is") && s.contains("n <= 8192"),
            "{s}"
        );
        assert!(GpgpuError::ContextLost
            .to_string()
            .contains("webglcontextrestored"));
        let e = GpgpuError::DeviceLimit {
            what: "a 20000x20000 matrix".into(),
            needed: 1.6e9,
            unit: "bytes",
            limit_name: "this WebGPU device's maxStorageBufferBindingSize",
            limit: 1073741824.0,
            hint: WEBGPU_LIMIT_HINT,
        };
        assert_eq!(e.code(), "SIZE_OVER_LIMIT");
        assert!(
            e.to_string().contains(
                "a 20000x20000 matrix needs 1.49 GiB (1,600,000,000 bytes), over this WebGPU \
                 device's maxStorageBufferBindingSize of 1 GiB (1,073,741,824 bytes)."
            ),
            "{e}"
        );
        let e = GpgpuError::NeedsAsync {
            call: "square",
            instead: "squareAsync",
        };
        assert!(
            e.to_string().starts_with("square waits") && e.to_string().contains("use squareAsync"),
            "{e}"
        );
        assert!(GpgpuError::NoWebGpu { detail: "x".into() }
            .to_string()
            .contains("'webgl'"));
    }
}
