"""Shell sessions: a block whose first line begins with ``$ ``. Each ``$ `` line is a
command (continued on the next lines while a quote is open), the lines under it what it
prints (stdout and stderr as a terminal shows them). The commands of a block run one after
the other in one bash, from the top of the checkout, with the environment's commands first
on the PATH (``.venv/bin/X`` is the environment's X), an 80-column terminal's width and the
emulator's default table in a folder of the test's own. ``/tmp/demo`` in a page is a
scratch folder of that page's own, the same for all its blocks; a command ending with ``&``
runs in the background until the block's end, its first lines being what it prints."""

import os
import re
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sybil import Region

from docexamples import matching, pages

VENV_BIN = str(Path(sys.executable).parent)
SCRATCH = "/tmp/demo"
MARK = "@@docexample-done@@"
DONE = re.compile(r"\n%s (\d+)\n" % MARK)
SESSION_INFO = ("", "sh", "console", "text")


def complete(command):
    """Whether a command's text is whole (no quote left open, no line ending in \\)."""
    if command.endswith("\\"):
        return False
    try:
        shlex.split(command, comments=True)
    except ValueError:
        return False
    return True


def commands(source, first_line):
    """[(command, line number of its first output line, expected lines)] of a block."""
    found = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.startswith("$ "):
            if found:
                found[-1][2].append(line)
            continue
        command = line[2:]
        while not complete(command) and i < len(lines):
            command += "\n" + lines[i]
            i += 1
        found.append((command, first_line + i, []))
    for _, _, expected in found:
        while expected and expected[-1] == "":
            expected.pop()
    return found


class Session:
    """One bash for a block's commands; every process it starts ends with the block."""

    def __init__(self, scratch):
        env = dict(os.environ, PATH=VENV_BIN + os.pathsep + os.environ.get("PATH", ""),
                   XDG_DATA_HOME=str(Path(scratch) / ".data"), COLUMNS="80", LINES="24",
                   LC_ALL="C.UTF-8")
        for name in ("PYTHONPATH", "MICROPYPATH"):
            env.pop(name, None)
        self.scratch = str(scratch)
        self.proc = subprocess.Popen(["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     cwd=str(pages.ROOT), env=env, start_new_session=True)

    def into_scratch(self, text):
        return text.replace(SCRATCH, self.scratch).replace(".venv/bin/", VENV_BIN + "/")

    def from_scratch(self, text):
        return text.replace(self.scratch, SCRATCH)

    def send(self, text):
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def wait_done(self, timeout):
        """What the command printed, up to the mark sent after it."""
        out = b""
        fd = self.proc.stdout.fileno()    # type: ignore[union-attr]
        deadline = time.monotonic() + timeout
        while True:
            m = DONE.search(out.decode(errors="replace"))
            if m:
                return out.decode(errors="replace")[:m.start()]
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise AssertionError("no end after %d s; printed so far:\n%s"
                                     % (timeout, out.decode(errors="replace")))
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError("bash ended; printed:\n" + out.decode(errors="replace"))
            out += chunk

    def run(self, command, timeout=60):
        """Runs a command; returns the lines it printed."""
        self.send("{ %s\n} </dev/null 2>&1; __s=$?; printf '\\n%s %%d\\n' $__s; (exit $__s)\n"
                  % (self.into_scratch(command), MARK))
        return self.from_scratch(self.wait_done(timeout)).splitlines()

    def run_background(self, command, expected, timeout=30):
        """Starts ``command`` (its ``&`` taken off) in the background; returns its first
        lines, once they give what the page says or after ``timeout`` seconds."""
        handle, name = tempfile.mkstemp(prefix=".background-", dir=self.scratch)
        os.close(handle)
        log = Path(name)
        self.run("{ %s\n} </dev/null >%s 2>&1 &" % (command.rstrip()[:-1], shlex.quote(str(log))))
        deadline = time.monotonic() + timeout
        while True:
            text = log.read_text(errors="replace") if log.exists() else ""
            got = self.from_scratch(text).splitlines()
            if matching.lines_match(expected, got) or time.monotonic() > deadline:
                return got
            time.sleep(0.1)

    def close(self):
        """Ends the bash and every process it started, and waits until they are gone (an
        emulator takes its --link name away as it ends: not after the next block's)."""
        deadline = time.monotonic() + 10
        sig = signal.SIGTERM   # once: a second one would cut an emulator's own ending short
        while True:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            self.proc.poll()
            time.sleep(0.05)
            sig = 0 if time.monotonic() < deadline else signal.SIGKILL
        self.proc.communicate(timeout=30)


def evaluate(example):
    before = set(os.listdir(pages.ROOT))
    session = Session(example.namespace["scratch"])
    try:
        for command, line, expected in example.parsed:
            if command.rstrip().endswith("&"):
                got = session.run_background(command, expected)
            else:
                got = session.run(command)
            failure = matching.report(line, expected, got)
            if failure:
                return "$ %s\n%s" % (command, failure)
    finally:
        session.close()
    left = sorted(set(os.listdir(pages.ROOT)) - before)
    if left:
        return "the block left %s in the checkout: write under /tmp/demo" % ", ".join(left)
    return None


def parse(document):
    """The regions of a page's shell sessions."""
    for lexed in pages.fenced_blocks(document):
        source = lexed.lexemes["source"]
        if lexed.lexemes["info"].strip() not in SESSION_INFO or not source.startswith("$ "):
            continue
        if pages.left_out(document.text, lexed.start):
            continue
        first = pages.first_line(document.text, lexed.start) + 1
        yield Region(lexed.start, lexed.end, commands(source, first), evaluate)
