// The lab's address: ?exercise=ID&code=…&check=1&exercises=a,b&solutions=0|1. `code` is
// the learner's source, UTF-8, deflate-raw (CompressionStream), base64url without
// padding: a link reproduces what was typed.

async function through(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** `text` as the `code` parameter. */
export async function encodeCode(text) {
  const bytes = await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text of a `code` parameter; throws on one that is not such a text. */
export async function decodeCode(param) {
  const b64 = param.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true })
    .decode(await through(bytes, new DecompressionStream('deflate-raw')));
}

/** The page's parameters, read once. */
export function readParams(search = location.search) {
  const p = new URLSearchParams(search);
  const list = p.get('exercises');
  return {
    exercise: p.get('exercise'),
    code: p.get('code'),
    check: p.get('check') === '1',
    exercises: list ? list.split(',').map((s) => s.trim()).filter(Boolean) : null,
    solutions: p.get('solutions') === '1',
  };
}

/** Rewrites the address in place (no history entry): `changes` null deletes a key. */
export function updateAddress(changes) {
  const url = new URL(location.href);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) url.searchParams.delete(k); else url.searchParams.set(k, v);
  }
  history.replaceState(null, '', url);
}
