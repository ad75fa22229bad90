#!/usr/bin/env python3
"""Gives the wasm's imports from its JS glue short names, in both files.

    scripts/short-imports.py OUT_DIR      (run by scripts/bindgen.sh, last)

wasm-bindgen names each import after the JS function it wraps plus a 16-digit hash
(`__wbg_getContext_7b2a8bf1c0de...`), and the wasm repeats the glue's module name
(`./gpgpu_matrix_bg.js`) for each of its ~320 imports: 19 KB of the file, 6 KB of it
gzipped (bench/NOTES.md, "wasm size"). They are renamed `a`, `b`, …, `ba`, … under the
module `./g`, in the wasm's import section and in the glue's import object, where each
old name stands exactly once as a key (a name found any other number of times stops the
build, so a new wasm-bindgen cannot break the page quietly). Imports of other modules
(the snippets under `snippets/`) keep their names: the glue loads those by path.
"""
import re
import sys

OUT = sys.argv[1]
WASM = f"{OUT}/gpgpu_matrix_bg.wasm"
GLUE = f"{OUT}/gpgpu_matrix.js"
MODULE = "./gpgpu_matrix_bg.js"
SHORT_MODULE = "./g"


def fail(why):
    sys.exit(f"scripts/short-imports.py: {why}")


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

renames = {}
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

with open(WASM, "wb") as f:
    f.write(out)
with open(GLUE, "w", encoding="utf-8") as f:
    f.write(glue)
