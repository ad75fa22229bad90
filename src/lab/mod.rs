//! The kernel lab's check: a learner's product kernel (GLSL for WebGL2, WGSL for
//! WebGPU, with the bindings of [`crate::ops::supplied`]) compiled, run on seeded
//! cases against the float64 reference, each case twice, and — once every case
//! passes — timed beside the library's own kernel for the same exercise. The page
//! `www/lab.html` and a course's autograder call the same [`check`].
//!
//! A learner's broken kernel is an expected input: a compile error comes back in
//! [`Compile`], not as an error. Errors are for the caller's mistakes (an unknown
//! exercise, a kernel of the other backend's language) and for a lost device or
//! context (an endless loop), after which the engine recovers on the next call.
//!
//! Above the operations and the work layer; below `api` and `js`.

pub mod cases;
pub mod data;
pub mod timing;

use crate::engine::program::{Glsl, Wgsl};
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::kernels::{Backend, Kernel};
use crate::ops::supplied::{self, Supplied};
use crate::plan::semiring::Semiring;
pub use cases::{Outcome, NO_EDGE_FROM, TOLERANCE};

/// The exercises the library checks (ids fixed: links and autograders use them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exercise {
    Square,
    Multiply,
    Global,
    Tiled,
    Register,
    Boolean,
    MinPlus,
    Batched3x3,
    BlockSparse,
    Spmv,
}

pub const EXERCISES: [Exercise; 10] = [
    Exercise::Square,
    Exercise::Multiply,
    Exercise::Global,
    Exercise::Tiled,
    Exercise::Register,
    Exercise::Boolean,
    Exercise::MinPlus,
    Exercise::Batched3x3,
    Exercise::BlockSparse,
    Exercise::Spmv,
];

impl Exercise {
    pub fn id(self) -> &'static str {
        match self {
            Exercise::Square => "square",
            Exercise::Multiply => "multiply",
            Exercise::Global => "global",
            Exercise::Tiled => "tiled",
            Exercise::Register => "register",
            Exercise::Boolean => "boolean",
            Exercise::MinPlus => "minplus",
            Exercise::Batched3x3 => "batched3x3",
            Exercise::BlockSparse => "blocksparse",
            Exercise::Spmv => "spmv",
        }
    }

    /// The exercise of `id`, else BAD_ARGUMENT listing them.
    pub fn parse(id: &str) -> Result<Exercise> {
        EXERCISES
            .into_iter()
            .find(|e| e.id() == id)
            .ok_or_else(|| GpgpuError::BadArgument {
                name: "exercise".into(),
                detail: format!(
                    "is '{id}'; the library checks {}",
                    EXERCISES.map(|e| format!("'{}'", e.id())).join(", ")
                ),
            })
    }

    /// The backend its kernel runs on: GLSL on WebGL2, WGSL on WebGPU.
    pub fn backend(self) -> Backend {
        match self {
            Exercise::Square | Exercise::Multiply => Backend::WebGl,
            _ => Backend::WebGpu,
        }
    }

    pub fn semiring(self) -> Semiring {
        match self {
            Exercise::Boolean => Semiring::Boolean,
            Exercise::MinPlus => Semiring::MinPlus,
            _ => Semiring::Ordinary,
        }
    }

    /// The library's kernel the learner's is timed against (None: the one the
    /// library picks for the size).
    pub fn library_kernel(self) -> Option<Kernel> {
        match self {
            Exercise::Square | Exercise::Multiply => Some(Kernel::Naive),
            Exercise::Global => Some(Kernel::Global),
            Exercise::Tiled => Some(Kernel::Tiled16),
            Exercise::Register => Some(Kernel::Register),
            _ => None,
        }
    }

    /// The exercises over other data than two dense matrices (their own bindings,
    /// run by the general form of [`crate::ops::supplied`]): how many inputs they
    /// bind, else None.
    pub fn data_inputs(self) -> Option<usize> {
        match self {
            Exercise::Batched3x3 => Some(2),
            Exercise::BlockSparse | Exercise::Spmv => Some(4),
            _ => None,
        }
    }

    /// The constant of the learner's source that sizes the grid of a data exercise
    /// (the matrices one workgroup computes; the rows one workgroup takes).
    fn per_group(self) -> Option<&'static str> {
        match self {
            Exercise::Batched3x3 => Some("MATRICES"),
            Exercise::Spmv => Some("WORKGROUP"),
            _ => None,
        }
    }
}

/// A compiler message at its place in the learner's source (1-based line; column
/// 0 where the compiler names none, as GLSL info logs; line 0: no line at all).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// Whether the source compiled (and linked), with the compiler's messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Compile {
    pub ok: bool,
    pub messages: Vec<Message>,
}

/// Milliseconds and GFLOP/s of one product at the timing size.
#[derive(Clone, Debug, PartialEq)]
pub struct Speed {
    pub ms: f64,
    pub gflops: f64,
}

/// The learner's kernel beside the library's (`kernel` names it).
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// The size timed: n × n × n for a product; batched: [count, 3, 3]; spmv:
    /// [rows, cols, 1].
    pub dims: [usize; 3],
    pub learner: Speed,
    pub kernel: &'static str,
    pub reference: Speed,
    /// "gpu": both timed by GPU timestamps (the passes alone); "wall": by the wall
    /// clock, where the device grants no timestamps or the caller asked for it
    /// (products: from a pass's submission to the GPU's idle, inputs resident; other
    /// data: around upload, run and readback, on both sides).
    pub clock: &'static str,
}

/// What a check found: the fields of the page's `window.labResult`.
#[derive(Clone, Debug, PartialEq)]
pub struct LabResult {
    pub exercise: Exercise,
    pub pass: bool,
    pub compile: Compile,
    pub cases: Vec<Outcome>,
    pub timing: Option<Timing>,
}

/// `check`'s options: `time` the kernel once it passes (default true); `wall_clock`
/// times it by the wall clock even where the device grants GPU timestamps (default
/// false: a course comparing devices, or a test of that path).
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    pub time: bool,
    pub wall_clock: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            time: true,
            wall_clock: false,
        }
    }
}

/// Checks `source`, the learner's kernel for `exercise`, on the engine of `handle`,
/// whose backend must be the exercise's (else BAD_ARGUMENT naming it).
pub async fn check(
    handle: &Handle,
    exercise: Exercise,
    source: &str,
    options: CheckOptions,
) -> Result<LabResult> {
    handle.ready().await?;
    let backend = handle.with(|e| Ok(e.backend()))?;
    if backend != exercise.backend() {
        return Err(GpgpuError::BadArgument {
            name: "exercise".into(),
            detail: format!(
                "'{}' is a {} kernel; this Gpgpu is {}: create one with backend '{}'",
                exercise.id(),
                if exercise.backend() == Backend::WebGl {
                    "GLSL"
                } else {
                    "WGSL"
                },
                backend.name(),
                exercise.backend().name()
            ),
        });
    }
    let failed = |messages| LabResult {
        exercise,
        pass: false,
        compile: Compile {
            ok: false,
            messages,
        },
        cases: Vec::new(),
        timing: None,
    };
    // An empty editor would be the compiler's "'' : syntax error" or a missing tile.
    if source.trim_ascii().is_empty() {
        return Ok(failed(vec![Message {
            line: 0,
            column: 0,
            message: "the kernel is empty: write it in the editor, or start again from the \
                      exercise's starter"
                .into(),
        }]));
    }
    let ran = match exercise.data_inputs() {
        Some(inputs) => data_cases(handle, exercise, source, inputs, options).await?,
        None => product_cases(handle, exercise, source, options).await?,
    };
    let (outcomes, timing) = match ran {
        Ok(ran) => ran,
        Err(messages) => return Ok(failed(messages)),
    };
    Ok(LabResult {
        exercise,
        pass: outcomes.iter().all(Outcome::passed),
        compile: Compile {
            ok: true,
            messages: Vec::new(),
        },
        cases: outcomes,
        timing,
    })
}

/// The outcomes and timing of a kernel that compiled, or the learner's messages.
type Ran = std::result::Result<(Vec<Outcome>, Option<Timing>), Vec<Message>>;

/// The learner's messages for a compile error, or for a pipeline that does not fit
/// the exercise's bindings (WebGPU reports that at a later readback or in the
/// compile's error scope); any other error stays one. A WebGPU failure on a device
/// lost meanwhile is the loss (DEVICE_LOST), not the learner's bindings: Firefox
/// fails a lost device's work before it reports the loss.
async fn learner_error(handle: &Handle, e: GpgpuError, source: &str) -> Result<Vec<Message>> {
    if let GpgpuError::WebGpu { .. } = e {
        let gpu = handle.with(|engine| Ok(engine.webgpu().map(|w| w.gpu().clone())))?;
        if let Some(gpu) = gpu {
            if gpu.lost_after_failure().await {
                return Err(gpu.gone());
            }
        }
    }
    let message = match e {
        // Named by the entry point, not the bindings, which the browser's message
        // would otherwise be read as blaming.
        GpgpuError::WebGpu { detail } if !has_main(source) => format!(
            "the exercise runs the kernel's entry point `@compute @workgroup_size(…) fn \
             main(…)`, which this kernel does not have: {detail}"
        ),
        // The pipeline's other refusals a learner meets: a workgroup over the device's
        // limits, which is no fault of the bindings (by Chromium's and Firefox's words;
        // "workgroup" alone is in any dispatch's message).
        GpgpuError::WebGpu { detail }
            if over_limit(&detail, &["workgroup storage", "workgroup memory"]) =>
        {
            format!(
                "the kernel's var<workgroup> arrays need more workgroup memory than this \
                 GPU has: make them smaller: {detail}"
            )
        }
        GpgpuError::WebGpu { detail }
            if over_limit(
                &detail,
                &["workgroup size", "workgroup_size", "workgroup invocations"],
            ) =>
        {
            format!(
                "the workgroup is larger than this GPU allows: make the sides of \
                 @workgroup_size(…) and their product smaller: {detail}"
            )
        }
        GpgpuError::WebGpu { detail } => format!(
            "the kernel does not fit the exercise's bindings (each declared as the \
             statement gives it: var<storage, read>, var<storage, read_write> or \
             var<uniform>, at its binding): {detail}"
        ),
        // A learner's draw refused: a uniform of another type than the library sets
        // (WebGL checks each call) or, in Chromium, a kernel without an output.
        GpgpuError::Gl { detail } if detail.starts_with("drawing with learner") => format!(
            "the GPU refused to draw with the kernel ({detail}): declare A and B as \
             `uniform highp sampler2D`, dims as `uniform ivec3` and the output as \
             `out vec4 result;`, as the starter does"
        ),
        e => return compile_messages(e),
    };
    Ok(vec![Message {
        line: 0,
        column: 0,
        message,
    }])
}

/// Whether a browser's message `detail` names one of `limits` (lower case).
fn over_limit(detail: &str, limits: &[&str]) -> bool {
    let detail = detail.to_ascii_lowercase();
    limits.iter().any(|l| detail.contains(l))
}

/// `source`'s lines without their `//` comments (so a declaration commented out
/// counts as missing; `/* */` comments are not looked into).
fn code_lines(source: &str) -> impl Iterator<Item = &str> {
    source
        .lines()
        .map(|l| l.find("//").map_or(l, |at| &l[..at]))
}

/// Whether a GLSL fragment kernel declares an output (`out vec4 result;`, with a
/// precision or a `layout(location = 0)` before it or not). Without one a draw writes
/// nothing, which Chromium refuses (it was GL_ERROR before this check). ASCII only:
/// `char`'s Unicode classes bring their tables into the wasm (1.5 KB).
pub fn declares_output(source: &str) -> bool {
    code_lines(source).any(|l| {
        let l = l.trim_ascii();
        let l = match l.strip_prefix("layout") {
            Some(rest) => rest
                .split_once(')')
                .map_or("", |(_, r)| r.trim_ascii_start()),
            None => l,
        };
        l.split_ascii_whitespace().next() == Some("out") && l.ends_with(';')
    })
}

/// Whether a WGSL kernel has a function `main`, the entry point the lab runs.
pub fn has_main(source: &str) -> bool {
    code_lines(source).any(|l| {
        let mut after_fn = false;
        for word in l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.is_empty() {
                continue;
            }
            if after_fn && word == "main" {
                return true;
            }
            after_fn = word == "fn";
        }
        false
    })
}

async fn product_cases(
    handle: &Handle,
    exercise: Exercise,
    source: &str,
    options: CheckOptions,
) -> Result<Ran> {
    let (program, tile) = match exercise.backend() {
        Backend::WebGl => (Supplied::Glsl(Glsl::new("learner", source)), [1, 1]),
        _ => match tile(source) {
            Ok(tile) => (
                Supplied::Wgsl {
                    program: Wgsl::new("learner", source).with_layout(&supplied::PRODUCT_LAYOUT),
                    tile,
                },
                tile,
            ),
            Err(m) => return Ok(Err(vec![m])),
        },
    };
    if let Err(e) = supplied::compile(handle, &program).await {
        return learner_error(handle, e, source).await.map(Err);
    }
    if exercise.backend() == Backend::WebGl && !declares_output(source) {
        return Ok(Err(vec![Message {
            line: 0,
            column: 0,
            message: "the kernel declares no output, so its draw writes nothing: declare \
                      `out vec4 result;` as the starter does and write C[i][j] into \
                      result.r"
                .into(),
        }]));
    }
    let mut outcomes = Vec::new();
    for (index, shape) in cases::shapes(exercise, tile).into_iter().enumerate() {
        let case = cases::case(exercise, index, shape);
        let mut runs = Vec::with_capacity(2);
        for _ in 0..2 {
            match supplied::product(handle, &program, case.dims, &case.a, &case.b).await {
                Ok(c) => runs.push(c),
                Err(e) => return learner_error(handle, e, source).await.map(Err),
            }
        }
        outcomes.push(cases::compare(exercise, &case, &runs[0], &runs[1]));
    }
    let timing = if outcomes.iter().all(Outcome::passed) && options.time {
        Some(timing::time(handle, exercise, &program, options.wall_clock).await?)
    } else {
        None
    };
    Ok(Ok((outcomes, timing)))
}

async fn data_cases(
    handle: &Handle,
    exercise: Exercise,
    source: &str,
    inputs: usize,
    options: CheckOptions,
) -> Result<Ran> {
    let per_group = match exercise.per_group() {
        Some(name) => match constant(source, name, "how the page sizes the grid") {
            Ok(v) => v,
            Err(m) => return Ok(Err(vec![m])),
        },
        None => 1,
    };
    let wgsl = Wgsl::new("learner", source).with_layout(&supplied::layout(inputs));
    if let Err(e) = supplied::compile(handle, &Supplied::Compute(wgsl.clone())).await {
        return learner_error(handle, e, source).await.map(Err);
    }
    let mut outcomes = Vec::new();
    for (index, size) in data::sizes(exercise, per_group).into_iter().enumerate() {
        let case = data::case(exercise, index, size, per_group)?;
        let mut runs = Vec::with_capacity(2);
        for _ in 0..2 {
            let inputs: Vec<&[f32]> = case.inputs.iter().map(Vec::as_slice).collect();
            let d = data::dispatch(&case, &inputs);
            match supplied::dispatch(handle, &wgsl, &d, false).await {
                Ok((got, _)) => runs.push(got),
                Err(e) => return learner_error(handle, e, source).await.map(Err),
            }
        }
        let mut outcome = cases::judge(
            case.dims,
            Semiring::Ordinary,
            case.integers,
            &case.want,
            &case.scale,
            &runs[0],
            &runs[1],
        );
        if exercise == Exercise::Spmv {
            outcome.nnz = Some(case.words[2] as usize);
        }
        outcomes.push(outcome);
    }
    let timing = if outcomes.iter().all(Outcome::passed) && options.time {
        Some(data::time(handle, exercise, &wgsl, per_group, options.wall_clock).await?)
    } else {
        None
    };
    Ok(Ok((outcomes, timing)))
}

/// TILE_ROWS and TILE_COLS of a WGSL source: `const TILE_ROWS: u32 = 16u;` (a
/// whole-number literal), else the message to show.
pub fn tile(source: &str) -> std::result::Result<[usize; 2], Message> {
    let what = "the block of C one workgroup computes, by which the grid is sized";
    Ok([
        constant(source, "TILE_ROWS", what)?,
        constant(source, "TILE_COLS", what)?,
    ])
}

/// The value of `const {name}: u32 = …;` in `source` (a whole-number literal ≥ 1),
/// else the message to show; `what` says what it is for.
pub fn constant(source: &str, name: &str, what: &str) -> std::result::Result<usize, Message> {
    let missing = || Message {
        line: 1,
        column: 1,
        message: format!("declare `const {name}: u32 = …;` (a whole number ≥ 1): {what}"),
    };
    let (line, text) = source
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with(&format!("const {name}")))
        .ok_or_else(missing)?;
    let value = text.split_once('=').map_or("", |(_, v)| v.trim_start());
    let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
    let rest = value[digits.len()..].trim_start_matches('u').trim_start();
    match digits.parse::<usize>() {
        Ok(v) if v >= 1 && rest.starts_with(';') => Ok(v),
        _ => Err(Message {
            line: line as u32 + 1,
            column: 1,
            message: format!("{name} must be a whole-number literal ≥ 1, as `= 16u;`"),
        }),
    }
}

/// A compile or link error as the learner's messages; any other error stays one.
fn compile_messages(e: GpgpuError) -> Result<Vec<Message>> {
    let (log, wgsl) = match &e {
        GpgpuError::ShaderCompile { log, stage, .. } => (log.as_str(), stage.starts_with("WGSL")),
        GpgpuError::ProgramLink { log, .. } => (log.as_str(), false),
        _ => return Err(e),
    };
    Ok(if wgsl {
        wgsl_messages(log)
    } else {
        glsl_messages(log)
    })
}

/// WGSL messages, `line:column message` joined by "; ".
pub fn wgsl_messages(log: &str) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::new();
    for piece in log.split("; ") {
        let place = piece.split_once(' ').and_then(|(place, text)| {
            let (l, c) = place.split_once(':')?;
            Some((l.parse().ok()?, c.parse().ok()?, text))
        });
        match (place, out.last_mut()) {
            (Some((line, column, text)), _) => out.push(Message {
                line,
                column,
                message: text.into(),
            }),
            // "; " inside a message: it goes on.
            (None, Some(last)) => {
                last.message.push_str("; ");
                last.message.push_str(piece);
            }
            (None, None) => out.push(Message {
                line: 0,
                column: 0,
                message: piece.into(),
            }),
        }
    }
    out
}

/// A GLSL info log: lines such as `ERROR: 0:10: 'missing' : undeclared identifier`.
pub fn glsl_messages(log: &str) -> Vec<Message> {
    let mut out = Vec::new();
    for l in log.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let rest = l.split_once(": ").map_or(l, |(_, r)| r);
        let mut parts = rest.splitn(3, ':');
        let line = match (parts.next(), parts.next(), parts.next()) {
            // ANGLE writes `-1:-1` for a message about no line (a missing main()).
            (Some(_), Some("-1"), Some(text)) => Some((0, text.trim())),
            (Some(_), Some(line), Some(text)) => line.parse().ok().map(|n| (n, text.trim())),
            _ => None,
        };
        out.push(match line {
            // An empty token ('') names nothing the learner wrote.
            Some((line, text)) => Message {
                line,
                column: 0,
                message: text.strip_prefix("'' : ").unwrap_or(text).into(),
            },
            // Firefox's line-less messages: "ERROR: Missing main()".
            None => Message {
                line: 0,
                column: 0,
                message: l.strip_prefix("ERROR: ").unwrap_or(l).into(),
            },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_unknown_ones_are_bad_arguments() {
        for e in EXERCISES {
            assert_eq!(Exercise::parse(e.id()).unwrap(), e);
        }
        let err = Exercise::parse("tiles").unwrap_err();
        assert_eq!(err.code(), "BAD_ARGUMENT");
        assert!(err.to_string().contains("'tiled'"), "{err}");
    }

    #[test]
    fn tiles_are_read_from_the_source_or_named_at_their_line() {
        let s = "x\nconst TILE_ROWS: u32 = 16u;\n  const TILE_COLS = 8u;";
        assert_eq!(tile(s).unwrap(), [16, 8]);
        let m = tile("const TILE_ROWS: u32 = 4u;").unwrap_err();
        assert!(m.message.contains("TILE_COLS"), "{m:?}");
        let m = tile("const TILE_ROWS: u32 = 4u;\nconst TILE_COLS: u32 = 2u * 2u;").unwrap_err();
        assert_eq!(m.line, 2);
        assert_eq!(
            tile("const TILE_ROWS = 0u;\nconst TILE_COLS = 1u;")
                .unwrap_err()
                .line,
            1
        );
        assert_eq!(
            tile("const TILE_ROWS = 4;\nconst TILE_COLS = 1u; // one").unwrap(),
            [4, 1]
        );
    }

    #[test]
    fn outputs_and_entry_points_are_found_outside_comments() {
        assert!(declares_output("out vec4 result;  // C[i][j]"));
        assert!(declares_output("  out highp vec4 c;"));
        assert!(declares_output("layout(location = 0) out vec4 result;"));
        assert!(!declares_output(
            "// out vec4 result;\nvoid f(out vec4 r) {}"
        ));
        assert!(!declares_output("uniform ivec3 dims;"));
        assert!(has_main(
            "@compute @workgroup_size(8, 8)\nfn main(@builtin(global_invocation_id) id: vec3u) {"
        ));
        assert!(has_main("fn  main (i: u32) {}"));
        assert!(!has_main("// fn main(\nfn kernel() {}\nfn mainly() {}"));
    }

    #[test]
    fn compiler_logs_become_messages_at_their_lines() {
        let m = wgsl_messages("11:15 unresolved value 'missing'; 12:3 a; b");
        assert_eq!((m[0].line, m[0].column), (11, 15));
        assert_eq!(m[0].message, "unresolved value 'missing'");
        assert_eq!((m[1].line, m[1].message.as_str()), (12, "a; b"));
        let g = glsl_messages(
            "ERROR: 0:10: 'missing' : undeclared identifier\nERROR: 0:10: '=' : dimension mismatch\n",
        );
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].line, g[0].column), (10, 0));
        assert_eq!(g[0].message, "'missing' : undeclared identifier");
        assert_eq!(glsl_messages("link failed")[0].line, 0);
        let m = glsl_messages("ERROR: -1:-1: '' : Missing main()");
        assert_eq!((m[0].line, m[0].message.as_str()), (0, "Missing main()"));
        assert_eq!(
            glsl_messages("ERROR: Missing main()")[0].message,
            "Missing main()"
        );
    }
}
