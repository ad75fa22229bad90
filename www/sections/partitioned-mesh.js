// Part 3 of "Partitioned matrices": Fox's and Cannon's algorithms on a q×q mesh of
// processors, simulated by the library on one GPU (gpu.foxAsync / cannonAsync),
// drawn step by step: which blocks of A and B each node holds, which it sends.
import { count, el, int } from '../ui/format.js';
import { integerMatrix } from '../reference.js';
import { backendName, disableWhileBusy, msText, nextFrame, stoppedText, timedAsync, devName } from './common.js';
import { svgLegend } from './svg-legend.js';
import { t } from '../i18n/index.js';
import { maxError, numberField, partStatus, publishPart, readNumber, selectField } from './partitioned-ui.js';
import { fieldGroup, runOnEnter } from './part-runner.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100, GAP = 36, PAD = 14;
const ALGORITHMS = { fox: 'Fox', cannon: 'Cannon' };

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** The counts the chapter gives for a q×q mesh: messages and block products. */
export function formulas(algorithm, q) {
  const messages = algorithm === 'fox' ? 2 * q * q * (q - 1) : 2 * q * (q - 1) + 2 * q * q * (q - 1);
  const text = algorithm === 'fox'
    ? `2q²(q−1) = 2·${q}²·${q - 1} = ${messages}: q stages each broadcast q(q−1) A blocks and roll q² B blocks (no roll after the last)`
    : `2q(q−1) + 2q²(q−1) = ${2 * q * (q - 1)} + ${2 * q * q * (q - 1)} = ${messages}: the skew moves q(q−1) blocks of each matrix, then q−1 rolls each move all 2q² blocks`;
  return { messages, blockProducts: q ** 3, text };
}

const pos = ([i, j]) => [PAD + j * (CELL + GAP) + CELL / 2, PAD + i * (CELL + GAP) + CELL / 2];
const rc = ([r, c]) => `${r},${c}`;

/** The mesh after `step`: nodes with the blocks they hold, arrows for the sends. */
function drawMesh(q, step) {
  const side = 2 * PAD + q * CELL + (q - 1) * GAP;
  const senders = new Set(step.sends.map((s) => rc(s.from)));
  const receivers = new Set(step.sends.map((s) => rc(s.to)));
  const multiply = step.kind === 'multiply';
  const defs = svg('defs', {}, ['A', 'B'].map((m) => svg('marker', { id: `mesh-head-${m}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
    svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `mesh-head ${m}` }))));
  const nodes = step.holds.map((h) => {
    const [x, y] = pos(h.node);
    const key = rc(h.node);
    const cls = ['mesh-node', senders.has(key) ? 'sends' : '', receivers.has(key) ? 'receives' : '', multiply ? 'multiplies' : ''].filter(Boolean).join(' ');
    return svg('g', { class: cls, 'data-node': key },
      svg('title', {}, `node (${key}) holds A(${rc(h.a)}) and B(${rc(h.b)})`),
      svg('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, rx: 8 }),
      svg('text', { x, y: y - 28, class: 'mesh-name' }, `node ${h.node[0]},${h.node[1]}`),
      svg('text', { x, y: y - 2, class: 'mesh-a' }, `A ${rc(h.a)}`),
      svg('text', { x, y: y + 22, class: 'mesh-b' }, `B ${rc(h.b)}`),
      multiply ? svg('text', { x, y: y + 40, class: 'mesh-mul' }, 'C += A·B') : null);
  });
  const arrows = step.sends.map((s, k) => {
    const [x0, y0] = pos(s.from), [x1, y1] = pos(s.to);
    const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy) || 1;
    // Bend each arrow by its length (longer ones, wrapping around the torus, bend
    // more), A to one side and B to the other, so that overlapping ones separate.
    const bend = (s.matrix === 'A' ? 1 : -1) * (18 + 0.18 * len);
    const cx = (x0 + x1) / 2 - (dy / len) * bend, cy = (y0 + y1) / 2 + (dx / len) * bend;
    const trim = (px, py, tx, ty, r) => { const l = Math.hypot(tx - px, ty - py) || 1; return [px + (tx - px) / l * r, py + (ty - py) / l * r]; };
    const [sx, sy] = trim(x0, y0, cx, cy, CELL * 0.42), [ex, ey] = trim(x1, y1, cx, cy, CELL * 0.5);
    return svg('path', { d: `M${sx.toFixed(1)},${sy.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ${ex.toFixed(1)},${ey.toFixed(1)}`, class: `mesh-send ${s.matrix}`, 'marker-end': `url(#mesh-head-${s.matrix})`, 'data-send': String(k) },
      svg('title', {}, `${s.matrix}(${rc(s.block)}) from node (${rc(s.from)}) to (${rc(s.to)}), ${s.bytes} bytes`));
  });
  const legend = meshLegend(side);
  // The text alternative says what the picture draws: every send and what each node holds.
  const sends = step.sends.map((s) => `${s.matrix}(${rc(s.block)}) from node (${rc(s.from)}) to (${rc(s.to)})`);
  const holds = step.holds.map((h) => `node (${rc(h.node)}) A(${rc(h.a)}), B(${rc(h.b)})`);
  const label = `The ${q}×${q} mesh after this step: ${step.sends.length} message${step.sends.length === 1 ? '' : 's'}${sends.length ? `: ${sends.join('; ')}` : ''}. Each node holds: ${holds.join('; ')}.${multiply ? ' Every node adds A·B to its block of C.' : ''}`;
  return svg('svg', { class: 'mesh-svg', viewBox: `0 0 ${side} ${side + legend.height + PAD / 2}`, role: 'img', 'aria-label': label },
    defs, svg('g', {}, nodes), svg('g', {}, arrows), legend.group);
}

/**
 * What the arrows' colours and the nodes' frames mean, drawn under the mesh so that a
 * saved PNG or SVG keeps it; the same keys at every step, so the picture keeps its size.
 */
function meshLegend(side) {
  const arrow = (m) => (x, y) => [svg('path', { d: `M${x - 13},${y} L${x + 11},${y}`, class: `mesh-key ${m}`, 'marker-end': `url(#mesh-head-${m})` })];
  const node = (cls) => (x, y) => [svg('rect', { x: x - 7, y: y - 5, width: 14, height: 10, rx: 2, class: `mesh-key-node ${cls}` })];
  return svgLegend([
    { marks: arrow('A'), swatch: 28, text: 'an A block sent' },
    { marks: arrow('B'), swatch: 28, text: 'a B block sent' },
    { marks: node('sends'), text: 'sends' },
    { marks: node('receives'), text: 'receives' },
    { marks: node('multiplies'), text: 'multiplies, C += A·B' },
  ], { x: PAD, top: side - PAD / 2, width: side - 2 * PAD, size: 13 });
}

export function meshPart(ctx, state) {
  const part = el('div', { class: 'part', id: 'partitioned-mesh' });
  const alg = selectField('mesh', t('sec.f.algorithm'), Object.entries(ALGORITHMS), state.mesh);
  const nField = numberField('meshN', t('sec.f.nSquare'), { min: 1, max: 64, value: state.meshN });
  const qField = numberField('meshQ', t('sec.f.qNodes'), { min: 1, max: 8, value: state.meshQ });
  const status = partStatus(part, 'partitioned-mesh-status', t('sec.mesh.idle'));
  const button = el('button', { type: 'button', class: 'primary', id: 'partitioned-mesh-run' }, t('sec.mesh.run'));
  const prev = el('button', { type: 'button', id: 'partitioned-mesh-prev', disabled: true, 'aria-label': t('sec.mesh.prevStep') }, t('sec.mesh.prev'));
  const next = el('button', { type: 'button', id: 'partitioned-mesh-next', disabled: true, 'aria-label': t('sec.mesh.nextStep') }, t('sec.mesh.next'));
  const stepText = el('span', { class: 'mesh-step', id: 'partitioned-mesh-step', 'aria-live': 'polite' }, '');
  const view = el('div', { class: 'mesh-view', id: 'partitioned-mesh-view' });
  const summary = el('div', { class: 'part-output', id: 'partitioned-mesh-summary' });
  let busy = false, shown = null; // shown: { res, algorithm, n, q, index, record }

  const show = (index, write = true) => {
    if (!shown) return;
    // Focus on a button this redraw disables or replaces would fall to <body>: it goes
    // to the one that does the same job now (the other arrow, the list's new entry).
    const focused = document.activeElement;
    const fromList = view.contains(focused) && focused.closest('.mesh-steps') !== null;
    const steps = shown.res.steps;
    shown.index = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[shown.index];
    prev.disabled = shown.index === 0;
    next.disabled = shown.index === steps.length - 1;
    stepText.textContent = `Step ${shown.index + 1} of ${steps.length}`;
    const bytes = step.sends.reduce((s, m) => s + m.bytes, 0);
    view.replaceChildren(...[
      el('p', { class: 'mesh-label', id: 'partitioned-mesh-label' }, el('strong', {}, `${step.kind}: `), step.label),
      el('div', { class: 'mesh-picture', style: `max-width: min(100%, ${Math.min(56, Math.max(30, 7 * shown.q))}rem)` }, drawMesh(shown.q, step)),
      el('p', { class: 'help' }, step.sends.length
        ? `${step.sends.length} message${step.sends.length === 1 ? '' : 's'} in this step, ${int(bytes)} bytes: arrows from sender to receiver, blue for A blocks, orange for B. Each node shows the blocks it holds after the step.`
        : `No message: every node multiplies the blocks it holds, C(i, j) += A·B, one ${devName(ctx.gpu)} product pass per node (${shown.q ** 2} in this step).`),
      step.sends.length ? el('details', {}, el('summary', {}, t('sec.mesh.messages')),
        el('ul', { class: 'mesh-sends' }, step.sends.map((s) => el('li', {}, `${s.matrix}(${rc(s.block)}): node (${rc(s.from)}) → (${rc(s.to)}), ${s.bytes} bytes`)))) : null,
      el('ol', { class: 'mesh-steps' }, steps.map((s, k) => el('li', { 'aria-current': k === shown.index ? 'step' : null },
        el('button', { type: 'button', class: 'link', onclick: () => show(k) }, `${s.kind}`), ` ${s.label}`)))].filter(Boolean));
    if (focused === next && next.disabled) prev.focus();
    else if (focused === prev && prev.disabled) next.focus();
    else if (fromList) view.querySelectorAll('.mesh-steps button')[shown.index]?.focus();
    const rec = { ...shown.record, step: shown.index + 1, stepKind: step.kind, stepLabel: step.label, stepSends: step.sends.length, stepBytes: bytes, holds: step.holds };
    publishPart('mesh', rec);
    if (write) ctx.url.set({ meshStep: shown.index + 1 });
  };
  prev.addEventListener('click', () => show(shown.index - 1));
  next.addEventListener('click', () => show(shown.index + 1));

  // Back / Forward during a run: followed when the run has shown its steps.
  let pending = null;
  /** The fields now say `s` (Back / Forward): its step, or the steps of other fields go. */
  const showing = (s) => shown && shown.algorithm === s.mesh && shown.n === s.meshN && shown.q === s.meshQ;
  /** The steps shown go, and the status says why. */
  const takeDown = (why) => {
    shown = null;
    summary.replaceChildren();
    view.replaceChildren();
    stepText.textContent = '';
    prev.disabled = next.disabled = true;
    status.set('idle', why);
  };
  const follow = (s) => {
    if (busy) { pending = s; return; }
    if (showing(s)) show(s.meshStep - 1, false);
    else if (s.ran?.includes(part.id)) {
      // This history entry ran these fields: they run again, at its step, when their turn comes.
      takeDown('Back or Forward: these fields ran here before; running them again…');
      ctx.url.replay(() => {
        const now = ctx.url.state();
        return now.ran.includes(part.id) && !showing(now) ? run({ step: now.meshStep, replay: true }) : null;
      });
    } else if (shown) {
      // Back / Forward to another algorithm, n or q: the steps of the old ones go.
      takeDown('The fields changed (Back or Forward): the run shown was of other ones. Press Run to run these.');
    }
  };

  const run = async ({ step = 1, replay = false } = {}) => {
    if (busy || !ctx.gpu) return;
    const algorithm = alg.select.value;
    const rn = readNumber(nField.input, 1, 64), rq = readNumber(qField.input, 1, 8);
    const bad = [rn, rq].filter((r) => 'why' in r).map((r) => r.why);
    if (!bad.length && rq.value > rn.value) {
      qField.input.setAttribute('aria-invalid', 'true');
      bad.push(t('mesh.qOverN', { q: rq.value, n: rn.value }));
    }
    if (bad.length) { status.set('error', t('status.notRun', { problems: bad.join('; ') })); return; }
    const n = rn.value, q = rq.value;
    busy = true;
    pending = null;
    const release = disableWhileBusy([button]);
    ctx.url.set({ mesh: algorithm, meshN: n, meshQ: q, meshStep: 1 }, { run: part.id, replay });
    status.set('running', `${ALGORITHMS[algorithm]} on a ${q}×${q} mesh: ${q ** 3} block products on ${backendName(ctx.gpu)}…`);
    try {
      await nextFrame();
      const a = integerMatrix(101, n * n, -4, 4), b = integerMatrix(102, n * n, -4, 4);
      const call = algorithm === 'fox' ? () => ctx.gpu.foxAsync(n, a, b, q) : () => ctx.gpu.cannonAsync(n, a, b, q);
      const [res, gpuMs] = await timedAsync(call);
      const ref = ctx.reference.multiply(n, n, n, a, b);
      const err = maxError(res.result, ref);
      const f = formulas(algorithm, q);
      const evenBytes = n % q === 0 ? f.messages * (n / q) ** 2 * 4 : null;
      const record = {
        status: 'done', algorithm, n, q, steps: res.steps.length, messages: res.messages, bytes: res.bytes, blockProducts: res.blockProducts,
        formula: { messages: f.messages, blockProducts: f.blockProducts, bytes: evenBytes }, maxError: err, gpuMs, backend: ctx.gpu.backend,
      };
      const ok = (good) => (good ? 'ok' : 'bad');
      summary.replaceChildren(el('div', { class: 'scroll-x' }, el('table', { class: 'app-results', id: 'partitioned-mesh-table' },
        el('caption', {}, `${ALGORITHMS[algorithm]}'s algorithm, ${n}×${n} matrices on a ${q}×${q} mesh (blocks of ${n % q ? `at most ${Math.ceil(n / q)}×${Math.ceil(n / q)}` : `${n / q}×${n / q}`})`),
        el('tbody', {}, [
          ['messages', `${int(res.messages)}`, `the formula: ${f.text}`, ok(res.messages === f.messages)],
          ['bytes sent', int(res.bytes), evenBytes === null ? 'blocks of unequal sizes (n is not a multiple of q): 4 bytes per float of each block sent' : `messages × (n/q)² × 4 bytes = ${int(evenBytes)}`, evenBytes === null ? null : ok(res.bytes === evenBytes)],
          [`block products (${devName(ctx.gpu)} passes)`, int(res.blockProducts), `q³ = ${f.blockProducts}: q stages, one product per node`, ok(res.blockProducts === f.blockProducts)],
          ['max error', err === 0 ? '0 (exact)' : String(err), `max |${devName(ctx.gpu)} − float64 AB|; whole numbers from −4 to 4, exact in float32`, ok(err === 0)],
          ['time', msText(gpuMs), `wall time of the whole call, all q³ ${devName(ctx.gpu)} passes and readback included`],
        ].map(([k, v, note, cls]) => el('tr', { 'data-key': k }, el('th', { scope: 'row' }, k, el('span', { class: 'what' }, note)), el('td', { class: cls || null }, v)))))));
      shown = { res, algorithm, n, q, index: 0, record };
      show(step - 1, step !== 1);
      status.set('done', `Done on ${backendName(ctx.gpu)}: ${count(res.steps.length, 'step')}, ${int(res.messages)} messages (the formula says ${f.messages}), ${int(res.bytes)} bytes, max error ${err === 0 ? '0' : err}. Step through with the buttons.`);
    } catch (err) {
      const d = ctx.describeError(err);
      status.set('error', stoppedText(d));
      publishPart('mesh', { status: 'error', error: { code: d.code, message: d.message } });
    } finally {
      busy = false;
      release();
      if (pending) follow(pending);
    }
  };
  button.addEventListener('click', () => run());
  runOnEnter(part, () => run());

  part.append(
    el('h3', { id: 'partitioned-mesh-h' }, 'Fox\'s and Cannon\'s algorithms: blocks on a mesh of processors'),
    el('p', {}, 'Give each of q×q processors one block of A, B and C. Node (i, j) needs every A', el('sub', {}, 'ik'), ' of its row and every B', el('sub', {}, 'kj'), ' of its column, and holds only one of each, so blocks travel. ',
      el('strong', {}, 'Fox: '), 'at stage k, the node holding A', el('sub', {}, 'i,(i+k) mod q'), ' broadcasts it along row i; everyone multiplies it into C with the B block it holds; then B rolls up one node (after every stage but the last). ',
      el('strong', {}, 'Cannon: '), 'first a skew: row i of A shifts left by i nodes and column j of B up by j (around the ends), each block in one message, so node (i, j) holds A', el('sub', {}, 'i,(i+j) mod q'), ' and B', el('sub', {}, '(i+j) mod q,j'), '; then q stages: multiply, and (after every stage but the last) A rolls left and B up by one node. The rolls go between neighbours only; the skew sends a block of row i of A i nodes along, of column j of B j nodes.'),
    el('p', { class: 'note-box info' }, 'Honestly: one device (the GPU, or the CPU with backend=cpu) plays all q² nodes here. The messages are bookkeeping (the library records which block would go from which node to which, and its bytes), but every local block product C(i, j) += A·B is a real pass on it, and the result is checked against float64.'),
    fieldGroup('partitioned-mesh-h', alg.element, nField.element, qField.element),
    el('div', { class: 'buttons' }, button), status.element, summary,
    el('div', { class: 'buttons mesh-nav' }, prev, stepText, next),
    view);

  return {
    element: part,
    run,
    set(s) {
      alg.select.value = s.mesh;
      nField.input.value = String(s.meshN);
      qField.input.value = String(s.meshQ);
      follow(s);
    },
  };
}
