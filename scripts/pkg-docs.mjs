// The package's documents (scripts/pkg.sh): the guide as README.md and the library's
// references beside it in docs/ (the JavaScript API, the Rust notes, the kernels), so
// that an installed package reads offline. Their relative links are rewritten for the
// package's layout; a link to a document the package does not carry (the page's URL
// parameters, the bench notes, the repository's README) becomes its text and the
// repository path, instead of a link that leads nowhere.
//   node scripts/pkg-docs.mjs OUT_DIR
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
/** Repository path → path in the package. */
const SHIPPED = {
  'docs/guide.md': 'README.md',
  'docs/api.md': 'docs/api.md',
  'docs/rust.md': 'docs/rust.md',
  'docs/kernels.md': 'docs/kernels.md',
};
const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/pkg-docs.mjs OUT_DIR');

/** A link [text](target) of the document at `from` (repository path), for the package. */
function relink(from, text, target) {
  if (/^[a-z]+:|^#/.test(target)) return `[${text}](${target})`;
  const [path, anchor] = target.split('#');
  const repoPath = posix.normalize(posix.join(posix.dirname(from), path));
  const shipped = SHIPPED[repoPath];
  const suffix = anchor === undefined ? '' : `#${anchor}`;
  if (!shipped) {
    return /\.md$/.test(text) ? `\`${repoPath}\` in the repository` : `${text} (in the repository's \`${repoPath}\`)`;
  }
  // A link that shows the file's name shows the package's: [guide.md] is the README there.
  const shown = text === posix.basename(repoPath) ? posix.basename(shipped) : text;
  return `[${shown}](${posix.relative(posix.dirname(SHIPPED[from]), shipped) || '.'}${suffix})`;
}

for (const [from, to] of Object.entries(SHIPPED)) {
  const text = readFileSync(join(ROOT, from), 'utf8');
  // Links outside code blocks: fenced blocks are examples, copied as they are.
  const parts = text.split(/(^```[\s\S]*?^```)/m);
  const body = parts.map((part, i) => (i % 2 ? part : part.replace(/\[([^[\]]*)\]\(([^)\s]+)\)/g, (_, t, target) => relink(from, t, target)))).join('');
  mkdirSync(posix.dirname(join(out, to)), { recursive: true });
  writeFileSync(join(out, to), body);
}
