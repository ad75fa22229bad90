//! The CPU backend's hot loops: the SIMD128 product kernel and the passes that
//! execute the GPU's plans in double or single precision. The backend itself
//! (matrices in wasm memory, the queue, the Web Workers) is the main crate's `cpu`.

pub mod kernel;
pub mod passes;
