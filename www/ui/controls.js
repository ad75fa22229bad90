// The configuration form: filled from a configuration, read back into one, and
// showing only the fields the chosen input and operation use.
import { BACKENDS, DEFAULTS, DEFAULT_KERNEL, N_CAP, N_PRESETS, OPS, REF_AUTO_MAX_N, referenceOn } from '../config.js';
import { INPUT_KINDS } from '../inputs.js';
import { t, tLibrary } from '../i18n/index.js';
import { el } from './format.js';

export class Controls {
  constructor(form) {
    this.form = form;
    this.f = (id) => form.querySelector(`#${id}`);
    for (const [name, kind] of Object.entries(INPUT_KINDS)) {
      this.f('input').append(el('option', { value: name }, t(`input.${name}`)));
      this.f('bInput').append(el('option', { value: name }, t(`input.${name}`)));
    }
    for (const name of Object.keys(OPS)) this.f('op').append(el('option', { value: name }, t(`op.${name}`)));
    for (const name of BACKENDS) this.f('backend').append(el('option', { value: name }, t(`backend.${name}`)));
    // Another backend lists other kernels: the kernel menu follows it.
    this.f('backend').addEventListener('change', () => {
      this.#fillKernels();
      this.onbackend?.(this.f('backend').value);
    });
    const presets = form.querySelector('.presets');
    for (const n of N_PRESETS) {
      presets.append(el('button', { type: 'button', 'data-n': String(n), 'aria-pressed': 'false', onclick: () => {
        this.f('n').value = String(n);
        this.#update();
      } }, String(n)));
    }
    form.addEventListener('input', () => this.#update());
    form.addEventListener('change', () => this.#update());
    // 'input' on the checkbox itself runs before the form's 'input' handler (which
    // would otherwise reset an untouched box to its automatic value on first click).
    this.f('ref').addEventListener('input', () => { this.refTouched = true; });
    this.kernels = [];
    this.supported = {};
    this.maxN = null;
    this.backends = { resolve: () => null, webgpu: null, reason: '' };
  }

  /**
   * What the backends are: `all` kernels (Gpgpu.kernels()), `webgpu` and `webgl` (what the
   * browser offers, www/backends.js probeWebgpu() and probeWebgl()), `resolve(choice)` →
   * 'webgl' | 'webgpu' | null and `reason`, why auto picks what it picks.
   */
  setBackends({ all, webgpu, webgl, resolve, reason }) {
    this.kernels = all;
    this.backends = { webgpu, resolve, reason };
    // A backend the browser cannot give stays listed, marked and not selectable, as
    // "Several devices" marks its devices.
    const missing = {
      webgpu: webgpu && (webgpu.state === 'none' || webgpu.state === 'no-adapter'),
      webgl: webgl?.state === 'none',
    };
    for (const [name, none] of Object.entries(missing)) {
      const option = this.f('backend').querySelector(`option[value="${name}"]`);
      option.disabled = !!none;
      option.textContent = none ? t('backend.missing', { label: t(`backend.${name}`) }) : t(`backend.${name}`);
    }
    this.#fillKernels();
    this.#update();
  }

  /**
   * The limits and kernels of the device of the backend chosen in the form: `info`
   * from gpu.info(), `defaultKernelFor(n)` the kernel auto picks there.
   */
  setDevice({ maxDimension, kernels: supported, backend, renderer }, defaultKernelFor) {
    this.maxN = maxDimension;
    if (backend === 'webgl') this.webglRenderer = renderer;
    this.defaultKernelFor = defaultKernelFor;
    this.f('n').max = String(maxDimension);
    this.f('n-max').textContent = String(this.nMax);
    for (const b of this.form.querySelectorAll('.presets button')) b.disabled = Number(b.dataset.n) > maxDimension;
    this.supported[backend] = supported;
    this.#fillKernels();
    this.#update();
  }

  /**
   * The largest n the form takes, as its help text says: the device's limit, or the
   * page's own cap where that is lower (WebGPU allows larger sides than a URL may ask)
   * or the device is not known yet.
   */
  get nMax() {
    return Math.min(this.maxN ?? N_CAP, N_CAP);
  }

  /** The backend the form's choice runs on ('auto' as resolved; WebGL until known). */
  get backend() {
    const choice = this.f('backend').value || DEFAULTS.backend;
    return this.backends.resolve(choice) || 'webgl';
  }

  /** The kernel menu: auto and the kernels of the chosen backend; keeps the choice when it fits. */
  #fillKernels() {
    const backend = this.backend;
    const select = this.f('kernel');
    const was = select.value;
    const supported = this.supported[backend];
    select.replaceChildren();
    for (const k of this.kernels.filter((x) => x.backend === backend)) {
      const ok = !supported || supported.includes(k.name);
      select.append(el('option', { value: k.name, disabled: !ok }, ok ? k.name : t('kernel.unsupported', { name: k.name })));
    }
    select.append(el('option', { value: 'auto' }, t('kernel.auto')));
    const fits = [...select.options].some((o) => o.value === was && !o.disabled);
    select.value = fits ? was : DEFAULT_KERNEL[backend];
  }

  /** Fills the form from a configuration. */
  set(config) {
    for (const key of ['n', 'seed', 'prob', 'k', 'p', 'bSeed', 'bProb']) this.f(key).value = String(config[key]);
    for (const key of ['input', 'op', 'bInput', 'backend']) this.f(key).value = config[key];
    this.#fillKernels();
    this.f('kernel').value = config.kernel;
    this.mode = config.mode;
    this.refTouched = config.ref !== 'auto';
    this.f('ref').checked = referenceOn(config);
    this.#update();
  }

  /**
   * Reads the form: { config, problems }. A field that does not parse keeps the
   * default in `config` and is reported in `problems` ({ param, value, why }).
   */
  get() {
    const config = { ...DEFAULTS };
    const problems = [];
    // A number field holding what does not parse ("1e", "--3") reads as "": say so, not “”.
    const text = (key) => (this.f(key).validity.badInput ? t('why.notNumber') : this.f(key).value.trim());
    const whole = (key, lo, hi) => {
      const raw = text(key);
      const v = Number(raw);
      if (raw === '' || !Number.isSafeInteger(v) || v < lo || v > hi) {
        problems.push({ param: key, value: raw, why: t('why.whole', { lo, hi }) });
      } else config[key] = v;
    };
    const prob = (key) => {
      const raw = text(key);
      const v = Number(raw);
      if (raw === '' || !Number.isFinite(v) || v < 0 || v > 1) {
        problems.push({ param: key, value: raw, why: t('why.probability') });
      } else config[key] = v;
    };
    whole('n', 1, this.nMax);
    whole('seed', 0, 4294967295);
    prob('prob');
    whole('k', 0, 64);
    whole('p', 0, 2 ** 53 - 1);
    whole('bSeed', 0, 4294967295);
    prob('bProb');
    for (const key of ['input', 'op', 'bInput', 'backend', 'kernel']) config[key] = this.f(key).value || DEFAULTS[key];
    config.mode = this.mode || DEFAULTS.mode;
    const wanted = this.f('ref').checked;
    config.ref = !this.refTouched || referenceOn({ ...config, ref: 'auto' }) === wanted ? 'auto' : wanted ? '1' : '0';
    return { config, problems };
  }

  /** Marks exactly the fields named in `keys` as invalid (aria-invalid, styled). */
  markInvalid(keys) {
    for (const key of ['n', 'seed', 'prob', 'k', 'p', 'bSeed', 'bProb']) {
      if (keys.includes(key)) this.f(key).setAttribute('aria-invalid', 'true');
      else this.f(key).removeAttribute('aria-invalid');
    }
  }

  /** Turns the form's controls on or off while a run owns the GPU. */
  setBusy(busy) {
    for (const e of this.form.querySelectorAll('fieldset')) e.disabled = busy;
  }

  #backendHelp() {
    const choice = this.f('backend').value;
    const w = this.backends.webgpu;
    if (choice === 'auto') {
      const to = this.backends.resolve('auto');
      const here = this.backends.reason ? t('backend.help.here', { reason: this.backends.reason }) : '';
      // "Here <reason>: auto → webgl." / "Here <reason>." / "Here: auto → webgl."
      const tail = to ? `${here || t('backend.help.here', { reason: '' }).trim()}: ${t('backend.help.autoTo', { backend: to })}` : here ? `${here}.` : '';
      return `${t('backend.help.auto')}${tail ? ` ${tail}` : ''}`;
    }
    if (choice === 'webgl') {
      const none = w && (w.state === 'none' || w.state === 'no-adapter') ? ` ${t('backend.help.noWebgpu', { why: w.text })}` : '';
      const soft = /swiftshader/i.test(this.webglRenderer || '') ? ` ${t('backend.help.webglSoft')}` : '';
      return `${t('backend.help.webgl')}${soft}${none}`;
    }
    if (choice === 'cpu') return t('backend.help.cpu', { cores: navigator.hardwareConcurrency || '?' });
    const soft = w && w.state === 'software' ? ` ${t('backend.help.webgpuSoft', { what: w.text })}` : '';
    return `${t('backend.help.webgpu')}${soft}`;
  }

  #update() {
    const input = this.f('input').value;
    const op = this.f('op').value;
    const bInput = this.f('bInput').value;
    const show = {
      seed: INPUT_KINDS[input]?.seeded,
      prob: INPUT_KINDS[input]?.probability,
      k: op === 'repeat',
      p: op === 'power',
      bInput: op === 'multiply',
      bSeed: op === 'multiply' && INPUT_KINDS[bInput]?.seeded,
      bProb: op === 'multiply' && INPUT_KINDS[bInput]?.probability,
    };
    for (const [key, on] of Object.entries(show)) {
      this.form.querySelector(`[data-for="${key}"]`).hidden = !on;
    }
    const n = Number(this.f('n').value);
    for (const b of this.form.querySelectorAll('.presets button')) b.setAttribute('aria-pressed', String(Number(b.dataset.n) === n));
    const seed = this.f('seed').value, p = this.f('prob').value;
    this.f('input-help').textContent = INPUT_KINDS[input] ? t('input.help', { what: t(`input.about.${input}`, { seed, prob: p }) }) : '';
    this.f('op-help').textContent = OPS[op] ? t(`op.help.${op}`) : '';
    const kernel = this.f('kernel').value;
    const k = this.kernels.find((x) => x.name === kernel);
    let help = k ? `${k.name}: ${tLibrary(`kernel.about.${k.name}`, k.description)}.` : '';
    if (kernel === 'auto' && this.defaultKernelFor && Number.isInteger(n) && n >= 1 && n <= (this.maxN || 0)) {
      help = t('kernel.help.auto', { kernel: this.defaultKernelFor(n), n });
    }
    if (kernel === 'naive' && n >= 1024) help += ` ${t('kernel.help.naiveSlow')}`;
    if (kernel === 'tiled16' && n >= 512 && this.backends.webgpu?.state === 'software') help += ` ${t('kernel.help.tiledSlow')}`;
    this.f('kernel-help').textContent = help;
    this.f('backend-help').textContent = this.#backendHelp();
    const refAuto = Number.isInteger(n) && n <= REF_AUTO_MAX_N;
    if (!this.refTouched) this.f('ref').checked = refAuto;
    this.f('ref').title = refAuto ? '' : t('ref.offAbove', { n: REF_AUTO_MAX_N });
    this.onchange?.();
  }
}
