//! RANSAC homographies for JavaScript: `ransacHomographyAsync(src, dst, options)`
//! on the Gpgpu class (a Promise on both backends: the counts come back through
//! the asynchronous readback).

use js_sys::{Float32Array, Float64Array, Object, Promise, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;

use super::args::{
    array_len, check_copies, copy_checked, count_option, known_keys, number_option,
    positive_option, set,
};
use super::{op, promise, JsGpgpu};
use crate::batched::ransac::{self, Ransac};
use crate::error::{GpgpuError, Result};
use crate::plan::homography::{self, RansacOptions, MAX_ITERATIONS};

#[wasm_bindgen(typescript_custom_section)]
const TS_RANSAC: &str = r#"
/** `iterations`: hypotheses in the batch, 1..2^20 (default 2000); `threshold`: the
 *  largest reprojection error of an inlier, in the points' units (default 3); `seed`
 *  of the 4-point samples, a whole number >= 0 (default 1). */
export interface RansacOptions { iterations?: number; threshold?: number; seed?: number; }
/** `h`: 3×3 row-major with h[8] = 1, refitted on the best hypothesis's inliers (null
 *  when every sample was degenerate); `inliers`: one 0/1 per correspondence;
 *  `hypotheses` (9 each, zeros for a degenerate sample) and `counts`: every hypothesis
 *  of the batch and its inliers; `fitMs`, `scoreMs`: the two passes' GPU times where
 *  the device times passes (else null). */
export interface RansacResult { h: Float64Array | null; inliers: Uint8Array; iterations: number;
  best: number; bestCount: number; hypotheses: Float32Array; counts: Uint32Array;
  fitMs: number | null; scoreMs: number | null; }
"#;

/// `{ iterations, threshold, seed }`, each optional.
fn options(value: &JsValue) -> Result<RansacOptions> {
    let mut o = RansacOptions::default();
    let example = "{ iterations: 2000, threshold: 3 }";
    known_keys(value, &["iterations", "threshold", "seed"], example)?;
    if value.is_undefined() || value.is_null() {
        return Ok(o);
    }
    o.iterations = count_option(value, "iterations", o.iterations, MAX_ITERATIONS as f64)?;
    if let Some(t) = positive_option(value, "options", "threshold")? {
        o.threshold = t;
    }
    match number_option(value, "seed")? {
        None => {}
        Some(s) if s >= 0.0 && s <= u32::MAX as f64 && s.fract() == 0.0 => o.seed = s as u32,
        Some(s) => {
            return Err(GpgpuError::BadArgument {
                name: "options.seed".into(),
                detail: format!(
                    "is {}; it must be a whole number from 0 to 4294967295",
                    crate::plan::decimal::display(s)
                ),
            })
        }
    }
    Ok(o)
}

fn result_object(r: Ransac) -> Object {
    let o = Object::new();
    let h =
        r.h.map_or(JsValue::NULL, |h| Float64Array::from(&h[..]).into());
    set(&o, "h", h);
    set(&o, "inliers", Uint8Array::from(&r.inliers[..]));
    set(&o, "iterations", r.iterations as f64);
    set(&o, "best", r.best as f64);
    set(&o, "bestCount", r.best_count as f64);
    set(&o, "hypotheses", Float32Array::from(&r.hypotheses[..]));
    set(&o, "counts", Uint32Array::from(&r.counts[..]));
    let ms = |v: Option<f64>| v.map_or(JsValue::NULL, JsValue::from);
    set(&o, "fitMs", ms(r.fit_ms));
    set(&o, "scoreMs", ms(r.score_ms));
    o
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// The homography taking `src` to `dst` (each [x0, y0, x1, y1, …], at least 4
    /// correspondences) by RANSAC: a batch of `iterations` seeded 4-point samples
    /// fitted (normalised DLT, exact 8×8 solve) and scored against every
    /// correspondence on the GPU, the best refitted on its inliers.
    #[wasm_bindgen(js_name = ransacHomographyAsync, unchecked_return_type = "Promise<RansacResult>")]
    pub fn ransac_homography_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] src: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] dst: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RansacOptions")] opts: JsValue,
    ) -> Promise {
        // The points' count against the device and WebAssembly memory before either
        // array is copied (they were copied first: 10^8 correspondences trapped).
        let args = (|| {
            let o = options(&opts)?;
            let (ls, ld) = (array_len("src", &src)?, array_len("dst", &dst)?);
            let n = homography::check_counts(ls, ld)?;
            ransac::check_size(&self.gpu.engine(), n, &o)?;
            check_copies("RANSAC", &[("src", ls, 4), ("dst", ld, 4)])?;
            Ok((copy_checked("src", &src)?, copy_checked("dst", &dst)?, o))
        })();
        let handle = self.gpu.handle();
        promise(args.and_then(|(src, dst, o)| {
            op(async move {
                let r = ransac::ransac(&handle, &src, &dst, &o).await?;
                Ok(result_object(r).into())
            })
        }))
    }
}
