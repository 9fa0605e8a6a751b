"""goose-acp Python session driver (standard library only).

One driver process is one session. Requests arrive on stdin, one JSON
object per line ({"id": n, "op": ...}); each gets exactly one JSON line
back with the same id. The protocol writer is a duplicate of the original
stdout, and fd 1 is then pointed at stderr, so nothing a cell or its
subprocesses print can corrupt the protocol.

The file must stay parseable by old Pythons so that it can report the
version it needs instead of dying with a SyntaxError.
"""

import ast
import importlib
import json
import os
import pickle
import reprlib
import signal
import subprocess
import sys
import threading
import time
import traceback


def _env_int(name, default, floor):
    try:
        return max(floor, int(os.environ.get(name) or default))
    except ValueError:
        return default


LIMIT = _env_int("GOOSE_PYTHON_SESSION_MAX_OUTPUT_CHARS", 16384, 1024)
MAX_IMAGES = _env_int("GOOSE_PYTHON_SESSION_MAX_IMAGES", 8, 1)
SH_KEEP = 64 * 1024 * 1024
TRUNCATED = (
    "\n[... output truncated at {} chars; the full value is still in your "
    "variable if you assigned it - slice it instead of re-printing ...]"
)
LISTING_ENTRIES = 50
LISTING_CHARS = 1200
HERE = os.path.abspath(__file__)
# Where the namespace is snapshotted after every cell, so a restarted
# driver (after an idle shutdown or a crash) gets its variables back.
STATE_PATH = os.environ.get("GOOSE_PYTHON_SESSION_STATE_PATH", "")
STATE_VALUE_CAP = 8 * 1024 * 1024
STATE_TOTAL_CAP = 64 * 1024 * 1024

# Process groups of sh() commands still running; a SIGTERM teardown kills
# them, since each runs in its own session and would otherwise survive.
_running_groups = set()
_images = []
_images_over = [0]


def _cap(text):
    if len(text) <= LIMIT:
        return text
    return text[:LIMIT] + TRUNCATED.format(LIMIT)


class _Capture(object):
    """A stdout/stderr replacement that stops storing after 4x the cap, so a
    runaway print loop cannot grow the process before the cap applies."""

    def __init__(self):
        self.parts = []
        self.size = 0

    def write(self, s):
        room = LIMIT * 4 - self.size
        if room > 0:
            piece = s[:room]
            self.parts.append(piece)
            self.size += len(piece)
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False

    def value(self):
        return "".join(self.parts)


class _Repr(reprlib.Repr):
    """repr() of the echoed value with a total character budget: a huge
    container stops being walked once its text could not be shown."""

    def __init__(self, budget):
        reprlib.Repr.__init__(self)
        self.budget = budget
        self.left = budget
        for name in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset",
                     "maxdeque", "maxarray", "maxlong", "maxstring", "maxother"):
            setattr(self, name, budget)
        self.maxlevel = 32

    def repr(self, x):
        self.left = self.budget
        return reprlib.Repr.repr(self, x)

    def repr1(self, x, level):
        if self.left <= 0:
            return "..."
        s = reprlib.Repr.repr1(self, x, level)
        self.left -= len(s)
        return s


_echo = _Repr(LIMIT + 16)


def _tail(text, keep):
    text = text.rstrip()
    if len(text) <= keep:
        return text
    return "[... {} chars omitted ...]\n".format(len(text) - keep) + text[-keep:]


class ShellResult(object):
    """What sh() returns: .code (None when timed out), .out, .err, .ok."""

    def __init__(self, command, code, out, err, timed_out):
        self.command = command
        self.code = code
        self.out = out
        self.err = err
        self.timed_out = timed_out

    @property
    def ok(self):
        return self.code == 0

    def __repr__(self):
        status = "exit={}".format(self.code)
        if self.timed_out:
            status += " (timed out; process group killed)"
        lines = ["sh {}: {}".format(json.dumps(self.command), status)]
        if self.out.strip():
            lines.append(_tail(self.out, 4000))
        if self.err.strip():
            lines.append("stderr:\n" + _tail(self.err, 2000))
        return "\n".join(lines)


class _Drain(threading.Thread):
    """Reads one pipe of an sh() command to its end, keeping SH_KEEP bytes."""

    def __init__(self, pipe, label):
        threading.Thread.__init__(self)
        self.daemon = True
        self.pipe = pipe
        self.label = label
        self.kept = bytearray()
        self.lost = 0
        self.start()

    def run(self):
        fd = self.pipe.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            room = SH_KEEP - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]
            self.lost += max(0, len(chunk) - max(room, 0))

    def text(self):
        s = bytes(self.kept).decode("utf-8", "replace")
        if self.lost:
            s += "\n[... {} more bytes of {} dropped; sh() keeps at most {} MiB per stream ...]".format(
                self.lost, self.label, SH_KEEP >> 20)
        if self.is_alive():
            s += "\n[... {} is still open (a backgrounded process holds it); later output was not captured ...]".format(
                self.label)
        return s


def _kill_tree(proc):
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass


def sh(command, timeout=None, cwd=None, env=None):
    """Run a shell command; returns ShellResult(.code, .out, .err)."""
    posix = os.name == "posix"
    shell = "/bin/bash" if posix and os.path.exists("/bin/bash") else None
    proc = subprocess.Popen(command, shell=True, executable=shell, cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=posix)
    if posix:
        _running_groups.add(proc.pid)
    out, err = _Drain(proc.stdout, "stdout"), _Drain(proc.stderr, "stderr")
    timed_out = False
    try:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_tree(proc)
            proc.wait()
        except KeyboardInterrupt:
            _kill_tree(proc)
            raise
    finally:
        _running_groups.discard(proc.pid)
    out.join(0.5)
    err.join(0.5)
    return ShellResult(command, None if timed_out else proc.returncode, out.text(), err.text(), timed_out)


def edit(path, old, new):
    """Replace the one occurrence of old in the file at path; with old=""
    and no such file, create it holding new."""
    if old == "" and not os.path.exists(path):
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(new)
        return "Created {} ({} chars)".format(path, len(new))
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    count = text.count(old)
    if count == 0:
        raise ValueError("edit: old text not found in {}".format(path))
    if count > 1:
        raise ValueError("edit: old text matches {} times in {}; add surrounding context to make it unique".format(
            count, path))
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text.replace(old, new, 1))
    return "Edited {}".format(path)


def view_image(path, crop=None):
    """Attach an image (local path or http(s) URL) to this cell's result so
    you can see it; crop=(x, y, width, height) zooms into a region."""
    source = str(path)
    if "://" not in source:
        source = os.path.abspath(source)
    req = {"source": source}
    if crop is not None:
        x, y, w, h = [int(v) for v in crop]
        for v in (x, y, w, h):
            if v < 0 or v > 0xFFFFFFFF:
                raise ValueError("view_image crop values must be between 0 and 4294967295")
        req["crop"] = {"x": x, "y": y, "width": w, "height": h}
    if len(_images) < MAX_IMAGES:
        _images.append(req)
    else:
        _images_over[0] += 1


NS = {"__name__": "__main__", "__builtins__": __builtins__, "sh": sh, "edit": edit, "view_image": view_image}
OWN = frozenset(["__name__", "__builtins__", "_", "sh", "edit", "view_image"])
_cells = [0]


def _traceback():
    etype, value, tb = sys.exc_info()
    frames = [f for f in traceback.extract_tb(tb) if f.filename != HERE]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(etype, value)
    return "".join(lines).rstrip()


def run_cell(code):
    _cells[0] += 1
    name = "<cell {}>".format(_cells[0])
    del _images[:]
    _images_over[0] = 0
    try:
        tree = ast.parse(code, filename=name, mode="exec")
    except SyntaxError:
        msg = "".join(traceback.format_exception_only(*sys.exc_info()[:2])).rstrip()
        return {"ok": False, "stdout": "", "stderr": "", "value": None, "error": msg, "duration_ms": 0}
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    out, err = _Capture(), _Capture()
    value, error = None, None
    started = time.monotonic()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        if tree.body:
            exec(compile(tree, name, "exec"), NS)
        if last is not None:
            result = eval(compile(last, name, "eval"), NS)
            if result is not None:
                NS["_"] = result
                value = _echo.repr(result)
    except KeyboardInterrupt:
        error = ("KeyboardInterrupt: cell interrupted (timeout or cancellation). "
                 "The session and its variables are preserved.")
    except SystemExit as e:
        error = "SystemExit: {!r} (the session keeps running; exit is disabled)".format(e.code)
    except BaseException:
        error = _traceback()
    finally:
        sys.stdout, sys.stderr = saved
    return {
        "ok": error is None,
        "stdout": out.value(),
        "stderr": err.value(),
        "value": value,
        "error": error,
        "duration_ms": int((time.monotonic() - started) * 1000),
        "images": list(_images),
        "images_dropped": _images_over[0],
    }


def _hint(v):
    # Only exact built-in types: len() or repr() of anything else would run
    # user code outside a cell.
    t = type(v)
    if t is bool:
        return repr(v)
    if t in (int, float):
        try:
            return repr(v)[:40]
        except ValueError:
            return t.__name__
    if t in (str, bytes, bytearray, list, tuple, set, frozenset, dict):
        return "{} len={}".format(t.__name__, len(v))
    return t.__name__


def listing():
    entries = ["{}: {}".format(k, _hint(v)) for k, v in NS.items()
               if k not in OWN and not isinstance(v, type(sys))]
    s = "; ".join(entries[:LISTING_ENTRIES])
    if len(s) > LISTING_CHARS:
        s = s[:LISTING_CHARS] + " ..."
    if len(entries) > LISTING_ENTRIES:
        s += " (+{} more)".format(len(entries) - LISTING_ENTRIES)
    return s


class _Overflow(Exception):
    pass


class _CappedBytes(object):
    """A pickle target that gives up past cap bytes, so an oversized value
    is skipped without its whole pickle ever being held."""

    def __init__(self, cap):
        self.cap = cap
        self.size = 0
        self.parts = []

    def write(self, data):
        self.size += len(data)
        if self.size > self.cap:
            raise _Overflow()
        self.parts.append(bytes(data))
        return len(data)


def _pickled(value, cap):
    sink = _CappedBytes(cap)
    try:
        pickle.dump(value, sink, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return None
    return b"".join(sink.parts)


def save_state():
    """Best effort: picklable variables within the caps, largest dropped
    first until the whole fits; modules by name. Written atomically."""
    if not STATE_PATH:
        return
    names, keep, sizes, modules = [], {}, {}, {}
    for k, v in list(NS.items()):
        if k in OWN:
            continue
        names.append(k)
        if isinstance(v, type(sys)):
            modules[k] = v.__name__
            continue
        blob = _pickled(v, STATE_VALUE_CAP)
        if blob is not None:
            keep[k] = v
            sizes[k] = len(blob)
    # One graph, so values shared between variables stay shared.
    graph = _pickled(keep, STATE_TOTAL_CAP)
    while graph is None and keep:
        del keep[max(keep, key=lambda n: sizes.get(n, 0))]
        graph = _pickled(keep, STATE_TOTAL_CAP)
    if graph is None:
        return
    tmp = "{}.{}.tmp".format(STATE_PATH, os.getpid())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            pickle.dump({"python": list(sys.version_info[:2]), "names": names, "graph": graph, "modules": modules}, f)
        os.replace(tmp, STATE_PATH)
    except Exception:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def restore_state():
    """Loads the snapshot into NS; returns (restored, dropped) names."""
    if not STATE_PATH or not os.path.exists(STATE_PATH):
        return [], []
    try:
        with open(STATE_PATH, "rb") as f:
            state = pickle.load(f)
        names = list(state.get("names", []))
    except Exception:
        return [], []
    try:
        if list(state.get("python", [])) != list(sys.version_info[:2]):
            return [], names
        values = pickle.loads(state["graph"]) if state.get("graph") else {}
    except Exception:
        return [], names
    restored = []
    for k, v in values.items():
        NS[k] = v
        restored.append(k)
    for alias, name in state.get("modules", {}).items():
        try:
            NS[alias] = importlib.import_module(name)
        except Exception:
            continue
        restored.append(alias)
    return restored, [n for n in names if n not in restored]


def reply(out, rid, body):
    body["id"] = rid
    for key in ("stdout", "stderr", "value", "error"):
        if isinstance(body.get(key), str):
            body[key] = _cap(body[key])
    # ASCII escapes keep lone surrogates (bytes decoded with
    # surrogateescape) from producing a line the host cannot parse.
    out.write(json.dumps(body) + "\n")
    out.flush()


def _on_term(signum, frame):
    for pgid in list(_running_groups):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(0)


def main():
    found = sys.version.split()[0]
    if sys.version_info < (3, 9):
        # Before anything newer than Python 2 is needed.
        sys.stdout.write(json.dumps({"id": 0, "ok": False, "error": "Python 3.9 or newer is required, found {}".format(found)}) + "\n")
        sys.stdout.flush()
        return
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    if os.name == "posix":
        signal.signal(signal.SIGTERM, _on_term)
    # Like a REPL: cells import from the current directory, not from here.
    sys.path[0] = ""
    restored, dropped = restore_state()
    reply(out, 0, {"ok": True, "ready": True, "python": found, "pid": os.getpid(),
                   "restored": restored, "dropped": dropped})
    while True:
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            continue
        if not line:
            return
        try:
            req = json.loads(line)
        except ValueError:
            continue
        rid, op = req.get("id", -1), req.get("op")
        try:
            if op == "exec":
                result = run_cell(req.get("code", ""))
                try:
                    save_state()
                except BaseException:
                    pass
                reply(out, rid, result)
            elif op == "ns":
                reply(out, rid, {"ok": True, "ns": listing()})
            elif op == "chdir":
                try:
                    os.chdir(req.get("dir", ""))
                    reply(out, rid, {"ok": True})
                except OSError as e:
                    reply(out, rid, {"ok": False, "error": str(e)})
            elif op == "shutdown":
                reply(out, rid, {"ok": True})
                return
            else:
                reply(out, rid, {"ok": False, "error": "unknown op: {!r}".format(op)})
        except KeyboardInterrupt:
            reply(out, rid, {"ok": False, "error": "KeyboardInterrupt while idle"})


if __name__ == "__main__":
    main()
