//! Getting a WebGL2 context from a canvas, the caller's or our own.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{EventTarget, HtmlCanvasElement, OffscreenCanvas, WebGl2RenderingContext};

use crate::common::guard::describe_js;
use crate::error::{GpgpuError, Result};

thread_local! {
    /// Canvases of freed engines, each with its live context (`Canvas::keep_for_next`).
    static SPARES: RefCell<Vec<Canvas>> = const { RefCell::new(Vec::new()) };
}

/// At most this many contexts wait for an engine: as many as a page (or a test) holds
/// at once, in the usual case, while leaving most of a browser's 16 to the page.
const MAX_SPARES: usize = 4;

/// The canvas a context lives on: an element on the page or an OffscreenCanvas
/// (in a worker, where there is no document).
#[derive(Clone)]
pub enum Canvas {
    Element(HtmlCanvasElement),
    Offscreen(OffscreenCanvas),
}

impl Canvas {
    /// Accepts an HTMLCanvasElement or OffscreenCanvas; anything else is a bad argument.
    pub fn from_js(value: &JsValue) -> Result<Canvas> {
        if let Some(c) = value.dyn_ref::<HtmlCanvasElement>() {
            Ok(Canvas::Element(c.clone()))
        } else if let Some(c) = value.dyn_ref::<OffscreenCanvas>() {
            Ok(Canvas::Offscreen(c.clone()))
        } else {
            Err(GpgpuError::BadArgument {
                name: "canvas".into(),
                detail: "expected an HTMLCanvasElement or OffscreenCanvas (or nothing, to let \
                         the library make its own)"
                    .into(),
            })
        }
    }

    /// A canvas for an engine of the library's own: one a freed engine left (see
    /// [`Canvas::keep_for_next`]) if its context lives, else a new one.
    pub fn for_engine() -> Result<Canvas> {
        while let Some(spare) = SPARES.with(|s| s.borrow_mut().pop()) {
            if spare.webgl2().is_ok_and(|gl| !gl.is_context_lost()) {
                return Ok(spare);
            }
        }
        Canvas::create()
    }

    /// A small new canvas of our own: the work happens in textures, not on the canvas.
    pub fn create() -> Result<Canvas> {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            let el = doc
                .create_element("canvas")
                .map_err(|e| GpgpuError::NoWebGl2 {
                    detail: format!("could not create a canvas: {}", describe_js(&e)),
                })?;
            let canvas: HtmlCanvasElement = el.unchecked_into();
            canvas.set_width(1);
            canvas.set_height(1);
            return Ok(Canvas::Element(canvas));
        }
        OffscreenCanvas::new(1, 1)
            .map(Canvas::Offscreen)
            .map_err(|e| GpgpuError::NoWebGl2 {
                detail: format!("no document and no OffscreenCanvas: {}", describe_js(&e)),
            })
    }

    /// Keeps a canvas of the library's own, its context alive, for the next engine;
    /// false when enough are kept already (the caller then loses the context). WebKit
    /// counts a context against its limit of live contexts (16) until it is garbage
    /// collected, WEBGL_lose_context or not, and takes the oldest away when a page
    /// makes one more: a page that made and freed engines one after another lost the
    /// one it still held.
    pub fn keep_for_next(&self) -> bool {
        self.set_size(1, 1);
        SPARES.with(|s| {
            let mut s = s.borrow_mut();
            if s.len() < MAX_SPARES {
                s.push(self.clone());
                true
            } else {
                false
            }
        })
    }

    pub fn event_target(&self) -> &EventTarget {
        match self {
            Canvas::Element(c) => c.as_ref(),
            Canvas::Offscreen(c) => c.as_ref(),
        }
    }

    pub fn js_value(&self) -> JsValue {
        match self {
            Canvas::Element(c) => c.clone().into(),
            Canvas::Offscreen(c) => c.clone().into(),
        }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Canvas::Element(c) => (c.width(), c.height()),
            Canvas::Offscreen(c) => (c.width(), c.height()),
        }
    }

    pub fn set_size(&self, width: u32, height: u32) {
        match self {
            Canvas::Element(c) => {
                c.set_width(width);
                c.set_height(height);
            }
            Canvas::Offscreen(c) => {
                c.set_width(width);
                c.set_height(height);
            }
        }
    }

    /// A WebGL2 context without depth, stencil or antialiasing (none is used), and
    /// asking for the fast GPU where a machine has two.
    pub fn webgl2(&self) -> Result<WebGl2RenderingContext> {
        let attrs = js_sys::Object::new();
        for (k, v) in [
            ("alpha", JsValue::TRUE),
            ("antialias", JsValue::FALSE),
            ("depth", JsValue::FALSE),
            ("stencil", JsValue::FALSE),
            ("premultipliedAlpha", JsValue::FALSE),
            ("preserveDrawingBuffer", JsValue::TRUE),
            ("powerPreference", JsValue::from_str("high-performance")),
        ] {
            js_sys::Reflect::set(&attrs, &k.into(), &v).ok();
        }
        let got = match self {
            Canvas::Element(c) => c.get_context_with_context_options("webgl2", &attrs),
            Canvas::Offscreen(c) => c.get_context_with_context_options("webgl2", &attrs),
        };
        match got {
            Ok(Some(ctx)) => {
                ctx.dyn_into::<WebGl2RenderingContext>()
                    .map_err(|_| GpgpuError::NoWebGl2 {
                        detail: "getContext('webgl2') returned something else".into(),
                    })
            }
            Ok(None) => Err(GpgpuError::NoWebGl2 {
                detail: "getContext('webgl2') returned null: WebGL2 is disabled or \
                         unsupported, or the canvas already has a different context"
                    .into(),
            }),
            Err(e) => Err(GpgpuError::NoWebGl2 {
                detail: format!("getContext('webgl2') threw {}", describe_js(&e)),
            }),
        }
    }
}
