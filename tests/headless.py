"""A page in headless Chromium, driven over the DevTools protocol on a pipe (no extra packages).

`open_page(path)` loads a local file and returns a `Page` with what a person
would see: `evaluate(js)` runs an expression in it, `screenshot()` renders the
whole page to PNG, `pdf()` prints it, and `problems` lists every console
error, uncaught exception and failed or blocked load the page caused.

Chromium speaks the protocol on descriptors 3 (commands in) and 4 (replies
out) with `--remote-debugging-pipe`: JSON messages ended by a NUL byte.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
         "--mute-audio", "--hide-scrollbars", "--remote-debugging-pipe")


def find_browser() -> str | None:
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


class BrowserError(RuntimeError):
    pass


def _high(fds: tuple[int, int]) -> tuple[int, int]:
    """The same pipe ends on descriptors numbered 10 and up."""
    moved = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in fds)
    for fd in fds:
        os.close(fd)
    return moved


class Page:
    def __init__(self, browser: str, timeout: float = 60) -> None:
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="katas-chromium-")
        commands_read, self._commands = _high(os.pipe())
        self._replies, replies_write = _high(os.pipe())
        # The browser wants the pipe on descriptors 3 and 4: bash moves the ends there (from 10 and
        # up, out of the way), without a preexec_fn (unsafe in a threaded test process).
        script = f'exec "$0" "$@" 3<&{commands_read} 4>&{replies_write} {commands_read}<&- {replies_write}>&-'
        self.process = subprocess.Popen(
            ["bash", "-c", script, browser, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            pass_fds=(commands_read, replies_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        os.close(commands_read)
        os.close(replies_write)
        self.stderr: list[bytes] = []
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        self._next_id = 0
        self._buffer = b""
        self.events: list[dict] = []
        self.session = ""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    # --- the protocol ---------------------------------------------------------------------------

    def send(self, method: str, **params) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        reply = self._wait(lambda m: m.get("id") == self._next_id, f"a reply to {method}")
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def _wait(self, wanted, what: str) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for index, message in enumerate(self.events):
                if wanted(message):
                    return self.events.pop(index)
            if time.monotonic() > deadline:
                raise BrowserError(f"no {what} from the browser within {self.timeout} s: "
                                   + b"".join(self.stderr).decode(errors="replace")[-2000:])
            while b"\0" not in self._buffer:
                chunk = os.read(self._replies, 1 << 20)
                if not chunk:
                    raise BrowserError("the browser closed its pipe: "
                                       + b"".join(self.stderr).decode(errors="replace")[-2000:])
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            self.events.append(json.loads(raw))

    def wait_event(self, method: str) -> dict:
        return self._wait(lambda m: m.get("method") == method, method)

    # --- what a person sees --------------------------------------------------------------------

    def load(self, path: Path) -> None:
        self.send("Page.navigate", url=path.resolve().as_uri())
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, width: int = 1100) -> Path:
        height = int(self.evaluate("document.documentElement.scrollHeight"))
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def pdf(self, path: Path) -> Path:
        data = self.send("Page.printToPDF", printBackground=False)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    @property
    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads seen so far."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console: " + " ".join(str(a.get("value", a.get("description", "")))
                                                     for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails', {}).get('text')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
            elif method == "Network.loadingFailed":
                found.append(f"load failed: {params.get('errorText')} {params.get('blockedReason', '')}")
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if not url.startswith(("file:", "data:", "about:")):
                    found.append(f"network request: {url}")
        return found

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._commands, self._replies):
            try:
                os.close(fd)
            except OSError:
                pass
        self.profile.cleanup()

    def __enter__(self) -> Page:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_page(path: Path, browser: str | None = None) -> Page:
    page = Page(browser or find_browser() or "chromium")
    try:
        page.load(path)
    except BaseException:
        page.close()
        raise
    return page
