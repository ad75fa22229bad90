// The lab's code editor: CodeMirror 6 (served from node_modules through the page's
// import map), GLSL through the legacy C-like `shader` mode, WGSL through a small
// stream mode below, compiler messages as lint diagnostics at their lines.
import { EditorState, Compartment } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching, indentOnInput,
} from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { shader } from '@codemirror/legacy-modes/mode/clike';

const WGSL_KEYWORDS = new Set(('fn let var const override struct return if else for while loop ' +
  'break continue switch case default discard alias enable requires true false').split(' '));
const WGSL_TYPES = /^(f32|f16|i32|u32|bool|vec[234][fiuh]?|mat[234]x[234][fh]?|array|atomic|ptr|sampler|texture_\w+|storage|uniform|read|read_write|workgroup|private|function)$/;
const WGSL_BUILTINS = /^(workgroupBarrier|storageBarrier|arrayLength|select|min|max|clamp|abs|fma|dot|floor|ceil|sqrt)$/;

/** A stream mode for WGSL: comments, attributes, keywords, types, numbers. */
export const wgsl = {
  name: 'wgsl',
  startState: () => ({ comment: 0 }),
  token(stream, state) {
    if (state.comment > 0) {
      while (!stream.eol()) {
        if (stream.match('*/')) { state.comment--; if (state.comment === 0) break; }
        else if (stream.match('/*')) state.comment++;
        else stream.next();
      }
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) { stream.skipToEnd(); return 'comment'; }
    if (stream.match('/*')) { state.comment = 1; return 'comment'; }
    if (stream.match(/^@\w+/)) return 'meta';
    if (stream.match(/^(0x[0-9a-fA-F]+|\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)[fiuh]?/)) return 'number';
    const word = stream.match(/^[A-Za-z_]\w*/);
    if (word) {
      const w = word[0];
      if (WGSL_KEYWORDS.has(w)) return 'keyword';
      if (WGSL_TYPES.test(w)) return 'typeName';
      if (WGSL_BUILTINS.test(w)) return 'builtin';
      return 'variableName';
    }
    stream.next();
    return 'operator';
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
};

const languageOf = (lang) => StreamLanguage.define(lang === 'glsl' ? shader : wgsl);

/**
 * An editor in `parent`: `onChange(text)` after each edit; `onRun()` on Ctrl/Cmd-Enter.
 * Returns { get text, set(text, language), mark(messages), view }.
 */
export function createEditor(parent, { onChange, onRun }) {
  const language = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), history(), drawSelection(), indentOnInput(),
        bracketMatching(), highlightActiveLine(), syntaxHighlighting(defaultHighlightStyle),
        // The diagnostics are the last check's, set by mark() (setDiagnostics).
        lintGutter(),
        keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } },
          ...defaultKeymap, ...historyKeymap, indentWithTab]),
        language.of(languageOf('glsl')),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
        // tabindex: contenteditable is reached by Tab anyway; the attribute tells checkers
        // (axe-core's scrollable-region-focusable) that the scrolling editor holds a focusable.
        // aria-describedby: how a keyboard leaves it (indentWithTab keeps Tab; Esc, then Tab, goes on).
        EditorView.contentAttributes.of({ 'aria-label': 'kernel source', tabindex: '0', 'aria-describedby': 'lab-editor-keys' }),
      ],
    }),
  });
  return {
    view,
    get text() { return view.state.doc.toString(); },
    set(text, lang) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        effects: language.reconfigure(languageOf(lang)),
      });
      view.dispatch(setDiagnostics(view.state, []));
    },
    /** Compiler messages ({ line, column, message }; line 0: none) as diagnostics. */
    mark(messages) {
      const doc = view.state.doc;
      const diagnostics = messages.map((m) => {
        const line = doc.line(Math.min(Math.max(m.line, 1), doc.lines));
        const from = Math.min(line.from + Math.max(m.column - 1, 0), line.to);
        return { from, to: line.to > from ? line.to : from, severity: 'error', message: m.message };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
  };
}
