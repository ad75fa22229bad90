// The panel "The shader that ran": a kernel's source with its key lines annotated
// (www/ui/shader.js), what it is, and the complete shader the device compiles.
// WebGL kernels are GLSL fragment shaders (Gpgpu.kernelSource / programSource);
// WebGPU kernels are WGSL compute shaders, shown as the device compiles them
// (gpu.shaderSource: the semiring code, then the kernel; the register kernel in the
// form and with the tile sizes chosen for this device), which needs a WebGPU device.
import { el, registerForm } from './format.js';
import { foldWrittenOut, renderSource } from './shader.js';
import { describeError } from './errors.js';
import { t } from '../i18n/index.js';

const GROUPS = ['webgl', 'webgpu', 'cpu'];

/**
 * The kernel's own file inside a complete WGSL shader: from its `// Kernel "name"`
 * line on (the semiring code and, for register, its constants and load/store
 * functions come before). Null when there is no such line.
 */
export function kernelPart(full, name) {
  const lines = full.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`// Kernel "${name}"`));
  return at < 0 ? null : lines.slice(at).join('\n');
}

/** How the kernel shown relates to the run: the one it ran, another of its backend's, or another backend's. */
function ranText(name, backend, ran) {
  if (!ran?.kernel) return '';
  if (ran.kernel === name) {
    if (ran.idle) return t('shader.wouldRun');
    return t(ran.finished ? 'shader.ran' : 'shader.uses');
  }
  const other = t(ran.finished ? 'shader.otherRan' : 'shader.otherUses', { kernel: ran.kernel });
  // A kernel of another backend cannot run on the run's: it is there for comparison.
  if (ran.backend && backend !== ran.backend) {
    return t('shader.comparison', { what: t(`shader.kernelOf.${backend}`), other, on: t(`shader.on.${ran.backend}`) });
  }
  return `${other}.`;
}

export class ShaderPanel {
  /**
   * parts: { select, about, code, notes, program, summary } elements; Gpgpu: the class;
   * backends: { ready(backend) → the page's Gpgpu of that backend or null,
   * make(backend) → Promise<Gpgpu> (null where WebGPU is missing), missing: why not, or null,
   * n() → the configured n }.
   */
  constructor(parts, Gpgpu, backends) {
    this.parts = parts;
    this.Gpgpu = Gpgpu;
    this.backends = backends;
    this.kernels = Gpgpu.kernels();
    this.ran = null;
    this.n = backends.n; // () → the configured n, for the shader before any run
  }

  mount() {
    const { select } = this.parts;
    select.replaceChildren(...GROUPS.map((backend) => el('optgroup', { label: t(`shader.group.${backend}`) },
      this.kernels.filter((k) => k.backend === backend).map((k) => el('option', { value: k.name }, k.name)))));
    select.addEventListener('change', () => this.show(null, this.ran));
  }

  /** Shows `kernel` (null: the one selected); `ran` = { kernel, backend, idle, n, finished } of the last run, or null. */
  show(kernel, ran) {
    const { select, about, code, notes, program, summary } = this.parts;
    this.ran = ran;
    if (kernel) select.value = kernel;
    const name = select.value;
    const k = this.kernels.find((x) => x.name === name);
    let shown;
    try {
      shown = k?.backend === 'webgpu' ? this.#wgsl(k) : k?.backend === 'cpu' ? this.#rust(k) : this.#glsl(name);
    } catch (err) {
      code.replaceChildren(el('p', { class: 'error' }, describeError(err).message));
      return;
    }
    const { code: pre, notes: list } = renderSource(name, shown.source);
    code.replaceChildren(pre);
    notes.replaceChildren(el('h3', {}, t('shader.keyLines')), list);
    about.textContent = `${shown.file} — ${k ? k.description : ''}. ${ranText(name, k?.backend ?? 'webgl', ran)} ${shown.tail}`.replace(/\s+$/, '');
    summary.textContent = shown.summary;
    program.textContent = shown.program;
    // The block is focusable (it scrolls): its name says which kernel's program it holds.
    program.setAttribute('aria-label', shown.label);
  }

  #glsl(name) {
    let prog = '';
    try { prog = this.Gpgpu.programSource(name); } catch { /* shown empty */ }
    return {
      source: this.Gpgpu.kernelSource(name),
      file: `glsl/matmul/${{ naive: '1_naive', packed: '2_packed' }[name] ?? '3_blocked'}.frag`,
      tail: t('shader.tail.webgl'),
      summary: t('shader.summary.webgl'),
      label: t('shader.label.webgl', { kernel: name }),
      program: prog,
    };
  }

  /** The CPU kernel: Rust compiled to WebAssembly with SIMD128, no shader at all. */
  #rust(k) {
    return {
      // The file without its native tests: the kernel is what the workers run.
      source: this.Gpgpu.kernelSource(k.name).split('\n#[cfg(test)]')[0],
      file: k.file,
      tail: t('shader.tail.cpu'),
      summary: t('shader.summary.cpu'),
      label: t('shader.label.cpu', { kernel: k.name }),
      program: t('shader.program.cpu', { file: k.file }),
    };
  }

  #wgsl(k) {
    const written = this.Gpgpu.kernelSource(k.name);
    const gpu = this.backends.ready('webgpu');
    if (!gpu) {
      const { make, missing } = this.backends;
      if (make && !this.making) {
        // Made once; then the panel shows the kernel as that device compiles it.
        this.making = make('webgpu').then(() => this.show(null, this.ran), () => {});
      }
      return {
        source: written,
        file: k.file,
        tail: t('shader.tail.webgpu'),
        summary: t('shader.summary.webgpuFile'),
        label: t(missing ? 'shader.label.webgpuMissing' : 'shader.label.webgpuMaking', { kernel: k.name }),
        program: missing
          ? t('shader.noDevice', { missing })
          : t('shader.making'),
      };
    }
    // The register kernel's form depends on the device and on n (the run's, or the
    // configured one before any run): shaderSource / shaderFile say which.
    const n = this.ran?.n ?? this.n?.();
    const full = gpu.shaderSource(k.name, undefined, n);
    const own = kernelPart(full, k.name);
    const info = gpu.info();
    const file = gpu.shaderFile(k.name, n);
    // "CPU form" there is the WebGPU kernel's form for software adapters, not the CPU backend.
    const form = k.name === 'register' && info.registerKernel ? t('shader.form', { form: registerForm(info) }) : '';
    return {
      // The 128 × 128 and double forms' written-out k loops, folded (the whole text is in `program`).
      source: foldWrittenOut(own ?? written),
      file,
      tail: `${t('shader.tail.webgpu')}${form}`,
      summary: t('shader.summary.webgpu'),
      label: t('shader.label.webgpu', { kernel: k.name }),
      program: full,
    };
  }
}
