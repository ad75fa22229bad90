//! Writes each shader of `glsl/` and `wgsl/` without its comments into OUT_DIR, for
//! `common::shader!`: the library's ~140 KB of shader text is half teaching comments,
//! which only the kernels the page shows as written need (those use `include_str!`).
//! Lines stay where they were, so a driver's message still names the file's line.

use std::path::Path;
use std::{env, fs};

fn main() {
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shaders");
    for dir in ["glsl", "wgsl"] {
        println!("cargo:rerun-if-changed={dir}");
        strip_dir(Path::new(dir), &out.join(dir));
    }
}

fn strip_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("OUT_DIR is writable");
    for entry in fs::read_dir(from).expect("the shader folders are there") {
        let path = entry.expect("a readable folder").path();
        let target = to.join(path.file_name().expect("a file name"));
        if path.is_dir() {
            strip_dir(&path, &target);
        } else {
            let text = fs::read_to_string(&path).expect("shaders are UTF-8");
            fs::write(&target, strip(&text)).expect("OUT_DIR is writable");
        }
    }
}

/// Each line without its `//` comment, its indentation and trailing blanks, and with each
/// run of blanks inside it written as one space (GLSL and WGSL have no string literals, so
/// `//` always starts a comment and blanks only separate tokens; neither project file uses
/// `/* */`). A line continued by `\` gets a space before it, so that the next line's
/// first word, no longer indented, does not join its last. -0.5 KB gzipped against
/// keeping the blanks (bench/NOTES.md, 2026-12-07).
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let code = line.find("//").map_or(line, |at| &line[..at]);
        let mut words = code.split_whitespace();
        if let Some(first) = words.next() {
            out.push_str(first);
            for word in words {
                out.push(' ');
                out.push_str(word);
            }
            if out.ends_with('\\') && !out.ends_with(" \\") {
                out.insert(out.len() - 1, ' ');
            }
        }
        out.push('\n');
    }
    out
}
