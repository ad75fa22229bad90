//! The panic hook is the application's: the Rust `Gpgpu::new` leaves it alone, and
//! only the JavaScript constructor installs console_error_panic_hook. A file of its
//! own, as that hook is installed once per wasm instance.

use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::Gpgpu;
use wasm_bindgen::JsValue;
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
fn only_the_javascript_constructor_installs_a_panic_hook() {
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
    let js = JsGpgpu::new(JsValue::UNDEFINED).expect("WebGL2");
    assert_ne!(
        hook_address(),
        ours,
        "new Gpgpu() from JavaScript installs one"
    );
    drop(js);
}
