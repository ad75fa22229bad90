#!/usr/bin/env python3
"""Serves the repository root on 127.0.0.1 with the right MIME types and no caching.

    python3 scripts/serve.py [--port 8000] [--quiet]
"""
import argparse
import functools
import http.server
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
        '.json': 'application/json', '.svg': 'image/svg+xml', '.glsl': 'text/plain',
        '.frag': 'text/plain', '.vert': 'text/plain',
    }
    quiet = False

    def end_headers(self):
        self.send_header('Cache-Control', 'no-store')
        # Cross-origin isolation (as ../shared/gpu-browser/serve.py): threaded WebAssembly
        # (TF.js WASM's threads in make bench-devices) needs SharedArrayBuffer. Every file
        # is served from here, so require-corp blocks nothing the page uses.
        self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
        self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
        super().end_headers()

    def log_message(self, fmt, *args):
        if not self.quiet:
            super().log_message(fmt, *args)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--port', type=int, default=8000)
    ap.add_argument('--quiet', action='store_true')
    a = ap.parse_args()
    Handler.quiet = a.quiet
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', a.port),
                                          functools.partial(Handler, directory=ROOT))
    print(f'gpgpu-matrix is served at http://127.0.0.1:{a.port}/  (Ctrl-C stops it)', flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == '__main__':
    main()
