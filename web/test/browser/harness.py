"""Browser tests' plumbing: the demo server and headless Chromium, driven by Playwright.

Playwright's own browser download cannot be reached from here, so the harness launches the
system's Chromium (Debian `chromium`) through `executable_path`. Both come from
`install_browser_deps` in build.sh. Run the tests with

    python3 -m unittest discover -s web/test/browser -p 'test_*.py'

A test case derives from `BrowserTestCase`: one server and one browser per class, a fresh page
per test (`self.page`), `self.url(path)` for an address on the server, `self.open(path)` to load
a page, `self.open_blank()` for an empty page on the server's origin, `self.screenshot(name)`
into .ci-artifacts/screenshots/, and every console error, uncaught exception and failed request
of the page in `self.errors` (checked empty after each test unless `self.allow_errors()`).
A class may add Chromium flags in `browser_args`.
"""

import os
import queue
import re
import shutil
import subprocess
import threading
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SERVE = REPO / "web" / "demo" / "serve.js"
SCREENSHOTS = REPO / ".ci-artifacts" / "screenshots"
URL_LINE = re.compile(r"^Cairn demo: (http://localhost:(\d+))/web/demo/$")
BLANK_PATH = "/__harness_blank__"

# Chromium refuses to run as root with its sandbox on, and a container has no GPU: WebGL and
# accelerated canvas fall back to SwiftShader (software), which Chromium only allows when asked.
CHROMIUM_ARGS = ["--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--disable-dev-shm-usage"]
if hasattr(os, "geteuid") and os.geteuid() == 0:
    CHROMIUM_ARGS.insert(0, "--no-sandbox")


def missing_dependency():
    """Why the browser tests cannot run here, or None when they can."""
    if not shutil.which("node"):
        return "node not found"
    if not shutil.which("chromium"):
        return "chromium not found (Debian package chromium; ./build.sh test installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python package playwright not found (pip install playwright; ./build.sh test installs it)"
    return None


class DemoServer:
    """web/demo/serve.js on a free port, in its own process."""

    def __init__(self, timeout=15):
        self.process = subprocess.Popen(
            ["node", str(SERVE), "--port", "0"], cwd=REPO,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.output = []
        lines = queue.Queue()

        def drain():  # keeps reading so the server never blocks on a full pipe
            for line in self.process.stdout:
                self.output.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=drain, daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                self.stop()
                raise RuntimeError(f"serve.js printed no address within {timeout} s: {''.join(self.output)}")
            if line is None:
                self.stop()
                raise RuntimeError(f"serve.js exited before listening: {''.join(self.output)}")
            match = URL_LINE.match(line.strip())
            if match:
                self.origin = match.group(1)
                self.port = int(match.group(2))
                return

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class BrowserTestCase(unittest.TestCase):
    """One demo server and one headless Chromium per test class, a new page per test."""

    viewport = {"width": 1024, "height": 768}
    browser_args = ()  # Chromium flags a class adds to CHROMIUM_ARGS

    @classmethod
    def setUpClass(cls):
        reason = missing_dependency()
        if reason:
            raise unittest.SkipTest(reason)
        from playwright.sync_api import sync_playwright

        cls.server = DemoServer()
        try:
            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(
                executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS + list(cls.browser_args))
        except Exception:
            cls._stop_class()
            raise

    @classmethod
    def _stop_class(cls):
        for name, stop in (("browser", "close"), ("playwright", "stop")):
            thing = getattr(cls, name, None)
            if thing is not None:
                try:
                    getattr(thing, stop)()
                except Exception:  # the browser may already be gone; the server must still stop
                    pass
                setattr(cls, name, None)
        cls.server.stop()

    @classmethod
    def tearDownClass(cls):
        cls._stop_class()

    def setUp(self):
        self.errors = []
        self._errors_allowed = False
        self.context = self.browser.new_context(viewport=self.viewport)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"request failed: {r.url} ({r.failure})"))
        # Chromium's console line for a failed load omits the address: this says which.
        self.page.on("response", lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"))
        # An empty document on the server's origin, so a test can fetch and import from it.
        self.page.route(self.url(BLANK_PATH), lambda route: route.fulfill(
            status=200, content_type="text/html", body="<!doctype html><meta charset=utf-8><title>blank</title>"))

    def _on_console(self, message):
        if message.type == "error":
            where = message.location.get("url") if message.location else None
            self.errors.append(f"console: {message.text}" + (f" ({where})" if where else ""))

    def tearDown(self):
        self.context.close()
        if not self._errors_allowed and self._outcome_ok():
            self.assertEqual(self.errors, [], "the page reported errors")

    def _outcome_ok(self):
        # Report the page's errors only when the test itself passed: otherwise its own failure
        # is the news, and the errors were printed with it by assertions that use them.
        result = getattr(self, "_outcome", None)
        return result is None or getattr(result, "success", True)

    def allow_errors(self):
        """This test expects the page to report errors (it checks `self.errors` itself)."""
        self._errors_allowed = True

    def url(self, path):
        return self.server.origin + path

    def open(self, path, wait_until="load"):
        response = self.page.goto(self.url(path), wait_until=wait_until)
        self.assertIsNotNone(response, path)
        self.assertLess(response.status, 400, f"{path}: HTTP {response.status}")
        return response

    def open_blank(self):
        self.page.goto(self.url(BLANK_PATH))

    def screenshot(self, name, **options):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), **options)
        return path
