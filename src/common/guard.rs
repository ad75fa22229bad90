//! Reading a caller's values without letting the caller's own code throw through a
//! call. A getter, a Proxy's trap or an iterator the caller defined runs when an array
//! of theirs is read element by element, and an exception it throws passed through the
//! library's Rust frames without ending them: the call rejected with a plain Error, and
//! its Gpgpu stayed borrowed for good (free() then threw "attempted to take ownership of
//! Rust value while it was borrowed", and nothing was released).
//!
//! So typed arrays are read through `%TypedArray%.prototype`'s own getters, which read
//! the array's internal slots and run nothing of the caller's (a subclass's `length`
//! that lied had the copy assert, or left numbers unwritten), and everything that may
//! run the caller's code runs under `guarded`, where what it throws is BAD_ARGUMENT.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Float32Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::{GpgpuError, Result};

/// Runs `read`, code that reads the caller's value `name` and may run their code,
/// from JavaScript (`Function.prototype.call`), so that an exception thrown inside it
/// ends there and comes back as BAD_ARGUMENT; the frames it cut short are `read`'s own,
/// and what they held (a partial copy) is not freed. One boxed form, not generic:
/// each form of a Closure costs its own glue in the wasm.
pub(crate) fn guarded(
    name: &str,
    read: impl FnOnce() -> Result<JsValue> + 'static,
) -> Result<JsValue> {
    guarded_boxed(name, Box::new(read))
}

fn guarded_boxed(name: &str, read: Box<dyn FnOnce() -> Result<JsValue>>) -> Result<JsValue> {
    let slot = Rc::new(RefCell::new(None));
    let out = slot.clone();
    let call = Closure::once_into_js(move || {
        let r = read();
        *out.borrow_mut() = Some(r);
    });
    let thrown = call.unchecked_ref::<Function>().call0(&JsValue::UNDEFINED);
    let result = slot.borrow_mut().take();
    match (result, thrown) {
        (Some(r), _) => r,
        (None, thrown) => Err(threw(name, &thrown.err().unwrap_or(JsValue::UNDEFINED))),
    }
}

/// `obj[key]` of an options-like object the error names `what` (e.g. "options"): a
/// getter of the caller's that throws is BAD_ARGUMENT (it was read as no option).
pub(crate) fn field(obj: &JsValue, what: &str, key: &str) -> Result<JsValue> {
    if !obj.is_object() {
        return Ok(JsValue::UNDEFINED);
    }
    Reflect::get(obj, &key.into()).map_err(|e| threw(&format!("{what}.{key}"), &e))
}

/// `Object.keys(obj)`, whose Proxy may trap `ownKeys`.
pub(crate) fn keys(obj: &Object, what: &str) -> Result<Vec<String>> {
    let obj = obj.clone();
    let keys: js_sys::Array =
        guarded(what, move || Ok(Object::keys(&obj).into()))?.unchecked_into();
    Ok(keys.iter().filter_map(|k| k.as_string()).collect())
}

/// BAD_ARGUMENT for an exception the caller's code threw while `name` was read.
fn threw(name: &str, e: &JsValue) -> GpgpuError {
    // The caller's own code threw: its exception's type is part of the story.
    let error = match (message_of(e), e.as_string()) {
        (Some(m), _) => {
            let kind = Reflect::get(e, &"name".into())
                .ok()
                .and_then(|n| n.as_string())
                .unwrap_or_else(|| "Error".into());
            format!("{kind}: {m}")
        }
        (None, Some(s)) => format!("'{s}'"),
        (None, None) => js_kind_or_number(e),
    };
    GpgpuError::BadArgument {
        name: name.into(),
        detail: format!(
            "reading it threw {error} (a getter, Proxy or iterator of its own ran); pass \
             plain data: a typed array, an array of numbers, an object of plain fields"
        ),
    }
}

/// What a browser call that threw said, for a message that names the call: the
/// exception's message (an Error's, a DOMException's, an event's), a thrown string, else
/// its kind; never a `JsValue(…)` dump with its stack.
pub fn describe_js(e: &JsValue) -> String {
    message_of(e)
        .or_else(|| e.as_string())
        .unwrap_or_else(|| js_kind_or_number(e))
}

fn message_of(e: &JsValue) -> Option<String> {
    Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
}

/// `%TypedArray%.prototype`'s getters, and Float32Array.prototype.
struct Intrinsics {
    length: Function,
    buffer: Function,
    byte_offset: Function,
    tag: Function,
}

thread_local! {
    static INTRINSICS: Intrinsics = Intrinsics::new();
}

impl Intrinsics {
    fn new() -> Self {
        let typed =
            Object::get_prototype_of(&Object::get_prototype_of(&Float32Array::new_with_length(0)));
        let getter = |key: JsValue| {
            Reflect::get_own_property_descriptor(&typed, &key)
                .and_then(|d| Reflect::get(&d, &"get".into()))
                .ok()
                .and_then(|g| g.dyn_into::<Function>().ok())
                .expect("%TypedArray%.prototype has its getters")
        };
        Intrinsics {
            length: getter("length".into()),
            buffer: getter("buffer".into()),
            byte_offset: getter("byteOffset".into()),
            tag: getter(js_sys::Symbol::to_string_tag().into()),
        }
    }
}

fn intrinsic(value: &JsValue, which: fn(&Intrinsics) -> &Function) -> Option<JsValue> {
    INTRINSICS
        .with(|i| which(i).call0(value).ok())
        .filter(|v| !v.is_undefined())
}

/// The element type of a typed array ("Float32Array", ... also for a subclass); None
/// for anything else (a DataView, a Proxy, an array).
pub(crate) fn typed_tag(value: &JsValue) -> Option<String> {
    intrinsic(value, |i| &i.tag).and_then(|t| t.as_string())
}

/// A typed array's length as its internal slot has it (0 when its buffer was detached
/// or shrank past it).
pub(crate) fn typed_length(value: &JsValue) -> Option<usize> {
    intrinsic(value, |i| &i.length)
        .and_then(|l| l.as_f64())
        .map(|l| l as usize)
}

pub(crate) fn typed_buffer(value: &JsValue) -> JsValue {
    intrinsic(value, |i| &i.buffer).unwrap_or(JsValue::UNDEFINED)
}

pub(crate) fn typed_byte_offset(value: &JsValue) -> JsValue {
    intrinsic(value, |i| &i.byte_offset).unwrap_or(JsValue::UNDEFINED)
}

/// The global constructor of a typed array's element type (Float32Array for a subclass
/// of it): building views with it runs no constructor of the caller's.
pub(crate) fn typed_constructor(value: &JsValue) -> Option<Function> {
    global_constructor(&typed_tag(value)?)
}

/// The global constructor named `tag` ("Float32Array", …).
fn global_constructor(tag: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &tag.into())
        .ok()
        .and_then(|c| c.dyn_into().ok())
}

/// `value` converted by `make` (a typed array's constructor): from a typed array's
/// internal slots, which runs none of the caller's code; an array of numbers element
/// by element, under [`guarded`] (its getters or Proxy may throw).
pub(crate) fn converted<T: JsCast + 'static>(
    name: &str,
    value: &JsValue,
    make: fn(&JsValue) -> T,
) -> Result<T> {
    if typed_tag(value).is_some() {
        return Ok(make(value));
    }
    let value = value.clone();
    guarded(name, move || Ok(make(&value).unchecked_into())).map(JsCast::unchecked_into)
}

/// `value` as a `T` (a typed array of element type `tag`) that the library's own reads
/// (`length()`, copies) may use as it is: of exactly that class, with no `length` of
/// its own. A subclass, or one given its own `length`, is None (copy it with the
/// constructor, which reads its internal slots).
pub(crate) fn plain<T: JsCast>(value: &JsValue, tag: &str) -> Option<T> {
    if typed_tag(value).as_deref() != Some(tag) {
        return None;
    }
    let proto = Reflect::get(global_constructor(tag)?.as_ref(), &"prototype".into()).ok()?;
    let own_length =
        Reflect::get_own_property_descriptor(value.unchecked_ref::<Object>(), &"length".into())
            .map_or(true, |d| !d.is_undefined());
    (Object::is(&Object::get_prototype_of(value), &proto) && !own_length)
        .then(|| value.clone().unchecked_into())
}

/// A number as JavaScript prints it, anything else by its kind.
pub(crate) fn js_kind_or_number(value: &JsValue) -> String {
    match value.as_f64() {
        Some(v) => crate::error::js_number(v),
        None => js_kind(value),
    }
}

/// How a value reads in a message: "null", "a string", "an Int32Array", ...
pub(crate) fn js_kind(value: &JsValue) -> String {
    if value.is_null() {
        return "null".into();
    }
    if value.is_undefined() {
        return "undefined".into();
    }
    // Object.create(null) has no constructor, hence the checked look-up.
    let name = Some(value)
        .filter(|v| v.is_object())
        .and_then(|v| Reflect::get(v, &"constructor".into()).ok())
        .filter(|c| c.is_function())
        // Read as a field: a class's own static `name` getter may throw.
        .and_then(|c| Reflect::get(&c, &"name".into()).ok())
        .and_then(|n| n.as_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| value.js_typeof().as_string().unwrap_or_default());
    // "a Uint32Array": its U is said "you".
    let article = match name.chars().next() {
        _ if name.starts_with("Uint") => "a",
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    };
    format!("{article} {name}")
}
