//! Reading JavaScript arguments: numbers arrive as JS numbers (f64) and are
//! validated here, so 2.5 or -1 is an error rather than a silent cast; errors leave
//! as `Error` objects with `name = "GpgpuError"` and a `code` property.

use js_sys::{Array, Float32Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, OffscreenCanvas};

use crate::common::Stats;
use crate::common::{Drawn, Style};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::kernels::Kernel;
use crate::plan::semiring::Semiring;
use crate::plan::shape::MAX_ARRAY_BYTES;
use crate::work::Options;

pub(crate) use crate::common::arrays::views_wasm_memory;
use crate::common::arrays::{copy_f32, wasm_memory_buffer};
use crate::common::guard;
pub(crate) use crate::common::guard::{js_kind, js_kind_or_number};

/// Converts a library error into a JS `Error` with `code` set.
pub fn to_js_error(e: GpgpuError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("GpgpuError");
    let _ = Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

pub(crate) fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    set_value(obj, key, value.into())
}

/// `set`'s body once, not once per value type.
#[inline(never)]
fn set_value(obj: &Object, key: &str, value: JsValue) {
    let _ = Reflect::set(obj, &key.into(), &value);
}

/// An Array of one plain object per item, its fields set by `fields`.
pub(crate) fn objects<'a, T: 'a>(
    items: impl IntoIterator<Item = &'a T>,
    fields: impl Fn(&T, &Object),
) -> Array {
    items
        .into_iter()
        .map(|item| {
            let o = Object::new();
            fields(item, &o);
            JsValue::from(o)
        })
        .collect()
}

/// A matrix argument: a Float32Array, or any other numeric typed array or plain
/// array of numbers (converted to float32, as the GPU computes in float32 anyway).
/// One whose copy could not be made in WebAssembly memory is SIZE_OVER_LIMIT before
/// it is copied (see [`array_len`]).
pub(crate) fn matrix_arg(name: &str, value: &JsValue) -> Result<Vec<f32>> {
    let len = array_len(name, value)?;
    check_copies("this call", &[(name, len, 4)])?;
    copy_checked(name, value)
}

/// Two matrix arguments, both lengths read (and their copies' sizes checked
/// together) before either is copied: the first's copy may grow wasm memory, which
/// detaches the second where it views that memory (see [`source`]).
pub(crate) fn matrix_pair(
    (a_name, a): (&str, &JsValue),
    (b_name, b): (&str, &JsValue),
) -> Result<(Vec<f32>, Vec<f32>)> {
    let (la, lb) = (array_len(a_name, a)?, array_len(b_name, b)?);
    check_copies("this call", &[(a_name, la, 4), (b_name, lb, 4)])?;
    Ok((copy_checked(a_name, a)?, copy_checked(b_name, b)?))
}

/// A matrix argument as a call holds it until its upload: the caller's own
/// Float32Array where the upload happens during the call on WebGPU
/// (`crate::engine::input`), else a copy in wasm memory.
pub(crate) enum Held {
    Wasm(Vec<f32>),
    Js(Float32Array),
}

impl Held {
    pub(crate) fn input(&self) -> crate::engine::Input<'_> {
        match self {
            Held::Wasm(v) => v.into(),
            Held::Js(a) => a.into(),
        }
    }
}

/// [`matrix_arg`], holding the caller's array where `direct` (see [`held_checked`]).
pub(crate) fn matrix_held(name: &str, value: &JsValue, direct: bool) -> Result<Held> {
    let len = array_len(name, value)?;
    check_copies("this call", &[(name, len, 4)])?;
    held_checked(name, value, direct)
}

/// [`copy_checked`], or where `direct` the array as a Float32Array: the caller's
/// own, or (another kind of array) its float32 conversion made in JavaScript. An
/// array over wasm memory is copied all the same: the upload may allocate there,
/// which would detach it.
pub(crate) fn held_checked(name: &str, value: &JsValue, direct: bool) -> Result<Held> {
    let value = &source(value);
    if !direct || empty_array(value) {
        return copy_checked(name, value).map(Held::Wasm);
    }
    let array = float32_of(name, value)?;
    if views_wasm_memory(&array) {
        return copy_checked(name, value).map(Held::Wasm);
    }
    Ok(Held::Js(array))
}

/// An array argument as a Float32Array the library's own reads may use (see
/// [`guard::plain`]): the caller's own where it is one, else its float32 conversion
/// ([`guard::converted`]).
fn float32_of(name: &str, value: &JsValue) -> Result<Float32Array> {
    match guard::plain::<Float32Array>(value, "Float32Array") {
        Some(a) => Ok(a),
        None => guard::converted(name, value, Float32Array::new),
    }
}

/// Whether an array argument's length reads 0 (a typed array's own, not a getter of
/// a subclass).
fn empty_array(value: &JsValue) -> bool {
    match guard::typed_length(value) {
        Some(len) => len == 0,
        None => {
            Reflect::get(value, &"length".into())
                .ok()
                .and_then(|l| l.as_f64())
                == Some(0.0)
        }
    }
}

thread_local! {
    /// Where each array over WebAssembly memory itself lies in that memory (`[byte
    /// offset, length, constructor]`), noted when [`array_len`] read it: a call reads
    /// its arrays one after another, and one's copy into wasm memory may grow that
    /// memory, which detaches the others' views before they are read (the second
    /// array of a call then read as detached). Growing never moves the bytes, so a
    /// detached one is read as the same bytes in memory's new buffer, as they are
    /// then. Dropped at the end of the task's synchronous work.
    static VIEWS: std::cell::RefCell<Option<js_sys::WeakMap>> = const { std::cell::RefCell::new(None) };
}

/// The array a call reads for `value`: where it views wasm memory and growing that
/// memory has detached it since [`array_len`] read it, the same bytes in memory's
/// buffer now; else `value`.
pub(crate) fn source(value: &JsValue) -> JsValue {
    if !detached(value) {
        return value.clone();
    }
    let place = VIEWS.with(|m| match (m.borrow().as_ref(), value.dyn_ref::<Object>()) {
        (Some(m), Some(key)) => m.get(key),
        _ => JsValue::UNDEFINED,
    });
    let Some(place) = place.dyn_ref::<Array>() else {
        return value.clone();
    };
    let args = Array::of3(&wasm_memory_buffer(), &place.get(0), &place.get(1));
    place
        .get(2)
        .dyn_into::<Function>()
        .ok()
        .and_then(|ctor| Reflect::construct(&ctor, &args).ok())
        .unwrap_or_else(|| value.clone())
}

/// Notes where a typed array over wasm memory lies in it (see [`VIEWS`]).
fn note_view(value: &JsValue, len: usize) {
    if !views_wasm_memory(value) {
        return;
    }
    let Some(ctor) = guard::typed_constructor(value) else {
        return;
    };
    let offset = guard::typed_byte_offset(value);
    let place = Array::of3(&offset, &(len as f64).into(), &ctor);
    VIEWS.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_none() {
            // Dropped once this task's synchronous work (the call) is over.
            let clear = Closure::once_into_js(|| VIEWS.with(|m| m.borrow_mut().take()));
            if let Ok(queue) = Reflect::get(&js_sys::global(), &"queueMicrotask".into()) {
                let _ = queue
                    .unchecked_into::<Function>()
                    .call1(&JsValue::UNDEFINED, &clear);
            }
        }
        m.get_or_insert_with(js_sys::WeakMap::new)
            .set(value.unchecked_ref(), &place);
    });
}

/// The float32 copy of an array [`array_len`] has accepted (and [`check_copies`]
/// allowed). [`check_copies`] cannot see what the page's objects already hold in wasm
/// memory, so the copy's room is asked for without aborting: OUT_OF_MEMORY, not the
/// trap (RuntimeError: unreachable) after which the library was unusable.
pub(crate) fn copy_checked(name: &str, value: &JsValue) -> Result<Vec<f32>> {
    let value = &source(value);
    if empty_array(value) {
        // An empty view may be out of bounds of a shrunk resizable buffer, which
        // TypedArray.prototype.set and the typed arrays' constructors refuse with a
        // TypeError; there is nothing to copy.
        return Ok(Vec::new());
    }
    let array = float32_of(name, value)?;
    let len = array.length();
    copy_f32(&array, || format!("the copy of an array of {len} numbers"))
}

/// Whether `value` (a typed array) views an ArrayBuffer that was detached: transferred
/// by postMessage's transfer list or structuredClone, or by `ArrayBuffer.transfer()`.
/// Its length then reads 0, and any copy of it (TypedArray.prototype.set, a typed
/// array's constructor) throws a TypeError that, thrown through the library's call,
/// left its Gpgpu borrowed for good: free() then threw too. Read from
/// `ArrayBuffer.prototype.detached` where the browser has it; elsewhere the copies skip
/// an empty array, and a detached one reads as an array of length 0.
fn detached(value: &JsValue) -> bool {
    let buffer = guard::typed_buffer(value);
    buffer.is_instance_of::<js_sys::ArrayBuffer>()
        && Reflect::get(&buffer, &"detached".into())
            .ok()
            .and_then(|d| d.as_bool())
            == Some(true)
}

/// The length of an array argument (a typed array, or an array of numbers), read
/// without copying it, so that a call can check it first; anything else is
/// BAD_ARGUMENT naming what it is.
pub(crate) fn array_len(name: &str, value: &JsValue) -> Result<usize> {
    // Read a second time (a check, then the copy) after another array's copy grew
    // memory: where its bytes lie.
    let value = &source(value);
    let bad = |detail: String| GpgpuError::BadArgument {
        name: name.into(),
        detail,
    };
    if let Some(array) = value.dyn_ref::<Array>() {
        // Its elements' getters or its Proxy may run and throw: guarded.
        let (array, name) = (array.clone(), name.to_string());
        return guard::guarded(&name.clone(), move || {
            // Float32Array.from would turn "1" into 1 and "x" into NaN without a word.
            let at = array.find_index(&mut |v, _, _| v.as_f64().is_none());
            if at >= 0 {
                return Err(GpgpuError::BadArgument {
                    name,
                    detail: format!(
                        "element {at} is {}, not a number; pass numbers (a Float32Array is \
                         fastest)",
                        js_kind(&array.get(at as u32))
                    ),
                });
            }
            Ok(array.length().into())
        })
        .map(|len| len.as_f64().map_or(0, |l| l as usize));
    }
    let kind = js_kind(value);
    // BigInt arrays cannot convert to floats, and a DataView has no element type (and
    // no typed array's tag).
    let numeric_view = guard::typed_tag(value)
        .is_some_and(|tag| !matches!(tag.as_str(), "BigInt64Array" | "BigUint64Array"));
    if numeric_view {
        if detached(value) {
            return Err(bad(format!(
                "is {kind} whose ArrayBuffer was detached (transferred to a worker by \
                 postMessage's transfer list, by structuredClone or by ArrayBuffer.transfer), \
                 so it holds no numbers any more; pass the array before transferring it, or \
                 a copy (array.slice())"
            )));
        }
        let len = guard::typed_length(value).unwrap_or(0);
        note_view(value, len);
        return Ok(len);
    }
    Err(bad(format!(
        "expected a row-major Float32Array (or another numeric typed array, or an array \
         of numbers), got {kind}"
    )))
}

/// Refuses a call's arrays, before any is copied, when their copies (`(name, length,
/// bytes per element)`) could not be made in WebAssembly memory: one past what one
/// allocation may take (2 GiB: a Float32Array of 600,000,000 numbers panicked with
/// "capacity overflow", whatever the call), or all together past what the library
/// may hold there (4 GiB less 256 MiB: two of 1.5 GB ran out of memory, a trap).
pub(crate) fn check_copies(what: &str, arrays: &[(&str, usize, usize)]) -> Result<()> {
    let bytes = |&(_, len, size): &(&str, usize, usize)| len as f64 * size as f64;
    let hint = "Check the arrays' lengths: WebAssembly in a browser holds at most 4 GiB, \
                and every call copies its arrays in whole.";
    if let Some(one) = arrays.iter().find(|a| bytes(a) > MAX_ARRAY_BYTES) {
        return Err(GpgpuError::DeviceLimit {
            what: format!("{} (an array of {} numbers)", one.0, one.1),
            needed: bytes(one),
            unit: "bytes of WebAssembly memory",
            limit_name: "the most one array may take there on wasm32",
            limit: MAX_ARRAY_BYTES,
            hint,
        });
    }
    let needed: f64 = arrays.iter().map(bytes).sum();
    let limit = crate::blocks::grid::MAX_CALL_BYTES;
    if needed > limit {
        let names: Vec<&str> = arrays.iter().map(|a| a.0).collect();
        return Err(GpgpuError::DeviceLimit {
            what: format!("{what}: copying {}", names.join(", ")),
            needed,
            unit: "bytes of WebAssembly memory",
            limit_name: "what the library may hold there (wasm32's 4 GiB less 256 MiB)",
            limit,
            hint,
        });
    }
    Ok(())
}

/// A number argument; anything but a JS number is BAD_ARGUMENT naming what it was
/// (an f64 parameter would turn undefined into NaN, null into 0 and "4" into 4, and
/// throw a raw TypeError for a BigInt).
pub(crate) fn number_arg(name: &str, value: &JsValue) -> Result<f64> {
    value.as_f64().ok_or_else(|| GpgpuError::BadArgument {
        name: name.into(),
        detail: format!("must be a number, got {}", js_kind(value)),
    })
}

/// A string argument naming one of `accepted` (as a message lists them: "'a', 'b' or
/// 'c'"); anything else is BAD_ARGUMENT naming what was passed and listing them, as an
/// unknown name's message does (a `&str` parameter would let wasm-bindgen read a
/// non-string as garbage memory).
pub(crate) fn string_arg(name: &str, value: &JsValue, accepted: &str) -> Result<String> {
    value.as_string().ok_or_else(|| GpgpuError::BadArgument {
        name: name.into(),
        detail: format!(
            "must be a string, got {}; use {accepted}",
            js_kind_or_number(value)
        ),
    })
}

/// `options[key]`, read as [`string_arg`] reads an argument.
pub(crate) fn string_option(obj: &JsValue, key: &str, accepted: &str) -> Result<String> {
    let v = guard::field(obj, "options", key)?;
    string_arg(&format!("options.{key}"), &v, accepted)
}

/// The semirings' names, as a message lists them.
pub(crate) const SEMIRING_NAMES: &str = "'ordinary', 'boolean' or 'min-plus'";

/// The kernels' names, as a message lists them: "one of naive, packed, …".
pub(crate) fn kernel_names() -> String {
    format!("one of {}", Kernel::ALL.map(|k| k.name()).join(", "))
}

/// `{ kernel?: "auto" | "naive" | "packed" | "blocked4" | "blocked8" | …,
///    semiring?: "ordinary" | "boolean" | "min-plus", maxTile?: number }`
pub(crate) fn options_arg(value: &JsValue) -> Result<Options> {
    parse_options(value, &[], true)
}

/// For the applications: `{ kernel }` plus the operation's own `extra` keys (read
/// by the caller from the same object); no `semiring`, as each application fixes its
/// own.
pub(crate) fn options_with(value: &JsValue, extra: &[&str]) -> Result<Options> {
    parse_options(value, extra, false)
}

pub(crate) fn parse_options(
    value: &JsValue,
    extra: &[&str],
    semiring_allowed: bool,
) -> Result<Options> {
    let mut options = Options::default();
    let Some(obj) = options_object(value, "options", "{ kernel: 'auto' }")? else {
        return Ok(options);
    };
    let kernels = format!("'auto' or {}", kernel_names());
    for key in guard::keys(obj, "options")? {
        // A key left undefined ({ kernel: opts.kernel }) is absent, as the d.ts's
        // `kernel?:` says and as every other option (maxTile, the applications' own,
        // Gpgpu.create's) reads it; a key this call does not take is refused all the same.
        let given = !guard::field(value, "options", &key)?.is_undefined();
        match key.as_str() {
            "kernel" if !given => {}
            "semiring" | "maxTile" if semiring_allowed && !given => {}
            "kernel" => {
                let name = string_option(value, "kernel", &kernels)?;
                options.kernel = match name.as_str() {
                    "auto" => None,
                    _ => Some(Kernel::parse(&name).ok_or_else(|| GpgpuError::BadArgument {
                        name: "options.kernel".into(),
                        detail: format!("unknown kernel '{name}'; use {kernels}"),
                    })?),
                };
            }
            "semiring" if semiring_allowed => {
                let name = string_option(value, "semiring", SEMIRING_NAMES)?;
                options.semiring =
                    Semiring::parse(&name).ok_or_else(|| GpgpuError::BadArgument {
                        name: "options.semiring".into(),
                        detail: format!("unknown semiring '{name}'; use {SEMIRING_NAMES}"),
                    })?;
            }
            // A product's tile cap (the tiled path at small sizes); 0 is refused later
            // with the other sizes, as BAD_COUNT.
            "maxTile" if semiring_allowed => {
                options.max_tile = Some(count_option(value, "maxTile", 1, u32::MAX as f64)?);
            }
            other if extra.contains(&other) => {}
            other => {
                let mut known = vec!["kernel"];
                if semiring_allowed {
                    known.extend(["semiring", "maxTile"]);
                }
                known.extend(extra);
                return Err(GpgpuError::BadArgument {
                    name: "options".into(),
                    detail: format!("unknown option '{other}'; known: {}", known.join(", ")),
                });
            }
        }
    }
    Ok(options)
}

/// The object of options `value` (named `name`), None for undefined or null; anything
/// else is BAD_ARGUMENT ("must be an object such as `example`, got …"). An object that
/// is no plain object is refused too: `typeof` says "object" for an array, a typed
/// array, a Map, a Date, a RegExp or a Promise, which have no keys of their own, so
/// `[]` or `new Map([['kernel', 'naive']])` passed as options ran with the defaults
/// without a word (and `['packed']` was "unknown option '0'"). A function is not an
/// object to `typeof`, so it is refused alike. An object with a null prototype
/// (`Object.create(null)`) is a plain object: it is taken (`dyn_ref::<Object>`, an
/// `instanceof Object`, would refuse it).
pub(crate) fn options_object<'a>(
    value: &'a JsValue,
    name: &str,
    example: &str,
) -> Result<Option<&'a Object>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.is_object() && is_plain_object(value) {
        true => Ok(Some(value.unchecked_ref())),
        false => Err(GpgpuError::BadArgument {
            name: name.into(),
            detail: format!(
                "must be an object such as {example}, got {}",
                js_kind(value)
            ),
        }),
    }
}

/// Whether the object `value` is a plain one, as `Object.prototype.toString` tells:
/// "[object Object]" for `{ … }`, `Object.create(null)`, an instance of a class or an
/// object of another realm (an iframe's), "[object Map]", "[object Array]",
/// "[object Float32Array]", "[object Date]", … for the built-in kinds. A tag that
/// throws (a Proxy's trap) is no plain object.
fn is_plain_object(value: &JsValue) -> bool {
    let object_prototype = Object::get_prototype_of(&Object::new());
    Reflect::get(&object_prototype, &"toString".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .and_then(|to_string| to_string.call0(value).ok())
        .and_then(|tag| tag.as_string())
        .is_some_and(|tag| tag == "[object Object]")
}

/// An options object that may hold only the `known` keys (undefined or null: no
/// options): a misspelt key ({ dampening: 0.5 }) would otherwise run with its default
/// quietly, and a number or string in its place would be read as no options at all.
/// `example` ends "must be an object such as …".
pub(crate) fn known_keys(value: &JsValue, known: &[&str], example: &str) -> Result<()> {
    match unknown_key(value, "options", known, example)? {
        None => Ok(()),
        Some(key) => Err(GpgpuError::BadArgument {
            name: "options".into(),
            detail: format!("unknown option '{key}'; known: {}", known.join(", ")),
        }),
    }
}

/// The first key of the object `value` (named `name`) that is not one of `known`;
/// None for undefined, null or an object of known keys; BAD_ARGUMENT for anything
/// else ("must be an object such as `example`"). For callers that word the unknown
/// key their own way; `known_keys` is the usual one.
pub(crate) fn unknown_key(
    value: &JsValue,
    name: &str,
    known: &[&str],
    example: &str,
) -> Result<Option<String>> {
    let Some(obj) = options_object(value, name, example)? else {
        return Ok(None);
    };
    Ok(guard::keys(obj, name)?
        .into_iter()
        .find(|k| !known.contains(&k.as_str())))
}

/// A whole-number option in 1..=max, or `default` when absent.
pub(crate) fn count_option(obj: &JsValue, key: &str, default: usize, max: f64) -> Result<usize> {
    match number_option(obj, key)? {
        None => Ok(default),
        Some(v) if v >= 1.0 && v <= max && v.fract() == 0.0 => Ok(v as usize),
        Some(v) => Err(GpgpuError::BadArgument {
            name: format!("options.{key}"),
            detail: format!(
                "is {}; it must be a whole number from 1 to {}",
                crate::error::js_number(v),
                crate::error::js_number(max)
            ),
        }),
    }
}

pub(crate) fn number_option(obj: &JsValue, key: &str) -> Result<Option<f64>> {
    number_in(obj, "options", key)
}

/// `number_option` of the object an error names `what` (e.g. a heatmap's `style`).
fn number_in(obj: &JsValue, what: &str, key: &str) -> Result<Option<f64>> {
    let v = guard::field(obj, what, key)?;
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(Some(x)),
        _ => Err(GpgpuError::BadArgument {
            name: format!("{what}.{key}"),
            detail: format!("is {}; it must be a finite number", js_kind_or_number(&v)),
        }),
    }
}

/// A number option that must be > 0 when given; `what` names the object in messages.
pub(crate) fn positive_option(obj: &JsValue, what: &str, key: &str) -> Result<Option<f64>> {
    match number_in(obj, what, key)? {
        Some(v) if v <= 0.0 => Err(GpgpuError::BadArgument {
            name: format!("{what}.{key}"),
            detail: format!("is {}; it must be > 0", crate::error::js_number(v)),
        }),
        v => Ok(v),
    }
}

/// A number the GPU holds as float32. A finite one beyond float32's range is refused:
/// it would silently become ±Infinity (pass Infinity itself where that is meant).
pub(crate) fn f32_value(name: &str, v: f64) -> Result<f32> {
    let f = v as f32;
    if f.is_infinite() && v.is_finite() {
        return Err(GpgpuError::BadArgument {
            name: name.into(),
            detail: format!(
                "is {}, beyond float32's largest value (about 3.4e38), where it would become {}Infinity",
                crate::error::js_number(v),
                if v < 0.0 { "-" } else { "" }
            ),
        });
    }
    Ok(f)
}

/// `{ range?: number, sequential?: boolean, logFloor?: number }`; the range is None
/// when not given (the matrix's largest |finite value| is used then).
pub(crate) fn style_arg(value: &JsValue) -> Result<(Style, Option<f32>)> {
    let mut style = Style {
        sequential: false,
        range: 1.0,
        log_floor: None,
        no_edge: false,
    };
    if value.is_undefined() || value.is_null() {
        return Ok((style, None));
    }
    let known = ["range", "sequential", "logFloor"];
    if let Some(key) = unknown_key(value, "style", &known, "{ range: 2 }")? {
        return Err(GpgpuError::BadArgument {
            name: "style".into(),
            detail: format!("unknown key '{key}'; known: {}", known.join(", ")),
        });
    }
    let positive = |key| {
        positive_option(value, "style", key)?
            .map(|v| f32_value(&format!("style.{key}"), v))
            .transpose()
    };
    let range = positive("range")?;
    style.log_floor = positive("logFloor")?;
    // 'yes' or 1 was read as false before.
    let sequential = Reflect::get(value, &"sequential".into()).unwrap_or(JsValue::UNDEFINED);
    style.sequential = flag_arg("style.sequential", &sequential)?;
    Ok((style, range))
}

/// A flag: true or false, and false when undefined or null. Not JavaScript's
/// truthiness: 'x' or 1 is BAD_ARGUMENT.
pub(crate) fn flag_arg(name: &str, value: &JsValue) -> Result<bool> {
    if value.is_undefined() || value.is_null() {
        return Ok(false);
    }
    value.as_bool().ok_or_else(|| GpgpuError::BadArgument {
        name: name.into(),
        detail: format!("must be true or false, got {}", js_kind_or_number(value)),
    })
}

/// The canvas a heatmap is drawn on: one on the page, or an OffscreenCanvas (a worker's).
pub(crate) fn canvas_arg(value: &JsValue) -> Result<Canvas> {
    if let Some(c) = value.dyn_ref::<HtmlCanvasElement>() {
        return Ok(Canvas::Element(c.clone()));
    }
    value
        .dyn_ref::<OffscreenCanvas>()
        .map(|c| Canvas::Offscreen(c.clone()))
        .ok_or_else(|| GpgpuError::BadArgument {
            name: "canvas".into(),
            detail: "expected an HTMLCanvasElement or OffscreenCanvas to draw the heatmap on"
                .into(),
        })
}

pub(crate) fn kernel_arg(name: &str) -> Result<Kernel> {
    Kernel::parse(name).ok_or_else(|| GpgpuError::BadArgument {
        name: "kernel".into(),
        detail: format!("unknown kernel '{name}'; use {}", kernel_names()),
    })
}

pub(crate) fn drawn_object(d: Drawn) -> Object {
    let o = Object::new();
    set(&o, "blockCols", d.block.0 as u32);
    set(&o, "blockRows", d.block.1 as u32);
    set(&o, "stride", d.stride as u32);
    o
}

pub(crate) fn stats_object(s: Stats) -> Object {
    let o = Object::new();
    set(&o, "maxAbs", s.max_abs);
    set(&o, "nan", s.nan);
    set(&o, "inf", s.inf);
    set(&o, "sumAbs", s.sum_abs);
    set(&o, "sumSquares", s.sum_sq);
    set(&o, "min", s.min);
    set(&o, "max", s.max);
    o
}
