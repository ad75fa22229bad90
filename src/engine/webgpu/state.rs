//! What operations keep with a WebGPU device, by type: a kernel's tuning, its
//! scratch buffers. The engine knows no operation; it keeps their state for them.

use std::any::{Any, TypeId};

use super::GpuEngine;
use crate::webgpu::GpuInfo;

/// What an operation keeps with a device (see [`GpuEngine::state`]).
pub trait DeviceState: Any {
    /// Lets go of what can be made again (scratch buffers) when the engine trims its
    /// pools.
    fn trim(&mut self) {}
}

impl GpuEngine {
    /// The state of type `T` an operation keeps with this device (a kernel's tuning,
    /// its scratch buffers), made by `make` on first use. It lives as long as the
    /// device: a replaced device starts with none, and `trim` asks each to let go of
    /// what it can make again.
    pub fn state<T: DeviceState>(&mut self, make: impl FnOnce(&GpuInfo) -> T) -> &mut T {
        let info = &self.info;
        let state: &mut dyn Any = self
            .states
            .get_or_insert_with(TypeId::of::<T>(), || Box::new(make(info)))
            .as_mut();
        state
            .downcast_mut()
            .expect("a state is stored under its own type")
    }

    /// The state of type `T`, if an operation has made it.
    pub fn state_if_made<T: DeviceState>(&self) -> Option<&T> {
        let state: &dyn Any = self.states.get(&TypeId::of::<T>())?.as_ref();
        state.downcast_ref()
    }

    /// Takes the state of type `T` out while the engine is needed whole (a dispatch
    /// binding its buffers); `put_state` gives it back.
    pub fn take_state<T: DeviceState>(&mut self, make: impl FnOnce(&GpuInfo) -> T) -> T {
        self.state(make);
        let state: Box<dyn Any> = self.states.remove(&TypeId::of::<T>()).expect("made above");
        *state
            .downcast()
            .expect("a state is stored under its own type")
    }

    pub fn put_state<T: DeviceState>(&mut self, state: T) {
        self.states.insert(TypeId::of::<T>(), Box::new(state));
    }
}
