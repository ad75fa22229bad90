// Heatmap colours for a projector. The library's diverging map (blue, white, red:
// glsl/heatmap/heatmap.frag) tells sign by hue, which greyscale loses and a washed-out
// projector pales; in projector mode the page recolours the library's pixels to a
// cividis-like map whose lightness rises steadily from −range (dark blue) through 0
// (grey) to +range (yellow), readable in greyscale and with any colour vision. NaN and
// ±Inf keep their own colours. Switching projector mode off puts the library's pixels back.

/** A colour map as stops [t, [r, g, b]] along t ∈ [−1, 1]. */
export const LIBRARY_DIVERGING = [[-1, [33, 102, 171]], [0, [247, 247, 247]], [1, [179, 23, 43]]];
export const PROJECTOR_DIVERGING = [[-1, [0, 32, 77]], [-0.5, [65, 77, 107]], [0, [124, 123, 120]], [0.5, [188, 175, 111]], [1, [255, 234, 70]]];

/** The library's NaN, +Inf and −Inf colours (left as they are). */
const SPECIAL = [[153, 0, 204], [230, 159, 0], [0, 158, 115]];

/** The colour of `map` at t ∈ [−1, 1], as [r, g, b] bytes. */
export function colourAt(map, t) {
  let k = 0;
  while (k < map.length - 2 && t > map[k + 1][0]) k++;
  const [t0, a] = map[k], [t1, b] = map[k + 1];
  const f = Math.min(1, Math.max(0, (t - t0) / (t1 - t0)));
  return a.map((v, i) => Math.round(v + (b[i] - v) * f));
}

/** The t at which `map` comes nearest to `rgb`, and how near (squared distance). */
export function locate(map, rgb) {
  let best = { t: 0, d: Infinity };
  for (let k = 0; k + 1 < map.length; k++) {
    const [t0, a] = map[k], [t1, b] = map[k + 1];
    const ab = a.map((v, i) => b[i] - v);
    const len = ab.reduce((s, v) => s + v * v, 0);
    const f = Math.min(1, Math.max(0, ab.reduce((s, v, i) => s + v * (rgb[i] - a[i]), 0) / len));
    const d = a.reduce((s, v, i) => s + (v + ab[i] * f - rgb[i]) ** 2, 0);
    if (d < best.d) best = { t: t0 + (t1 - t0) * f, d };
  }
  return best;
}

/** CSS gradient stops of `map`, left to right. */
export const gradient = (map) => `linear-gradient(to right, ${map.map(([, c]) => `rgb(${c.join(',')})`).join(', ')})`;

/** Relative luminance (WCAG) of [r, g, b] bytes. */
export function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Redraws `canvas` (a 2D canvas the library drew a heatmap on) from map `from` to map
 * `to`: each pixel of `from`'s colours gets `to`'s colour at the same t. Returns the
 * pixels it had (ImageData), to put back.
 */
export function recolour(canvas, from, to) {
  const ctx = canvas.getContext('2d');
  if (!ctx || !canvas.width || !canvas.height) return null;
  const before = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const image = new ImageData(new Uint8ClampedArray(before.data), before.width, before.height);
  const px = image.data;
  const seen = new Map();
  for (let k = 0; k < px.length; k += 4) {
    if (px[k + 3] === 0) continue;
    const key = (px[k] << 16) | (px[k + 1] << 8) | px[k + 2];
    let out = seen.get(key);
    if (out === undefined) {
      const rgb = [px[k], px[k + 1], px[k + 2]];
      const special = SPECIAL.some((c) => c.every((v, i) => Math.abs(v - rgb[i]) <= 2));
      const at = special ? null : locate(from, rgb);
      // 8-bit rounding puts a map's pixel within about 1 of its line; anything else is left alone.
      out = at && at.d <= 12 ? colourAt(to, at.t) : null;
      seen.set(key, out);
    }
    if (out) { px[k] = out[0]; px[k + 1] = out[1]; px[k + 2] = out[2]; }
  }
  ctx.putImageData(image, 0, 0);
  return before;
}
