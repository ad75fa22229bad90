#!/usr/bin/env python3
"""Gives a freed object's calls the library's error form, in wasm-bindgen's JS glue.

    scripts/glue-freed.py OUT_DIR/gpgpu_matrix.js      (run by scripts/bindgen.sh)

wasm-bindgen zeroes an object's pointer on free(); a method called on it afterwards
reaches Rust with a null pointer and wasm-bindgen's own glue throws a plain
`Error("null pointer passed to rust")` through its throw import, before any of the
library's code runs, so src/js cannot catch it. Two edits of the generated module:

1. the throw import turns that one message into an Error with name "GpgpuError",
   code "FREED" and a message saying what to do (every other message is unchanged);
2. free(), which [Symbol.dispose] is, does nothing on an object freed already (it
   threw the same plain Error, so `using` after an explicit free() threw at the end
   of its block);
3. a Promise form (a method named `…Async`, and Run's `whenDone`) returns a rejected
   promise instead of throwing: the null pointer check runs before the method's own
   code, so a freed object's `gpu.squareAsync(…)` threw FREED synchronously where
   every other error of a Promise form rejects, and `gpu.squareAsync(…).catch(…)` or
   `Promise.allSettled([…])` did not see it.

Checked against wasm-bindgen 0.2.130's output (scripts/setup.sh pins it): a pattern
that is not found stops the build, so a new wasm-bindgen cannot skip the edit
quietly. tests/e2e/package.test.mjs runs the guide's example of it.
"""
import re
import sys

path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    js = f.read()

THROW = re.compile(
    r"(__wbg___wbindgen_throw_[0-9a-f]+: function\(arg0, arg1\) \{\n)"
    r"(\s*)throw new Error\(getStringFromWasm0\(arg0, arg1\)\);"
)
FREED = (
    "this object was freed (free() was called on it, or a `using` block ended) and "
    "cannot be used again: keep it until you are done with it, or make a new one"
)


def throw_freed(m):
    head, pad = m.group(1), m.group(2)
    return (
        f"{head}{pad}const message = getStringFromWasm0(arg0, arg1);\n"
        f"{pad}// A freed object used again (scripts/glue-freed.py): the library's error.\n"
        f"{pad}if (message === 'null pointer passed to rust') {{\n"
        f"{pad}    const err = new Error({FREED!r});\n"
        f"{pad}    err.name = 'GpgpuError';\n"
        f"{pad}    err.code = 'FREED';\n"
        f"{pad}    throw err;\n"
        f"{pad}}}\n"
        f"{pad}throw new Error(message);"
    )


js, throws = THROW.subn(throw_freed, js)

FREE = re.compile(r"(\n(\s*)free\(\) \{\n(\s*)const ptr = this\.__destroy_into_raw\(\);\n)")
js, frees = FREE.subn(lambda m: f"{m.group(1)}{m.group(3)}if (ptr === 0) return; // freed already\n", js)
classes = len(re.findall(r"^export class ", js, re.M))

# A Promise form's body, as wasm-bindgen writes a method returning a Promise.
ASYNC = re.compile(
    r"(\n(\s*)(?:\w+Async|whenDone)\(([\w, ]*)\) \{\n)"
    r"(\s*)const ret = (wasm\.\w+\(this\.__wbg_ptr(?:, [\w, ]*)?\));\n"
    r"\s*return ret;\n"
)


def reject_instead(m):
    head, pad, call = m.group(1), m.group(4), m.group(5)
    return (
        f"{head}{pad}// A Promise form rejects, never throws (scripts/glue-freed.py).\n"
        f"{pad}try {{\n"
        f"{pad}    return {call};\n"
        f"{pad}}} catch (e) {{\n"
        f"{pad}    return Promise.reject(e);\n"
        f"{pad}}}\n"
    )


promise_forms = len(re.findall(r"^\s+(?:\w+Async|whenDone)\(", js, re.M))
js, rejects = ASYNC.subn(reject_instead, js)

if throws != 1 or frees != classes or classes == 0 or rejects != promise_forms or rejects == 0:
    sys.exit(
        f"scripts/glue-freed.py: {path}: found {throws} throw import(s) (1 expected), "
        f"{frees} free() of {classes} classes and {rejects} Promise forms of "
        f"{promise_forms}: wasm-bindgen's output changed; update the patterns"
    )
with open(path, "w", encoding="utf-8") as f:
    f.write(js)
