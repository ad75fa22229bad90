//! Element-wise passes over matrices of one shape and layout: the affine map
//! out = alpha·P + beta·Q + gamma·I (the applications' building block), a sum timed
//! as the streaming ceiling, and P ⊕ Q in a semiring (the sum of a tiled product's
//! tile products). WebGL: glsl/elementwise/affine.frag, every plane in one pass; WebGPU:
//! wgsl/elementwise/affine.wgsl; CPU: `plan::cpu::passes`.

pub mod cpu;
pub mod webgl;
pub mod webgpu;

use crate::engine::{Engine, Forms, Matrix, Timer};
use crate::error::{GpgpuError, Result};
use crate::plan::semiring::Semiring;

/// The operands of an element-wise pass (`what`) have `out`'s shape and layout: the
/// passes are public, and one of another shape panicked (WebGL's assert; the CPU's
/// pass indexing past p when its queue ran) or read past it (WebGPU, a wrong result).
fn check_element_wise(what: &str, out: &Matrix, p: &Matrix, q: Option<&Matrix>) -> Result<()> {
    let (s, l) = (out.shape(), out.layout());
    for (name, m) in [("p", Some(p)), ("q", q)] {
        let Some(m) = m else { continue };
        if (m.shape(), m.layout()) != (s, l) {
            return Err(GpgpuError::BadArgument {
                name: what.into(),
                detail: format!(
                    "{name} is a {}x{} matrix in the {:?} layout, out a {}x{} one in the {:?} \
                     layout: an element-wise pass takes operands of one shape and layout",
                    m.shape().rows,
                    m.shape().cols,
                    m.layout(),
                    s.rows,
                    s.cols,
                    l
                ),
            });
        }
    }
    Ok(())
}

impl Engine {
    /// out ← alpha·p + beta·q + gamma·I, element-wise; WebGL padding gets `pad`. Every
    /// operand has out's shape and layout, and beta is 0 without q: else BAD_ARGUMENT.
    pub fn affine(
        &mut self,
        out: &Matrix,
        p: &Matrix,
        q: Option<&Matrix>,
        coefficients: [f32; 3],
        pad: f32,
    ) -> Result<()> {
        let [alpha, beta, gamma] = coefficients;
        check_element_wise("affine", out, p, q)?;
        if q.is_none() && beta != 0.0 {
            // WebGL asserted, WebGPU added beta·p, the CPU left the term out.
            return Err(GpgpuError::BadArgument {
                name: "affine".into(),
                detail: format!(
                    "beta = {} multiplies q, and no q was given: pass Some(q), or beta 0",
                    crate::plan::decimal::display(beta)
                ),
            });
        }
        // q stands in the list for the backend check; the forms see it only if given.
        let given = q.is_some();
        let forms = Forms {
            webgl: |e: &mut _, [out, p, q]: [_; 3]| {
                let c = webgl::Affine { alpha, beta, gamma };
                webgl::apply(e, out, p, given.then_some(q), c, pad)
            },
            webgpu: |e: &mut _, [out, p, q]: [_; 3]| {
                webgpu::affine(e, out, p, given.then_some(q), coefficients)
            },
            cpu: |e: &mut _, [out, p, q]: [_; 3]| {
                cpu::affine(e, out, p, given.then_some(q), coefficients)
            },
        };
        self.by_backend([out, p, q.unwrap_or(p)], forms)
    }

    /// out ← p + q with the pass timed where the device can (the SpMV bench's
    /// streaming ceiling). Every operand has out's shape and layout, else BAD_ARGUMENT.
    pub fn add_timed(
        &mut self,
        out: &Matrix,
        [p, q]: [&Matrix; 2],
        timed: bool,
    ) -> Result<Option<Timer>> {
        check_element_wise("add_timed", out, p, Some(q))?;
        let sum = [1.0, 1.0, 0.0];
        let forms = Forms {
            webgl: |e: &mut _, [out, p, q]: [_; 3]| {
                let c = webgl::Affine {
                    alpha: 1.0,
                    beta: 1.0,
                    gamma: 0.0,
                };
                webgl::apply(e, out, p, Some(q), c, 0.0)
            },
            webgpu: |e: &mut _, [out, p, q]: [_; 3], t: Option<&_>| {
                webgpu::affine_timed(e, out, [p, q], sum, t)
            },
            cpu: |e: &mut _, [out, p, q]: [_; 3]| cpu::affine(e, out, p, Some(q), sum),
        };
        self.by_backend_timed([out, p, q], timed, forms)
    }

    /// out ← p ⊕ q element-wise in `semiring` (the sum of a tiled product's tile
    /// products); WebGL padding gets the semiring's zero. Every operand has out's
    /// shape and layout, else BAD_ARGUMENT.
    pub fn combine(
        &mut self,
        out: &Matrix,
        [p, q]: [&Matrix; 2],
        semiring: Semiring,
    ) -> Result<()> {
        check_element_wise("combine", out, p, Some(q))?;
        let zero = semiring.zero() as f32;
        let forms = Forms {
            webgl: |e: &mut _, [out, p, q]: [_; 3]| webgl::combine(e, out, [p, q], semiring, zero),
            webgpu: |e: &mut _, [out, p, q]: [_; 3]| webgpu::combine(e, out, [p, q], semiring),
            cpu: |e: &mut _, [out, p, q]: [_; 3]| cpu::combine(e, out, [p, q], semiring),
        };
        self.by_backend([out, p, q], forms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::cpu;
    use crate::plan::layout::Layout;
    use crate::plan::shape::Shape;

    #[test]
    fn element_wise_passes_refuse_operands_of_another_shape() {
        let mut e = cpu();
        let l = Layout::Linear;
        let two = e.upload(Shape::square(2), l, &[1.0; 4], 0.0).unwrap();
        let three = e.upload(Shape::square(3), l, &[1.0; 9], 0.0).unwrap();
        let out = e.alloc(Shape::square(2), l).unwrap();
        let big = e.alloc(Shape::square(3), l).unwrap();
        let code = |r: Result<()>| r.unwrap_err().code();
        // A p or q of another shape than out: the CPU's pass indexed past p (a panic
        // when the queue ran: "index out of bounds: the len is 4 but the index is 4"),
        // or read a prefix of it.
        assert_eq!(
            code(e.affine(&big, &two, None, [1.0, 0.0, 0.0], 0.0)),
            "BAD_ARGUMENT"
        );
        assert_eq!(
            code(e.affine(&out, &three, None, [1.0, 0.0, 0.0], 0.0)),
            "BAD_ARGUMENT"
        );
        let r = e.affine(&out, &two, Some(&three), [1.0, 1.0, 0.0], 0.0);
        assert_eq!(code(r), "BAD_ARGUMENT");
        let r = e.combine(&out, [&two, &three], Semiring::Ordinary);
        assert_eq!(code(r), "BAD_ARGUMENT");
        let r = e.add_timed(&out, [&three, &two], false).map(|_| ());
        assert_eq!(code(r), "BAD_ARGUMENT");
        // beta with no q: WebGL asserted, WebGPU added beta·p, the CPU left it out.
        let r = e.affine(&out, &two, None, [1.0, 2.0, 0.0], 0.0);
        assert_eq!(code(r), "BAD_ARGUMENT");
        // Matching operands still work.
        e.affine(&out, &two, Some(&two), [1.0, 2.0, 1.0], 0.0)
            .unwrap();
        let got = e.download(&out, "read", "readAsync").unwrap();
        assert_eq!(got, [4.0, 3.0, 3.0, 4.0]);
    }
}
