//! Objects JavaScript holds (a `BlockSparse`, a `Csr`) that later calls must find
//! again, and tell a freed one from a value that never was one: each gets an id, kept
//! on its JS object as a hidden property, and the registry maps live ids to weak
//! references (the JS object owns the data; `free()` drops it and its entry).

use super::args::set;
use js_sys::{Object, Reflect};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use wasm_bindgen::{JsCast, JsValue};

pub(crate) struct Registry<T> {
    /// The property of the JS object that carries its id.
    key: &'static str,
    /// What a call expects, and what it says of a freed one (see `find`).
    expected: &'static str,
    freed: &'static str,
    live: RefCell<HashMap<u32, Weak<T>>>,
    next: Cell<u32>,
}

impl<T> Registry<T> {
    pub(crate) fn new(
        key: &'static str,
        expected: &'static str,
        freed: &'static str,
    ) -> Registry<T> {
        Registry {
            key,
            expected,
            freed,
            live: RefCell::new(HashMap::new()),
            next: Cell::new(1),
        }
    }

    /// A new id for `value`, entered as live.
    pub(crate) fn register(&self, value: T) -> (u32, Rc<T>) {
        let id = self.next.get();
        self.next.set(id.wrapping_add(1).max(1));
        let inner = Rc::new(value);
        self.live.borrow_mut().insert(id, Rc::downgrade(&inner));
        (id, inner)
    }

    /// Called from the wrapper's Drop (`free()`).
    pub(crate) fn forget(&self, id: u32) {
        self.live.borrow_mut().remove(&id);
    }

    /// Puts `id` on the JS object `value`, so calls can find (or miss) it after free().
    pub(crate) fn tag(&self, value: &JsValue, id: u32) {
        if let Some(obj) = value.dyn_ref::<Object>() {
            let descriptor = Object::new();
            set(&descriptor, "value", id);
            Object::define_property(obj, &self.key.into(), &descriptor);
        }
    }

    /// Whether `value` carries this registry's id property (freed or not).
    pub(crate) fn is_tagged(&self, value: &JsValue) -> bool {
        Reflect::has(value, &self.key.into()).unwrap_or(false)
    }

    /// The object behind `value` (argument `name`): BAD_ARGUMENT naming what was
    /// `expected` if it is not one, FREED_ARGUMENT saying `freed` if it was freed.
    pub(crate) fn find(&self, name: &str, value: &JsValue) -> crate::error::Result<Rc<T>> {
        let Some(found) = self.lookup(value) else {
            return Err(crate::error::GpgpuError::BadArgument {
                name: name.into(),
                detail: format!(
                    "expected {}, got {}",
                    self.expected,
                    super::args::js_kind(value)
                ),
            });
        };
        found.ok_or_else(|| crate::error::GpgpuError::FreedArgument {
            name: name.into(),
            detail: self.freed.into(),
        })
    }

    /// None: `value` is not one of these objects. Some(None): it was, and was freed.
    pub(crate) fn lookup(&self, value: &JsValue) -> Option<Option<Rc<T>>> {
        let id = Reflect::get(value, &self.key.into())
            .ok()
            .and_then(|v| v.as_f64())
            .filter(|_| value.is_object())?;
        Some(self.live.borrow().get(&(id as u32)).and_then(Weak::upgrade))
    }
}
