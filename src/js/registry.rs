//! Objects JavaScript holds (a `BlockSparse`, a `Csr`) that later calls must find
//! again, and tell a freed one from a value that never was one: each gets an id, kept
//! on its JS object as a hidden property, and the registry maps live ids to weak
//! references (the JS object owns the data; `free()` drops it and its entry).

use super::args::set;
use crate::common::map::VecMap;
use js_sys::{Object, Reflect};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::rc::{Rc, Weak};
use wasm_bindgen::{JsCast, JsValue};

/// The registry of objects of type `T`: a typed face over [`Ids`], which holds them
/// as `dyn Any`, so that the three registries share one map and one copy of the
/// lookup and error code in the wasm (each map of `Weak<T>` was its own).
pub(crate) struct Registry<T> {
    ids: Ids,
    kind: PhantomData<fn() -> T>,
}

struct Ids {
    /// The property of the JS object that carries its id.
    key: &'static str,
    /// What a call expects, and what it says of a freed one (see `find`).
    expected: &'static str,
    freed: &'static str,
    live: RefCell<VecMap<u32, Weak<dyn Any>>>,
    next: Cell<u32>,
}

impl<T: 'static> Registry<T> {
    pub(crate) fn new(
        key: &'static str,
        expected: &'static str,
        freed: &'static str,
    ) -> Registry<T> {
        Registry {
            ids: Ids {
                key,
                expected,
                freed,
                live: RefCell::new(VecMap::new()),
                next: Cell::new(1),
            },
            kind: PhantomData,
        }
    }

    /// A new id for `value`, entered as live.
    pub(crate) fn register(&self, value: T) -> (u32, Rc<T>) {
        let inner = Rc::new(value);
        let weak: Weak<dyn Any> = Rc::downgrade(&inner) as Weak<dyn Any>;
        (self.ids.register(weak), inner)
    }

    /// Called from the wrapper's Drop (`free()`).
    pub(crate) fn forget(&self, id: u32) {
        self.ids.live.borrow_mut().remove(&id);
    }

    /// Puts `id` on the JS object `value`, so calls can find (or miss) it after free().
    pub(crate) fn tag(&self, value: &JsValue, id: u32) {
        self.ids.tag(value, id)
    }

    /// Whether `value` carries this registry's id property (freed or not).
    pub(crate) fn is_tagged(&self, value: &JsValue) -> bool {
        Reflect::has(value, &self.ids.key.into()).unwrap_or(false)
    }

    /// The object behind `value` (argument `name`): BAD_ARGUMENT naming what was
    /// `expected` if it is not one, FREED_ARGUMENT saying `freed` if it was freed.
    pub(crate) fn find(&self, name: &str, value: &JsValue) -> crate::error::Result<Rc<T>> {
        // Only `register` enters values, each registry its own T, so the downcast
        // holds; were it to fail, the value is not one of these objects.
        let found = self.ids.find(name, value)?;
        found
            .downcast::<T>()
            .map_err(|_| self.ids.not_one(name, value))
    }
}

impl Ids {
    fn register(&self, weak: Weak<dyn Any>) -> u32 {
        let id = self.next.get();
        self.next.set(id.wrapping_add(1).max(1));
        self.live.borrow_mut().insert(id, weak);
        id
    }

    fn tag(&self, value: &JsValue, id: u32) {
        if let Some(obj) = value.dyn_ref::<Object>() {
            let descriptor = Object::new();
            set(&descriptor, "value", id);
            Object::define_property(obj, &self.key.into(), &descriptor);
        }
    }

    fn find(&self, name: &str, value: &JsValue) -> crate::error::Result<Rc<dyn Any>> {
        let Some(found) = self.lookup(value) else {
            return Err(self.not_one(name, value));
        };
        found.ok_or_else(|| crate::error::GpgpuError::FreedArgument {
            name: name.into(),
            detail: self.freed.into(),
        })
    }

    /// BAD_ARGUMENT: `value` (argument `name`) is not one of these objects.
    fn not_one(&self, name: &str, value: &JsValue) -> crate::error::GpgpuError {
        crate::error::GpgpuError::BadArgument {
            name: name.into(),
            detail: format!(
                "expected {}, got {}",
                self.expected,
                super::args::js_kind(value)
            ),
        }
    }

    /// None: `value` is not one of these objects. Some(None): it was, and was freed.
    fn lookup(&self, value: &JsValue) -> Option<Option<Rc<dyn Any>>> {
        let id = Reflect::get(value, &self.key.into())
            .ok()
            .and_then(|v| v.as_f64())
            .filter(|_| value.is_object())?;
        Some(self.live.borrow().get(&(id as u32)).and_then(Weak::upgrade))
    }
}
