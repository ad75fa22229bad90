//! The panic hook is the application's: the Rust `Gpgpu::new` and `Gpgpu::create`
//! (either backend) leave it alone, and only the JavaScript entry points install
//! console_error_panic_hook. A file of its own, as that hook is installed once per
//! wasm instance: this file checks `Gpgpu.create` (which, like `new Gpgpu()`, calls
//! `console_error_panic_hook::set_once`); a second JS entry point in the same
//! instance could not show a change.

#[macro_use]
mod common;

use common::*;
use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::{BackendChoice, CreateOptions, Gpgpu};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Where the current hook lives: the same allocation is the same hook.
fn hook_address() -> usize {
    let hook = std::panic::take_hook();
    let address = &*hook as *const _ as *const () as usize;
    std::panic::set_hook(hook);
    address
}

#[wasm_bindgen_test]
async fn only_the_javascript_entry_points_install_a_panic_hook() {
    // Not a zero-sized closure, so that its box has an address of its own.
    let marker = String::from("the application's hook");
    std::panic::set_hook(Box::new(move |_| assert!(!marker.is_empty())));
    let ours = hook_address();
    let g = Gpgpu::new(None).expect("WebGL2");
    assert_eq!(
        hook_address(),
        ours,
        "Gpgpu::new replaced the application's hook"
    );
    drop(g);
    for backend in [
        BackendChoice::WebGl,
        BackendChoice::WebGpu,
        BackendChoice::Auto,
    ] {
        let options = CreateOptions {
            backend,
            ..CreateOptions::default()
        };
        let g = Gpgpu::create(options).await.expect("a Gpgpu");
        assert_eq!(
            hook_address(),
            ours,
            "Gpgpu::create({backend:?}) replaced the application's hook"
        );
        drop(g);
    }
    let js = settle(JsGpgpu::create(options(&[("backend", "webgpu")])))
        .await
        .expect("Gpgpu.create({ backend: 'webgpu' })");
    assert_ne!(
        hook_address(),
        ours,
        "Gpgpu.create() from JavaScript installs one"
    );
    drop(js);
}
