#!/usr/bin/env python3
"""Gives the wasm's imports from its JS glue, and its exports to the glue, short names.

    scripts/short-names.py OUT_DIR      (run by scripts/bindgen.sh, last)

wasm-bindgen names each import after the JS function it wraps plus a 16-digit hash
(`__wbg_getContext_7b2a8bf1c0de...`), and the wasm repeats the glue's module name
(`./gpgpu_matrix_bg.js`) for each of its ~320 imports: 19 KB of the file, 6 KB of it
gzipped (bench/NOTES.md, "wasm size"). They are renamed `a`, `b`, …, `ba`, … under the
module `./g`, in the wasm's import section and in the glue's import object, where each
old name stands exactly once as a key (a name found any other number of times stops the
build, so a new wasm-bindgen cannot break the page quietly). Imports of other modules
(the snippets under `snippets/`) keep their names: the glue loads those by path.

The exports (`gpgpu_multiplyAsync`, `__wbg_csr_free`, `__wasm_bindgen_func_elem_1636`, …:
3.2 KB of names, 1.3 KB gzipped) are renamed `a`, `b`, … likewise, in the wasm's export
section, in the glue (`wasm.NAME`; an export reached any other way stops the build)
and in the two .d.ts files' lists of them (`InitOutput`, whose keys were wasm-bindgen's
internal names already). Kept: `memory` and the CPU kernel's `gpgpu_cpu_*`, which the
CPU workers (src/cpu/pool.js) call on their own instances by name, and any export the
glue does not call.

The export of wasm-bindgen's externref table (`__wbindgen_externrefs`) is pointed at that
table again: Debian's binaryen (108) rewrites a table export's index to the first table's
whenever it writes a module, and bindgen.sh runs it on wasm-bindgen's output; the page
then failed in `__wbindgen_init_externref_table` ("WebAssembly.Table.set(): Argument 1 is
invalid for table").
"""
import re
import sys

OUT = sys.argv[1]
WASM = f"{OUT}/gpgpu_matrix_bg.wasm"
GLUE = f"{OUT}/gpgpu_matrix.js"
TYPES = f"{OUT}/gpgpu_matrix.d.ts"
WASM_TYPES = f"{OUT}/gpgpu_matrix_bg.wasm.d.ts"
MODULE = "./gpgpu_matrix_bg.js"
SHORT_MODULE = "./g"
EXTERNREFS = "__wbindgen_externrefs"


def fail(why):
    sys.exit(f"scripts/short-names.py: {why}")


def leb(data, i):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def name(data, i):
    n, i = leb(data, i)
    return data[i : i + n].decode(), i + n


def limits(data, i):
    flags = data[i]
    _, i = leb(data, i + 1)
    if flags & 1:
        _, i = leb(data, i)
    return i


def desc_end(data, i):
    """Where the import description starting at i ends."""
    kind, i = data[i], i + 1
    if kind == 0:  # function: type index
        return leb(data, i)[1]
    if kind == 1:  # table: reference type, limits
        return limits(data, i + 1)
    if kind == 2:  # memory: limits
        return limits(data, i)
    if kind == 3:  # global: value type, mutability
        return i + 2
    if kind == 4:  # tag: attribute, type index
        return leb(data, i + 1)[1]
    fail(f"unknown import kind {kind}")


def short(k):
    """a, b, …, z, ba, bb, …: letters only, so never a JS keyword of two letters or less
    (`do`, `if`, `in` are keys here, not identifiers, but stay clear anyway)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    s = letters[k % 26]
    k //= 26
    while k:
        s = letters[k % 26] + s
        k //= 26
    return s if s not in ("do", "if", "in") else s.upper()


with open(WASM, "rb") as f:
    wasm = f.read()
with open(GLUE, encoding="utf-8") as f:
    glue = f.read()

def externref_table(tables):
    """The index of the module's one externref table (reference type 0x6f)."""
    found = [k for k, ty in enumerate(tables) if ty == 0x6F]
    if len(found) != 1:
        fail(f"{len(found)} externref tables, not one, for {EXTERNREFS}")
    return found[0]


renames = {}
exports = {}
tables = []  # each table's reference type, imported ones first: the tables' index space
KEPT = {"memory", "gpgpu_cpu_alloc", "gpgpu_cpu_free", "gpgpu_cpu_rows"}
out = bytearray(wasm[:8])
i = 8
while i < len(wasm):
    section = wasm[i]
    size, start = leb(wasm, i + 1)
    body = wasm[start : start + size]
    if section == 2:
        count, j = leb(body, 0)
        new = bytearray(uleb(count))
        for _ in range(count):
            module, j = name(body, j)
            field, j = name(body, j)
            end = desc_end(body, j)
            if body[j] == 1:  # a table: its reference type
                tables.append(body[j + 1])
            if module == MODULE:
                if field not in renames:
                    renames[field] = short(len(renames))
                module, field = SHORT_MODULE, renames[field]
            for s in (module, field):
                b = s.encode()
                new += uleb(len(b)) + b
            new += body[j:end]
            j = end
        body = bytes(new)
    elif section == 4:
        count, j = leb(body, 0)
        for _ in range(count):
            tables.append(body[j])
            j = limits(body, j + 1)
    elif section == 7:
        count, j = leb(body, 0)
        new = bytearray(uleb(count))
        for _ in range(count):
            field, j = name(body, j)
            kind = body[j]
            index, end = leb(body, j + 1)
            if kind == 1 and field == EXTERNREFS:
                index = externref_table(tables)
            if field not in KEPT and re.search(r"\bwasm\." + re.escape(field) + r"\b", glue):
                exports[field] = short(len(exports))
                field = exports[field]
            b = field.encode()
            new += uleb(len(b)) + b + bytes([kind]) + uleb(index)
            j = end
        body = bytes(new)
    out.append(section)
    out += uleb(len(body)) + body
    i = start + size

if not renames:
    fail(f"no import of {MODULE} in {WASM}")
for old, new in renames.items():
    key = re.compile(r"\b" + re.escape(old) + r"\b")
    found = len(key.findall(glue))
    if found != 1:
        fail(f"{old} stands {found} times in {GLUE}, not once as its import's key")
    glue = key.sub(new, glue)
entry = f'"{MODULE}": import0,'
if glue.count(entry) != 1:
    fail(f"the import object's entry {entry} is not in {GLUE}")
glue = glue.replace(entry, f'"{SHORT_MODULE}": import0,')

if not exports:
    fail(f"no export of {WASM} is called by {GLUE}")
with open(TYPES, encoding="utf-8") as f:
    types = f.read()
with open(WASM_TYPES, encoding="utf-8") as f:
    wasm_types = f.read()
for old, new in exports.items():
    # Any other way to reach an export (`x.NAME`, `["NAME"]`) would miss the new name.
    reach = re.compile(r"""(\.|["'])""" + re.escape(old) + r"\b")
    call = re.compile(r"\bwasm\." + re.escape(old) + r"\b")
    if len(reach.findall(glue)) != len(call.findall(glue)):
        fail(f"{old} is reached in {GLUE} other than as wasm.{old}")
    glue = call.sub("wasm." + new, glue)
    listed = []
    for text, prefix in ((types, "    readonly "), (wasm_types, "export const ")):
        key = re.compile("^" + re.escape(prefix + old) + ":", re.M)
        if len(key.findall(text)) != 1:
            fail(f"{old} is not listed once among the exports' types")
        listed.append(key.sub(prefix + new + ":", text))
    types, wasm_types = listed

with open(WASM, "wb") as f:
    f.write(out)
with open(GLUE, "w", encoding="utf-8") as f:
    f.write(glue)
with open(TYPES, "w", encoding="utf-8") as f:
    f.write(types)
with open(WASM_TYPES, "w", encoding="utf-8") as f:
    f.write(wasm_types)
