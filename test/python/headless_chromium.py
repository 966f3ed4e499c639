"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each JSON
message ended by a NUL byte), with only the standard library."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import time


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    return None


class Chromium:
    def __init__(self, executable: str):
        command_read, command_write = os.pipe()
        reply_read, reply_write = os.pipe()

        def onto_fds_3_and_4():
            # Via fds >= 10 so that neither dup2 overwrites the other's source.
            commands = fcntl.fcntl(command_read, fcntl.F_DUPFD, 10)
            replies = fcntl.fcntl(reply_write, fcntl.F_DUPFD, 10)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=onto_fds_3_and_4)
        os.close(command_read)
        os.close(reply_write)
        self._commands = os.fdopen(command_write, "wb")
        self._replies = os.fdopen(reply_read, "rb")
        self._next_id = 0
        self._session = None

    def send(self, method: str, params: dict | None = None, session: bool = True) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self._session:
            message["sessionId"] = self._session
        self._commands.write(json.dumps(message).encode() + b"\0")
        self._commands.flush()
        while True:
            reply = json.loads(self._read_message())
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def _read_message(self) -> bytes:
        chunks = []
        while (byte := self._replies.read(1)) != b"\0":
            if not byte:
                raise RuntimeError("chromium closed its DevTools pipe")
            chunks.append(byte)
        return b"".join(chunks)

    def open(self, url: str) -> None:
        """Open `url` in a new tab that later calls talk to."""
        target = self.send("Target.createTarget", {"url": url}, session=False)["targetId"]
        self._session = self.send("Target.attachToTarget",
                                  {"targetId": target, "flatten": True},
                                  session=False)["sessionId"]

    def evaluate(self, expression: str):
        """The value of a JavaScript expression (promises awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression,
                                                "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if value := self.evaluate(expression):
                return value
            time.sleep(0.05)
        raise TimeoutError(f"{expression} stayed false for {timeout} s")

    def close(self) -> None:
        self._commands.close()
        self.process.terminate()
        self.process.wait(timeout=30)
        self._replies.close()
