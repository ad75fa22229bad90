// The panel "The shader that ran": a kernel's source with its key lines annotated
// (www/ui/shader.js), what it is, and the complete shader the device compiles.
// WebGL kernels are GLSL fragment shaders (Gpgpu.kernelSource / programSource);
// WebGPU kernels are WGSL compute shaders, shown as the device compiles them
// (gpu.shaderSource: the semiring code, then the kernel; the register kernel in the
// form and with the tile sizes chosen for this device), which needs a WebGPU device.
import { el, registerForm } from './format.js';
import { foldWrittenOut, renderSource } from './shader.js';
import { describeError } from './errors.js';

const GROUPS = {
  webgl: 'WebGL2: fragment shaders (GLSL)',
  webgpu: 'WebGPU: compute shaders (WGSL)',
  cpu: 'CPU: Rust, SIMD128, Web Workers',
};
/** A backend's kernel, and the backend, in a sentence. */
const KERNEL_OF = { webgl: 'WebGL2 fragment shader', webgpu: 'WebGPU compute shader', cpu: 'CPU kernel' };
const ON = { webgl: 'WebGL2', webgpu: 'WebGPU', cpu: 'the CPU backend' };

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
    if (ran.idle) return 'The answer needed no pass (M^0 = I, M^1 = M, or M^(2^0) = M): this is the kernel that would run.';
    return ran.finished ? 'This is the kernel that ran.' : 'This is the kernel the run uses.';
  }
  const other = ran.finished ? `The kernel that ran is ${ran.kernel}` : `The run uses ${ran.kernel}`;
  // A kernel of another backend cannot run on the run's: it is there for comparison.
  if (ran.backend && backend !== ran.backend) {
    return `This ${KERNEL_OF[backend]} did not run here; it is shown for comparison. ${other}, on ${ON[ran.backend]}.`;
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
    select.replaceChildren(...Object.entries(GROUPS).map(([backend, label]) => el('optgroup', { label },
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
    notes.replaceChildren(el('h3', {}, 'Key lines'), list);
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
      tail: 'The vertex shader only passes the quad\'s positions and texture coordinates through.',
      summary: 'The complete fragment shader the GPU compiles (with the semiring and layout code)',
      label: `The complete GLSL fragment shader of the ${name} kernel`,
      program: prog,
    };
  }

  /** The CPU kernel: Rust compiled to WebAssembly with SIMD128, no shader at all. */
  #rust(k) {
    return {
      // The file without its native tests: the kernel is what the workers run.
      source: this.Gpgpu.kernelSource(k.name).split('\n#[cfg(test)]')[0],
      file: k.file,
      tail: 'No shader: Rust compiled to WebAssembly (SIMD128), run by each Web Worker on its block of C\'s rows.',
      summary: 'What the workers run: the same WebAssembly module as the page, this function called with their rows of A',
      label: `What the Web Workers run for the ${k.name} kernel (no shader)`,
      program: `${k.file} is compiled into the library's .wasm; each Web Worker instantiates that module and calls gpgpu_cpu_rows (src/cpu/mod.rs) on its rows.`,
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
        tail: 'A compute shader: there is no vertex shader and no quad; a pass dispatches workgroups of invocations.',
        summary: 'The complete compute shader a device compiles',
        label: `The complete WGSL compute shader of the ${k.name} kernel: ${missing ? 'not here, no WebGPU device' : 'a WebGPU device is being made'}`,
        program: missing
          ? `No WebGPU device here (${missing}): this is the file as written; the register kernel's form and tile sizes depend on the device.`
          : 'Making a WebGPU device to show the shader as it compiles it…',
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
    const form = k.name === 'register' && info.registerKernel ? ` On this device: ${registerForm(info)}.` : '';
    return {
      // The 128 × 128 and double forms' written-out k loops, folded (the whole text is in `program`).
      source: foldWrittenOut(own ?? written),
      file,
      tail: `A compute shader: there is no vertex shader and no quad; a pass dispatches workgroups of invocations.${form}`,
      summary: 'The complete compute shader this device compiles (the semiring code, then the kernel; for register also its tile sizes and load/store functions)',
      label: `The complete WGSL compute shader of the ${k.name} kernel, as this device compiles it`,
      program: full,
    };
  }
}
