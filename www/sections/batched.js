// "Many small problems at once" (issue 15, point 4): the developer's log (BRIEF.md
// §4) on the GPU, thousands of tiny independent problems in one pass each. Three
// parts, each with its own Run and status:
//   1. a homography by RANSAC, 2000 hypotheses fitted and scored on the GPU
//      (batched-ransac.js);
//   2. batched 3×3 products and powers, one invocation per output cell
//      (batched-products.js);
//   3. batched SVD by one-sided Jacobi (batched-svd.js).
// One at a time (a shared partLock): a part pressed while another runs waits for it.
// Their controls live in the address (config.js SECTION_PARAMS: ransac*, prod*,
// svd*): a link shows the same run. www/app/sections.js mounts this on its own panel, #batched.
import { el } from '../ui/format.js';
import { ransacPart } from './batched-ransac.js';
import { productsPart } from './batched-products.js';
import { svdPart } from './batched-svd.js';
import { partLock } from './part-runner.js';

const ID = 'batched';

function intro() {
  return [
    el('p', {}, 'A GPU wants tens of thousands of threads; a 3×3 product, a homography or the SVD of a 9×9 matrix has a handful of numbers. The answer of a developer\'s log: do thousands of them at once. Its RANSAC makes 2000 homography hypotheses per batch, each from the SVD of a 9×9 system by one-sided Jacobi rotations with 9 threads per column, 7 matrices side by side in a workgroup of 63; a 3×3 multiply falls out with one thread per output cell; the whole batch takes about 3.5–4 ms and the inlier check about 140 µs (a 2012 GPU), against about 200 ms for an older CUDA RANSAC. The goal: keep all the data on the GPU.'),
    el('p', {}, 'The small matrices sit side by side in one texture or buffer (an atlas), and one pass does the same thing to all of them, each invocation or fragment working out from its position which matrix and which entry is its own. Below: RANSAC, batched products, batched SVD, each checked against float64 computed here in JavaScript.'),
  ];
}

export default {
  id: ID,
  title: 'Many small problems at once',
  mount(container, ctx) {
    const state = ctx.url.state();
    // One GPU run at a time in this panel: RANSAC starts on its own when scrolled to,
    // and a product pressed meanwhile timed RANSAC's passes too (2000 products in
    // 754 ms instead of 4–7). A part pressed while another runs waits its turn.
    const lock = partLock();
    this.ransac = ransacPart(ctx, state, lock);
    this.products = productsPart(ctx, state, lock);
    this.svd = svdPart(ctx, state, lock);
    container.replaceChildren(
      el('div', { class: 'app-intro' }, intro()),
      this.ransac.element, this.products.element, this.svd.element);
    // The RANSAC demo is a fraction of a second: it runs once it is scrolled to.
    if ('IntersectionObserver' in window) {
      const seen = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        if (!this.ransac.done && this.ransac.element.dataset.status === 'idle') this.ransac.run();
      });
      seen.observe(this.ransac.element);
    }
  },
  /** After the demo's first run: the parts a link asked for run and show their state. */
  async restore(ctx) {
    const state = ctx.url.state();
    if (state.given.some((k) => k.startsWith('ransac'))) await this.ransac.run({ replay: true });
    if (state.given.some((k) => k.startsWith('prod'))) await this.products.run({ replay: true });
    if (state.given.some((k) => k.startsWith('svd'))) await this.svd.run({ replay: true });
  },
  /** Back / Forward: the controls follow the address. */
  onUrl(ctx) {
    const state = ctx.url.state();
    this.ransac.set(state);
    this.products.set(state);
    this.svd.set(state);
  },
};
