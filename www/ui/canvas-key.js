// A key drawn under a canvas picture when it is saved (www/ui/figures.js calls
// canvas.figurePicture()): the page shows a canvas's colour scale or swatches as HTML
// beside it, which a saved PNG would leave behind. The canvas on the page is not touched.

const FONT = 13, ROW = 22, PAD = 8, BAR = 96, BOX = 14;

/**
 * Makes Save PNG of `canvas` save it with the key `entries()` returns (null or [] for
 * none). An entry is a colour scale { colours: [css…] left to right, from, to }, a
 * swatch { colour, text } (`outline`: a frame of that colour and `width` instead of a
 * filled box), or a line of text { text }.
 */
export function giveKey(canvas, entries) {
  canvas.figurePicture = () => {
    const key = entries();
    return key?.length ? withKey(canvas, key) : canvas;
  };
}

/** A new canvas: `canvas` (its own pixels, centred) over a white band holding `key`. */
export function withKey(canvas, key) {
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = `${FONT}px system-ui, sans-serif`;
  const textW = (s) => Math.ceil(measure.measureText(s).width);
  const items = key.map((e) => {
    if (e.colours) return { e, w: textW(e.from) + BAR + textW(e.to) + 12 };
    if (e.colour || e.outline) return { e, w: BOX + 6 + textW(e.text) };
    return { e, w: textW(e.text) };
  });
  const width = Math.max(canvas.width, ...items.map((i) => i.w + 2 * PAD));
  // Entries side by side while they fit, else on the next row.
  let x = PAD, row = 0;
  for (const item of items) {
    if (x > PAD && x + item.w > width - PAD) { x = PAD; row++; }
    Object.assign(item, { x, row });
    x += item.w + 2 * PAD;
  }
  const out = document.createElement('canvas');
  out.width = width;
  out.height = canvas.height + PAD + (row + 1) * ROW + PAD / 2;
  const g = out.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, out.width, out.height);
  g.imageSmoothingEnabled = false;
  g.drawImage(canvas, Math.floor((width - canvas.width) / 2), 0);
  g.font = measure.font;
  g.textBaseline = 'middle';
  for (const { e, x: left, row: r } of items) {
    const mid = canvas.height + PAD + r * ROW + ROW / 2;
    const text = (s, at) => { g.fillStyle = '#1f2937'; g.fillText(s, at, mid); };
    if (e.colours) {
      text(e.from, left);
      const x0 = left + textW(e.from) + 6;
      const grad = g.createLinearGradient(x0, 0, x0 + BAR, 0);
      e.colours.forEach((c, k) => grad.addColorStop(k / Math.max(1, e.colours.length - 1), c));
      g.fillStyle = grad;
      g.fillRect(x0, mid - BOX / 2, BAR, BOX);
      text(e.to, x0 + BAR + 6);
    } else if (e.colour || e.outline) {
      if (e.colour) { g.fillStyle = e.colour; g.fillRect(left, mid - BOX / 2, BOX, BOX); }
      // A pale swatch on the white band still shows its edge.
      g.strokeStyle = e.outline || '#9ca3af';
      g.lineWidth = e.width || 1;
      const inset = g.lineWidth / 2;
      g.strokeRect(left + inset, mid - BOX / 2 + inset, BOX - 2 * inset, BOX - 2 * inset);
      text(e.text, left + BOX + 6);
    } else {
      text(e.text, left);
    }
  }
  return out;
}
