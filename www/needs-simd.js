// Run before the page's modules, as a classic script in plain old JavaScript: the
// library's wasm uses SIMD128, so a browser without it (Safari before 16.4, say) cannot
// compile it, and the page would stay at "loading". Here, at once, such a browser is
// told which browsers work and what to do; the page's modules see
// window.gpgpuNoSimd and do not start. The message goes in the alert banner whose id
// the script element's data-banner names (default "banner"), if the page has it, and
// in #status.
(function () {
  var script = document.currentScript;
  var bannerId = (script && script.getAttribute('data-banner')) || 'banner';
  // The smallest module with a SIMD instruction: () -> v128 { i8x16.popcnt(i8x16.splat(0)) }.
  var PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
    65, 0, 253, 15, 253, 98, 11];
  var ok = false;
  try {
    ok = typeof WebAssembly === 'object' && WebAssembly.validate(new Uint8Array(PROBE));
  } catch (e) { ok = false; }
  if (ok) return;
  var title = 'This browser cannot run this page: it has no WebAssembly SIMD.';
  var text = 'The library is WebAssembly with SIMD (SIMD128), which these browsers have: ' +
    'Chrome and Edge 91 or later, Firefox 89 or later, and Safari 16.4 or later (macOS, ' +
    'iPadOS and iOS 16.4). Update this browser, or open the page in one of those.';
  window.gpgpuNoSimd = title + ' ' + text;
  function show() {
    // The teaching page's alert banner says it, where there is one; else the status line.
    var banner = document.getElementById(bannerId);
    var status = document.getElementById('status');
    if (status) {
      status.textContent = banner
        ? 'Not started: this browser has no WebAssembly SIMD (the message above says what to do).'
        : window.gpgpuNoSimd;
      status.className = (status.className + ' error').replace(/^ /, '');
    }
    var buttons = ['run', 'step'];
    for (var i = 0; i < buttons.length; i++) {
      var b = document.getElementById(buttons[i]);
      if (b) b.disabled = true;
    }
    if (banner) {
      banner.className = 'banner error';
      banner.setAttribute('role', 'alert');
      banner.setAttribute('data-code', 'NO_WASM_SIMD');
      banner.innerHTML = '';
      var p1 = document.createElement('p');
      var strong = document.createElement('strong');
      strong.textContent = title;
      p1.appendChild(strong);
      var p2 = document.createElement('p');
      p2.textContent = text;
      banner.appendChild(p1);
      banner.appendChild(p2);
      banner.hidden = false;
    }
    document.body.setAttribute('data-status', 'error');
  }
  if (document.body) show();
  else document.addEventListener('DOMContentLoaded', show);
})();
