// What the teaching page's modules share (www/app/*.js): the page's state, also
// window.__page for the report script and the page tests ({ gpu, info, backends, session,
// last: { gpu: Float32Array, ref: Float64Array } }), the page's widgets once start-up has
// made them, the run's heatmaps, and small helpers to wait for the browser.

export const $ = (id) => document.getElementById(id);
export const sleep = (t) => new Promise((r) => setTimeout(r, t));
export const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

export const page = { gpu: null, info: null, last: null, session: null, backends: null };
window.__page = page;

/**
 * The widgets start-up makes (www/app/main.js): the form (www/ui/controls.js), the pass
 * timeline, the float64 worker's client, the WebGL context of the page's instance, the
 * shader panel, and the "Link for slides" box (www/ui/slides.js), whose snippet follows
 * the permalink.
 */
export const ui = { controls: null, timeline: null, refClient: null, gl: null, shaderPanel: null, slides: null };

/** The run's heatmaps: a, b (a product's), out, diff. */
export const views = {};
