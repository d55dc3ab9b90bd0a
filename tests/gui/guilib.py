# SPDX-License-Identifier: GPL-3.0-or-later
"""What the GUI tests share (gui-test.py, gui-panels-test.py): TAP output,
screenshots through ImageMagick's `import`, xdotool input, and App, one
foldray process with its frame log (FOLDRAY_DEBUG_FRAMES) and its stderr.
A test script calls configure() first."""

import json
import os
import re
import struct
import subprocess
import time
import zlib

import numpy as np

EXE = None
OUT = None
GEOMETRY = "1200x760"
CONVERT = "/usr/bin/convert" if os.path.exists("/usr/bin/convert") else "convert"
# GTK's complaints: a clean run prints none of them.
BAD_STDERR = re.compile(r"(Gtk|Gdk|GLib-GObject|GLib)-(WARNING|CRITICAL)|still has children")


def configure(exe, out, geometry="1200x760"):
    global EXE, OUT, GEOMETRY
    EXE, OUT, GEOMETRY = exe, out, geometry
    os.makedirs(OUT, exist_ok=True)


results = []


def tap(ok, name, detail=""):
    results.append(ok)
    print(("ok" if ok else "not ok") + " %d - %s" % (len(results), name), flush=True)
    if detail:
        for line in str(detail).splitlines():
            print("# " + line, flush=True)


def run(*args, check=True, **kw):
    return subprocess.run(list(args), check=check, capture_output=True, text=True, **kw)


def screenshot(name=None):
    raw = subprocess.run(["import", "-window", "root", "-depth", "8", "rgb:-"],
                         check=True, capture_output=True).stdout
    w, h = 1280, 800
    img = np.frombuffer(raw, dtype=np.uint8)[: w * h * 3].reshape(h, w, 3).copy()
    if name:
        save_png(img, os.path.join(OUT, name + ".png"))
    return img


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def save_png(img, path):
    """Writes an RGB image (h x w x 3, uint8) as an 8-bit RGB PNG, here
    rather than through ImageMagick's convert: the same pixels, without
    starting a process (a third of a second, CPU mostly) per screenshot."""
    img = np.ascontiguousarray(img, dtype=np.uint8)
    h, w, _ = img.shape
    rows = np.zeros((h, w * 3 + 1), dtype=np.uint8)     # each row: filter 0, then its pixels
    rows[:, 1:] = img.reshape(h, w * 3)
    data = (b"\x89PNG\r\n\x1a\n"
            + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
            + _png_chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)


def read_png(path):
    info = run(CONVERT, path, "-format", "%w %h", "info:").stdout.split()
    w, h = int(info[0]), int(info[1])
    raw = subprocess.run([CONVERT, path, "-alpha", "off", "-depth", "8", "rgb:-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3)


class App:
    """One foldray process with its frame log and its stderr."""

    def __init__(self, *args, name="app", env=None, exe=None):
        self.log = os.path.join(OUT, name + "-frames.log")
        if os.path.exists(self.log):
            os.remove(self.log)
        env = dict(os.environ, FOLDRAY_DEBUG_FRAMES=self.log, GTK_A11Y="none", **(env or {}))
        env.setdefault("GSK_RENDERER", "gl")
        self.stderr_path = os.path.join(OUT, name + "-stderr.txt")
        self.stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen([exe or EXE, "--geometry", GEOMETRY] + list(args),
                                     env=env, stdout=self.stderr, stderr=self.stderr)
        self.win = None

    def lines(self):
        try:
            with open(self.log) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def settled_serials(self):
        return [int(m.group(1)) for m in (re.search(r"settled serial=(\d+)", l) for l in self.lines()) if m]

    def wait_settled(self, after=0, timeout=30.0):
        """Waits for a settled frame newer than serial `after`; returns it."""
        end = time.time() + timeout
        while time.time() < end:
            s = self.settled_serials()
            if s and s[-1] > after:
                return s[-1]
            if self.proc.poll() is not None:
                raise RuntimeError("foldray exited with %d" % self.proc.returncode)
            time.sleep(0.05)
        raise TimeoutError("no settled frame after serial %d" % after)

    def last_settled(self):
        s = self.settled_serials()
        return s[-1] if s else 0

    def find_window(self, timeout=30.0, name="Foldray"):
        end = time.time() + timeout
        while time.time() < end:
            r = run("xdotool", "search", "--onlyvisible", "--name", name, check=False)
            ids = r.stdout.split()
            if ids:
                self.win = ids[-1]
                geo = run("xdotool", "getwindowgeometry", "--shell", self.win).stdout
                vals = dict(l.split("=") for l in geo.split())
                self.wx, self.wy = int(vals["X"]), int(vals["Y"])
                return True
            time.sleep(0.1)
        return False

    def view(self):
        for line in reversed(self.lines()):
            if " view " in line and "w=1 " not in line:
                return {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.e+]+)", line)}
        raise RuntimeError("no view line in the frame log")

    def to_screen(self, x, z):
        v = self.view()
        px = self.wx + v["ox"] + (x - v["cx"]) * v["scale"] + v["w"] / 2
        py = self.wy + v["oy"] + (z - v["cz"]) * v["scale"] + v["h"] / 2
        return int(round(px)), int(round(py))

    def to_model(self, sx, sy):
        v = self.view()
        return ((sx - self.wx - v["ox"] - v["w"] / 2) / v["scale"] + v["cx"],
                (sy - self.wy - v["oy"] - v["h"] / 2) / v["scale"] + v["cz"])

    def canvas_box(self):
        v = self.view()
        x0, y0 = int(self.wx + v["ox"]), int(self.wy + v["oy"])
        return x0, y0, x0 + int(v["w"]), y0 + int(v["h"])

    def canvas(self, img):
        x0, y0, x1, y1 = self.canvas_box()
        return img[y0:y1, x0:x1]

    def stable_shot(self, name=None, timeout=10.0):
        """Screenshots until the canvas stops changing (GTK composites and
        the X server shows the frame a little after it is drawn)."""
        end = time.time() + timeout
        prev = None
        while time.time() < end:
            img = screenshot()
            cur = self.canvas(img)
            if prev is not None and np.array_equal(prev, cur) and cur.max() > 0:
                if name:
                    save_png(img, os.path.join(OUT, name + ".png"))
                return img
            prev = cur
            time.sleep(0.15)
        raise TimeoutError("the canvas never settled on screen")

    def title(self):
        # Bytes: a title read from freed memory is not UTF-8.
        out = subprocess.run(["xdotool", "getwindowname", self.win], capture_output=True).stdout
        return out.decode("utf-8", "replace").strip()

    def wait_title(self, pred, timeout=10.0):
        """Waits for a window title that pred accepts; returns the last one."""
        end = time.time() + timeout
        t = self.title()
        while time.time() < end and not pred(t):
            time.sleep(0.1)
            t = self.title()
        return t

    def serials(self, what):
        return [int(m.group(1)) for m in (re.search(what + r" serial=(\d+)", l) for l in self.lines()) if m]

    def last_job(self):
        j = self.serials(" job")
        return j[-1] if j else 0

    def settle_all(self, timeout=60.0):
        """Waits until the newest job's picture has settled."""
        end = time.time() + timeout
        while time.time() < end:
            s, j = self.serials("settled"), self.last_job()
            if j and s and s[-1] >= j:
                return s[-1]
            if self.proc.poll() is not None:
                raise RuntimeError("foldray exited with %d" % self.proc.returncode)
            time.sleep(0.05)
        raise TimeoutError("job %d never settled" % self.last_job())

    def last(self, what):
        """The key=value numbers and words of the newest frame-log line of
        kind `what` ("job", "spr", "fold", "view"), or {}."""
        for line in reversed(self.lines()):
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] == what:
                out = {}
                for k, v in re.findall(r"(\w+)=(\S+)", parts[2]):
                    try:
                        out[k] = float(v)
                    except ValueError:
                        out[k] = v
                return out
        return {}

    def rays_status(self):
        """The text of the newest Rays-mode status line ("" before one)."""
        for line in reversed(self.lines()):
            parts = line.split(" ", 3)
            if len(parts) == 4 and parts[1] == "rays-status":
                return parts[3]
        return ""

    def wait_job(self, after, timeout=30.0):
        """Waits for a job newer than serial `after` and its picture."""
        end = time.time() + timeout
        while self.last_job() <= after and time.time() < end:
            time.sleep(0.05)
        if self.last_job() <= after:
            raise TimeoutError("no job after serial %d" % after)
        return self.settle_all()

    def bad_stderr(self):
        """The GTK warnings and criticals the process printed so far."""
        if not self.stderr.closed:
            self.stderr.flush()
        with open(self.stderr_path) as f:
            return [l for l in f.read().splitlines() if BAD_STDERR.search(l)]

    def wait_exit(self, timeout=90):
        """Waits for the process to exit on its own (--export-on-idle);
        its status, or None when it did not within timeout.  Either way
        the process is gone after."""
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            rc = None
        self.quit()
        return rc

    def quit(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.stderr.close()


def near(img, sx, sy, rgb, radius=3, tol=40):
    patch = img[sy - radius: sy + radius + 1, sx - radius: sx + radius + 1].astype(int)
    d = np.abs(patch - np.array(rgb)).max(axis=-1)
    return bool((d <= tol).any())


def wait_for(pred, timeout=10.0):
    """Whether pred() came true within timeout seconds."""
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.1)
    return pred()


def xdo(*args):
    run("xdotool", *[str(a) for a in args])


def scene_variant(path, edit):
    """Writes the bundled three-layer scene, changed by edit(scene) (a
    dict, changed in place), to path; returns path."""
    root = os.environ.get("FOLDRAY_SOURCE_ROOT",
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    with open(os.path.join(root, "data", "scenes", "three-layer.json")) as f:
        scene = json.load(f)
    edit(scene)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(scene, f)
    return path


def click(x, y, button=1):
    xdo("mousemove", x, y)
    xdo("click", button)
    time.sleep(0.4)


# Where type_into leaves the pointer: outside the 1200 × 760 window at the
# screen's origin, over nothing of the app's.
POINTER_PARKED = (1250, 790)


def type_into(x, y, text, key="Return"):
    """Types text into the entry at (x, y), replacing it, and presses
    Enter (or key).  "--" ends xdotool's options: "-1" is text.  The
    pointer then leaves the field: resting on it, it shows the field's
    tooltip, which covers the field below, and a click there next (xdotool
    warps the pointer) landed on the tooltip, leaving the text for the
    next field in this one (F's tooltip over ψa x, Δ's over Count)."""
    click(x, y)
    xdo("key", "ctrl+a")
    xdo("type", "--", text)
    xdo("key", key)
    xdo("mousemove", *POINTER_PARKED)
    time.sleep(0.8)


def drag(fx, fy, tx, ty, steps=15):
    """Presses at (fx, fy), moves in steps to (tx, ty) and releases."""
    xdo("mousemove", fx, fy)
    xdo("mousedown", 1)
    for i in range(1, steps + 1):
        xdo("mousemove", int(round(fx + (tx - fx) * i / steps)), int(round(fy + (ty - fy) * i / steps)))
        time.sleep(0.03)
    xdo("mouseup", 1)


def check(name, fn):
    try:
        ok, detail = fn()
    except Exception as e:  # a failed step is a failed case, never a skip
        ok, detail = False, "%s: %s" % (type(e).__name__, e)
    tap(ok, name, detail)
    return ok
