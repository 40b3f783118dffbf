"""Smoke test of the browser plumbing: headless Chromium reaches the demo server and gets the
engine's module with the MIME type that streaming compilation requires."""

import unittest

from harness import BrowserTestCase, REPO

WASM = "/web/dist/cairn.wasm"


@unittest.skipUnless((REPO / WASM.lstrip("/")).exists(), "web/dist/cairn.wasm is not built (./build.sh)")
class ServerTest(BrowserTestCase):
    def test_wasm_is_served_as_application_wasm_and_compiles(self):
        self.open_blank()
        result = self.page.evaluate("""async (url) => {
            const response = await fetch(url);
            const bytes = await response.arrayBuffer();
            // compileStreaming refuses any other content type than application/wasm.
            const module = await WebAssembly.compileStreaming(fetch(url));
            return {
                status: response.status,
                type: response.headers.get('content-type'),
                size: bytes.byteLength,
                valid: WebAssembly.validate(bytes),
                exports: WebAssembly.Module.exports(module).length,
            };
        }""", WASM)
        self.assertEqual(result["status"], 200)
        self.assertEqual(result["type"], "application/wasm")
        self.assertEqual(result["size"], (REPO / WASM.lstrip("/")).stat().st_size)
        self.assertTrue(result["valid"])
        self.assertGreater(result["exports"], 0)

    def test_root_redirects_to_the_demo_and_missing_files_are_404(self):
        self.open_blank()
        result = self.page.evaluate("""async () => {
            const home = await fetch('/', { redirect: 'manual' });
            const missing = await fetch('/web/demo/no-such-file.js');
            return { home: home.type, missing: missing.status };
        }""")
        self.assertEqual(result["home"], "opaqueredirect")
        self.assertEqual(result["missing"], 404)
        # Chromium logs every failed resource load as a console error: expected here.
        self.allow_errors()

    def test_canvas_draws_headless(self):
        self.open_blank()
        pixel = self.page.evaluate("""() => {
            const canvas = document.createElement('canvas');
            canvas.width = 64; canvas.height = 64;
            document.body.append(canvas);
            const g = canvas.getContext('2d');
            g.fillStyle = 'rgb(255, 0, 0)';
            g.fillRect(0, 0, 64, 64);
            const gl = document.createElement('canvas').getContext('webgl');
            return { rgba: Array.from(g.getImageData(32, 32, 1, 1).data), webgl: gl !== null };
        }""")
        self.assertEqual(pixel["rgba"], [255, 0, 0, 255])
        self.assertTrue(pixel["webgl"], "WebGL through SwiftShader")
        self.screenshot("harness-canvas")


if __name__ == "__main__":
    unittest.main()
