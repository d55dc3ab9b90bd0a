#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of the foldray window under a real X server (run it inside
xvfb-run).  Drives the window with real input through xdotool, reads the
screen with ImageMagick's `import`, and checks pixels.  Speaks TAP.

Usage: gui-test.py FOLDRAY_EXE OUT_DIR

The application logs jobs, frames and its view transform to the file named
by FOLDRAY_DEBUG_FRAMES; the tests use it to wait for the picture to settle
(no fixed long sleeps) and to turn model coordinates into screen pixels."""

import base64
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import numpy as np

from guilib import App, check, configure, drag, near, read_png, results, run, scene_variant, screenshot, wait_for, xdo

EXE = sys.argv[1]
CLI = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(EXE))), "solver", "tools", "foldray-cli")
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-")
os.makedirs(OUT, exist_ok=True)
GEOMETRY = "1200x760"
configure(EXE, OUT, GEOMETRY)

SOURCE_RGB = (255, 77, 20)      # fr-canvas.c source_color
RECEIVER_RGB = (51, 217, 255)   # receiver_color
RAY = lambda img: (img[..., 0] > 200) & (img[..., 1] < 90) & (img[..., 2] > 200)


# ------------------------------------------------------------------ session 1
MODEL_SRC0 = (1.0, 0.5)
MODEL_SRC1 = (2.0, 0.8)
MODEL_RCV = (0.3, 0.1)

app = App("--clear", name="interact")
state = {}


def t_window():
    ok = app.find_window()
    return ok, "" if ok else "no window named Foldray"


def t_first_picture():
    state["serial"] = app.wait_settled()
    img = app.stable_shot("01-empty")
    state["empty"] = app.canvas(img).copy()
    # The velocity field fills the canvas: many distinct colours.
    colours = len(np.unique(state["empty"].reshape(-1, 3), axis=0))
    return colours > 20, "%d colours on the canvas" % colours


def t_click_source():
    sx, sy = app.to_screen(*MODEL_SRC0)
    xdo("mousemove", sx, sy)
    xdo("click", 1)
    state["serial"] = app.wait_settled(state["serial"])
    img = app.stable_shot("02-source")
    state["src0"] = app.canvas(img).copy()
    changed = np.any(state["src0"] != state["empty"], axis=-1).mean()
    marker = near(img, sx, sy, SOURCE_RGB)
    return marker and changed > 0.02, "marker %s, %.1f%% of the canvas changed" % (marker, 100 * changed)


def t_drag_source():
    sx, sy = app.to_screen(*MODEL_SRC0)
    tx, ty = app.to_screen(*MODEL_SRC1)
    xdo("mousemove", sx, sy)
    xdo("mousedown", 1)
    for i in range(1, 21):
        xdo("mousemove", int(sx + (tx - sx) * i / 20), int(sy + (ty - sy) * i / 20))
        time.sleep(0.02)
    xdo("mouseup", 1)
    state["serial"] = app.wait_settled(state["serial"])
    img = app.stable_shot("03-dragged")
    state["src1"] = app.canvas(img).copy()
    changed = np.any(state["src1"] != state["src0"], axis=-1).mean()
    at_new = near(img, tx, ty, SOURCE_RGB)
    at_old = near(img, sx, sy, SOURCE_RGB, radius=2, tol=25)
    frames = [l for l in app.lines() if " frame " in l]
    return (at_new and not at_old and changed > 0.05,
            "marker at new %s, at old %s, %.1f%% changed, %d frames so far"
            % (at_new, at_old, 100 * changed, len(frames)))


def ray_pixels(img, receiver=MODEL_RCV):
    x0, y0, x1, y1 = app.canvas_box()
    sub = img[y0:y1, x0:x1]
    sx, sy = app.to_screen(*MODEL_SRC1)
    rx, ry = app.to_screen(*receiver)
    bx0, bx1 = sorted((sx - x0, rx - x0))
    by0, by1 = sorted((sy - y0, ry - y0))
    box = sub[max(by0 - 30, 0): by1 + 30, max(bx0 - 30, 0): bx1 + 30]
    return int(RAY(box).sum()), int(RAY(sub).sum())


def t_shift_click_receiver():
    before, _ = ray_pixels(screenshot())
    rx, ry = app.to_screen(*MODEL_RCV)
    xdo("mousemove", rx, ry)
    xdo("keydown", "shift")
    xdo("click", 1)
    xdo("keyup", "shift")
    state["serial"] = app.wait_settled(state["serial"])
    img = app.stable_shot("04-receiver")
    inside, total = ray_pixels(img)
    state["ray_pixels"] = inside
    marker = near(img, rx, ry, RECEIVER_RGB)
    return (marker and before == 0 and inside > 50 and inside >= 0.9 * total,
            "receiver marker %s; ray pixels before %d, after %d between source and receiver (%d on the canvas)"
            % (marker, before, inside, total))


MODEL_RCV_DRAGGED = (0.8, 0.45)


def t_drag_receiver():
    """A receiver dragged solves nothing: every job of the drag takes the
    last solve (kept=1) and traces the ray from it, and the status line
    says so; the ray follows the receiver there and back; T, the same,
    is not uploaded again (the frame log's uploads= stays)."""
    first = app.last_job()
    uploads_before = app.last("frame").get("uploads")
    rx, ry = app.to_screen(*MODEL_RCV)
    tx, ty = app.to_screen(*MODEL_RCV_DRAGGED)
    drag(rx, ry, tx, ty, steps=12)
    state["serial"] = app.wait_settled(state["serial"])
    img = app.stable_shot("04b-receiver-dragged")
    uploads_after = app.last("frame").get("uploads")
    said = app.rays_status()
    kept = [int(m.group(2)) for m in (re.search(r" spr serial=(\d+) .* kept=(\d+)", l) for l in app.lines())
            if m and int(m.group(1)) > first]
    marker = near(img, tx, ty, RECEIVER_RGB)
    inside, total = ray_pixels(img, MODEL_RCV_DRAGGED)
    drag(tx, ty, rx, ry, steps=12)
    state["serial"] = app.wait_settled(state["serial"])
    back, _ = ray_pixels(app.stable_shot())
    return (len(kept) >= 2 and all(k == 1 for k in kept) and said == "Rays traced from the last solve"
            and marker and inside > 50 and inside >= 0.9 * total and back > 50
            and uploads_before is not None and uploads_after == uploads_before,
            "jobs of the drag with the solve kept: %s; status %r; marker at the new place %s; ray pixels "
            "%d of %d towards it, %d back; T uploaded %s times before the drag, %s after (the same T)"
            % (kept, said, marker, inside, total, back, uploads_before, uploads_after))


def t_delete():
    xdo("key", "Delete")
    state["serial"] = app.wait_settled(state["serial"])
    img = app.stable_shot("05-deleted")
    inside, total = ray_pixels(img)
    rx, ry = app.to_screen(*MODEL_RCV)
    return total == 0 and not near(img, rx, ry, RECEIVER_RGB), "%d ray pixels left" % total


def t_undo_redo():
    xdo("key", "ctrl+z")
    state["serial"] = app.wait_settled(state["serial"])
    back, _ = ray_pixels(app.stable_shot("06-undone"))
    xdo("key", "ctrl+shift+z")
    state["serial"] = app.wait_settled(state["serial"])
    _, gone = ray_pixels(app.stable_shot("07-redone"))
    xdo("key", "ctrl+z")
    state["serial"] = app.wait_settled(state["serial"])
    again, _ = ray_pixels(app.stable_shot())
    return (back > 50 and gone == 0 and again > 50,
            "ray pixels after undo %d, after redo %d, after undo %d" % (back, gone, again))


STORM_END = None


def t_drag_storm():
    global STORM_END
    sx, sy = app.to_screen(*MODEL_SRC1)
    x0, y0, x1, y1 = app.canvas_box()
    cmd = ["xdotool", "mousemove", str(sx), str(sy), "mousedown", "1"]
    # 200 motion events in about 2 s, in one xdotool process so they come fast.
    for i in range(200):
        t = i / 199.0
        px = int(sx + (x1 - x0) * 0.25 * np.sin(2 * np.pi * t))
        py = int(sy - (y1 - y0) * 0.15 * t)
        cmd += ["mousemove", str(px), str(py), "sleep", "0.01"]
    cmd += ["mouseup", "1"]
    t0 = time.time()
    subprocess.run(cmd, check=True)
    elapsed = time.time() - t0
    STORM_END = app.to_model(px, py)
    state["serial"] = app.wait_settled(state["serial"])
    img = app.stable_shot("08-storm")
    state["storm"] = app.canvas(img).copy()
    state["storm_px"] = (px - x0, py - y0)
    alive = app.proc.poll() is None
    jobs = [int(m.group(1)) for m in (re.search(r" job serial=(\d+)", l) for l in app.lines()) if m]
    frames = [int(m.group(1)) for m in (re.search(r" frame serial=(\d+)", l) for l in app.lines()) if m]
    increasing = all(a < b for a, b in zip(frames, frames[1:]))
    last_ok = frames[-1] == jobs[-1]
    return (alive and increasing and last_ok,
            "%.2f s for 200 moves; %d jobs, %d frames drawn; serials increasing %s; last frame %d, last job %d"
            % (elapsed, len(jobs), len(frames), increasing, frames[-1], jobs[-1]))


for name, fn in [
    ("window appears", t_window),
    ("example opens and the velocity field is drawn", t_first_picture),
    ("click places a source and isochrons appear", t_click_source),
    ("dragging the source moves it and the isochrons", t_drag_source),
    ("shift-click places a receiver and its ray appears", t_shift_click_receiver),
    ("a receiver dragged takes the last solve and traces its ray again, solving nothing", t_drag_receiver),
    ("Delete removes the selected receiver and its ray", t_delete),
    ("Ctrl+Z and Ctrl+Shift+Z undo and redo", t_undo_redo),
    ("drag storm: 200 moves, no crash, serials increase, last frame is last job", t_drag_storm),
]:
    if not check(name, fn) and name == "window appears":
        break
app.quit()

# ------------------------------------------------------------------ session 2
# A fresh start with the source where the storm left it must draw the same.


def t_storm_matches_fresh():
    if STORM_END is None or "storm" not in state:
        return False, "the drag storm did not run"
    fresh = App("--clear", "--source", "%.6f,%.6f" % STORM_END,
                "--receiver", "%.6f,%.6f" % MODEL_RCV, name="fresh")
    try:
        if not fresh.find_window():
            return False, "no window"
        fresh.wait_settled()
        img = fresh.canvas(fresh.stable_shot("09-fresh"))
    finally:
        fresh.quit()
    storm = state["storm"]
    if img.shape != storm.shape:
        return False, "canvas sizes differ: %s vs %s" % (img.shape, storm.shape)
    diff = np.any(img != storm, axis=-1)
    # The dragged source is selected (a yellow ring) in one picture only.
    cx, cy = state["storm_px"]
    yy, xx = np.mgrid[0: diff.shape[0], 0: diff.shape[1]]
    diff[(xx - cx) ** 2 + (yy - cy) ** 2 <= 20 ** 2] = False
    frac = diff.mean()
    return frac < 0.001, "%.4f%% of canvas pixels differ outside the marker" % (100 * frac)


check("after the storm the picture equals a fresh solve at the final position", t_storm_matches_fresh)


def curve_matches_times(svg, xs, ts, width):
    """Whether a traveltime curve figure (Export → Traveltime Curve) shows
    receivers at xs (a model width wide, from 0) with times ts: its dots
    (filled in the receiver colour) read back through the plot's frame (the
    stroked closed path at 60 %), and T = 0 where the source triangle's base
    stands, one point below.  Heights are compared as ratios, so the T
    axis's top (the plot's choice) does not enter."""
    import xml.etree.ElementTree as ET

    def box(el):
        nums = [float(v) for v in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", el.get("d", ""))]
        m = re.match(r"matrix\(([^)]*)\)", el.get("transform", ""))
        a, b, c, d, e, f = [float(v) for v in m.group(1).split(",")] if m else (1, 0, 0, 1, 0, 0)
        pts = [(a * x + c * y + e, b * x + d * y + f) for x, y in zip(nums[0::2], nums[1::2])]
        return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))

    dots, sources, frames = [], [], []
    for el in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}path"):
        style = el.get("style", "")
        if "fill:rgb(20%,85%,100%)" in style:
            dots.append(box(el))
        elif "fill:rgb(100%,30%,8%)" in style:
            sources.append(box(el))
        elif "fill:none" in style and "stroke-opacity:0.6" in style and "Z" in el.get("d", ""):
            frames.append(box(el))
    if len(frames) != 1 or not sources or len(dots) != len(xs):
        return False, "%d frames, %d sources, %d dots for %d receivers" % (len(frames), len(sources),
                                                                           len(dots), len(xs))
    px0, px1 = frames[0][0] - 0.5, frames[0][2] + 0.5
    zero = sources[0][3] - 1.0
    dots.sort()
    got_x = [((d[0] + d[2]) / 2 - px0) / (px1 - px0) * width for d in dots]
    heights = [zero - (d[1] + d[3]) / 2 for d in dots]
    order = sorted(range(len(xs)), key=lambda k: xs[k])
    scale = [heights[i] / ts[k] for i, k in enumerate(order)]
    good = (all(abs(g - xs[k]) < 0.01 for g, k in zip(got_x, order))
            and max(scale) - min(scale) < 0.01 * max(scale))
    return good, "dots at x %s; points per second %s" % (["%.3f" % v for v in got_x],
                                                          ["%.2f" % v for v in scale])


# ------------------------------------------------------------------ session 3
EXPORT_DIR = os.path.join(OUT, "export")
shutil.rmtree(EXPORT_DIR, ignore_errors=True)
exp = {}


def t_export_runs():
    a = App("--source", "1.5,0", "--receiver", "0.3,0", "--receiver", "2.7,0", "--radius", "4,6",
            "--export-on-idle", EXPORT_DIR, name="export")
    rc = a.wait_exit()
    if rc is None:
        return False, "did not quit after exporting"
    names = sorted(os.listdir(EXPORT_DIR)) if os.path.isdir(EXPORT_DIR) else []
    exp["view"] = a.view()
    want = ["T.npy", "T.vti", "canvas.png", "curve.pdf", "curve.svg", "figure.pdf", "figure.svg",
            "rays.csv", "rays.vtp", "receivers.csv", "times.csv", "velocity.npy", "velocity.vti"]
    if rc != 0 or names != want:
        return False, "exit %s, files %s" % (rc, names)
    # The arrival times at the two receivers, T.npy's at their nodes, and
    # the curve drawing them.
    T = np.load(os.path.join(EXPORT_DIR, "T.npy"))
    dx = 3.0 / (T.shape[1] - 1)
    rows = open(os.path.join(EXPORT_DIR, "times.csv")).read().splitlines()
    ts = [float(r.split(",")[3]) for r in rows[1:]]
    at_nodes = [float(T[0, int(round(x / dx))]) for x in (0.3, 2.7)]
    good_times = rows[0] == "receiver,x,z,t" and len(ts) == 2 and all(
        np.float32(t) == np.float32(n) for t, n in zip(ts, at_nodes))
    good_curve, said = curve_matches_times(os.path.join(EXPORT_DIR, "curve.svg"), [0.3, 2.7], ts, 3.0)
    return good_times and good_curve, "files %s; times %s (T.npy %s); curve: %s" % (names, ts, at_nodes, said)


def t_export_png():
    img = read_png(os.path.join(EXPORT_DIR, "canvas.png"))
    h, w, _ = img.shape
    ok_size = (w, h) == (int(exp["view"]["w"]), int(exp["view"]["h"]))
    colours = len(np.unique(img.reshape(-1, 3), axis=0))
    rays = int(RAY(img).sum())
    return ok_size and colours > 50 and rays > 50, "%dx%d, %d colours, %d ray pixels" % (w, h, colours, rays)


def t_export_png_hidpi():
    """At a scale factor of 2 the canvas-size picture has the canvas's
    device pixels, twice its size in GTK's units (it had half the
    resolution on screen)."""
    d = os.path.join(OUT, "export-hidpi")
    shutil.rmtree(d, ignore_errors=True)
    a = App("--geometry", "600x380", "--source", "1.5,0", "--export-on-idle", d, name="export-hidpi",
            env={"GDK_SCALE": "2"})
    rc = a.wait_exit()
    if rc != 0:
        return False, "exit %s" % rc
    # The canvas's sizes while the window laid itself out (a narrow window
    # settles its panels late); the picture has twice one of them.
    sizes = sorted({(int(float(m.group(1))), int(float(m.group(2))))
                    for m in (re.search(r" view .* w=([\d.]+) h=([\d.]+)", l) for l in a.lines()) if m})
    img = read_png(os.path.join(d, "canvas.png"))
    h, w, _ = img.shape
    return (any((w, h) == (2 * sw, 2 * sh) for sw, sh in sizes),
            "canvas sizes in GTK's units %s, picture %d × %d" % (sizes, w, h))


def t_export_npy():
    T = np.load(os.path.join(EXPORT_DIR, "T.npy"))
    V = np.load(os.path.join(EXPORT_DIR, "velocity.npy"))
    ok = T.shape == V.shape and T.dtype == np.float32 and T.ndim == 2
    nz, nx = T.shape
    # The source (1.5, 0) at 0.01 spacing is node (150, 0).
    t0 = float(T[0, 150]) if ok else float("nan")
    finite = np.isfinite(T).all() if ok else False
    mono = ok and T[0, 160] > T[0, 155] > 0.0
    return ok and t0 == 0.0 and finite and mono, "shape %s, T at source %g, all finite %s" % (T.shape, t0, finite)


def t_export_vti():
    ok, notes = True, []
    for name, field in (("T.vti", "T"), ("velocity.vti", "velocity")):
        root = ET.parse(os.path.join(EXPORT_DIR, name)).getroot()
        img = root.find("ImageData")
        arrays = [d.get("Name") for d in root.iter("DataArray")]
        good = root.get("type") == "ImageData" and img is not None and field in arrays
        extent = img.get("WholeExtent") if img is not None else None
        ok &= good and extent == "0 300 0 0 0 150"
        notes.append("%s: %s %s" % (name, extent, arrays))
    root = ET.parse(os.path.join(EXPORT_DIR, "rays.vtp")).getroot()
    pieces = list(root.iter("Piece"))
    lines = sum(int(p.get("NumberOfLines", 0)) for p in pieces)
    ok &= root.get("type") == "PolyData" and lines == 2
    notes.append("rays.vtp: %d polylines" % lines)
    with open(os.path.join(EXPORT_DIR, "rays.csv")) as f:
        rows = f.read().splitlines()
    ok &= rows[0] == "receiver,x,z" and {r.split(",")[0] for r in rows[1:]} == {"0", "1"}
    notes.append("rays.csv: %d rows" % (len(rows) - 1))
    return ok, "\n".join(notes)


def t_export_receivers_cli():
    """receivers.csv holds the receivers given on the command line, and
    foldray-cli takes it with the exported velocities: its rays (Dijkstra,
    the reference) end at them, with the app's traveltimes there.  The app
    was given --radius 4,6: its T is foldray-cli's of that radius at every
    node, and not that of 4 along both axes."""
    with open(os.path.join(EXPORT_DIR, "receivers.csv")) as f:
        rows = f.read().splitlines()
    if rows != ["x,z", "0.3,0", "2.7,0"]:
        return False, "receivers.csv: %s" % rows
    t_cli, rays_cli = os.path.join(EXPORT_DIR, "cli-T.npy"), os.path.join(EXPORT_DIR, "cli-rays.csv")
    r = run(CLI, "spr", "--velocity", os.path.join(EXPORT_DIR, "velocity.npy"), "--spacing", "0.01",
            "--source", "1.5,0", "--radius", "4,6", "--backend", "dijkstra",
            "--receivers", os.path.join(EXPORT_DIR, "receivers.csv"), "--rays-out", rays_cli,
            "--out", t_cli, check=False)
    if r.returncode != 0:
        return False, "foldray-cli exit %d: %s" % (r.returncode, r.stderr.strip())
    t_square = os.path.join(EXPORT_DIR, "cli-T-square.npy")
    r = run(CLI, "spr", "--velocity", os.path.join(EXPORT_DIR, "velocity.npy"), "--spacing", "0.01",
            "--source", "1.5,0", "--radius", "4", "--backend", "dijkstra", "--out", t_square,
            check=False)
    if r.returncode != 0:
        return False, "foldray-cli --radius 4 exit %d: %s" % (r.returncode, r.stderr.strip())
    ends = {}
    with open(rays_cli) as f:
        for row in f.read().splitlines()[1:]:
            k, x, z = row.split(",")
            ends[int(k)] = (float(x), float(z))
    T_app, T_cli = np.load(os.path.join(EXPORT_DIR, "T.npy")), np.load(t_cli)
    at = [(0, 30), (0, 270)]                  # (0.3, 0) and (2.7, 0) at 0.01
    same_t = all(abs(T_app[i] - T_cli[i]) <= 1e-5 * T_cli[i] for i in at)
    both = np.isfinite(T_cli) & (T_cli > 0)
    off = float(np.max(np.abs(T_app[both] - T_cli[both]) / T_cli[both]))
    off_square = float(np.max(np.abs(T_app[both] - np.load(t_square)[both]) / T_cli[both]))
    ok = (ends.get(0) == (0.3, 0.0) and ends.get(1) == (2.7, 0.0) and same_t and off <= 1e-5
          and off_square > 1e-4)
    return ok, ("rays end at %s; T at the receivers, app %s, foldray-cli %s; largest relative "
                "difference from foldray-cli's T at radius 4,6 %.2g, at radius 4 %.2g") % (
        ends, [float(T_app[i]) for i in at], [float(T_cli[i]) for i in at], off, off_square)


for name, fn in [
    ("--export-on-idle writes every export and quits", t_export_runs),
    ("exported PNG has the canvas size and shows the field and rays", t_export_png),
    ("at a scale factor of 2 the PNG has the canvas's device pixels", t_export_png_hidpi),
    ("exported T.npy and velocity.npy read back", t_export_npy),
    ("exported .vti, .vtp and rays CSV are valid", t_export_vti),
    ("exported receivers.csv gives foldray-cli the app's receivers and traveltimes",
     t_export_receivers_cli),
]:
    check(name, fn)


# ------------------------------------------------------------------ session 4
# Folds mode: draw a horizon with clicks, drag the ψa arrow's tip, and check
# the folded horizons by pixels against their analytic shape.  With F = 1
# constant, the level set T = t is {p : dist(p − ψa·t, H) = t} for the
# drawn polyline H (Huygens: circles of radius F·t about H moved by ψa·t).
FOLD_H = [(0.3, 0.95), (1.5, 0.6), (2.7, 0.95)]
FOLD_DELTA, FOLD_COUNT = 0.1, 8
fold = App("--clear", "--mode", "folds", "--psi-a", "0,0", name="folds")
fst = {}


def seg_dist(px, pz, poly):
    best = np.full(px.shape, np.inf)
    for (ax, az), (bx, bz) in zip(poly, poly[1:]):
        ex, ez = bx - ax, bz - az
        t = np.clip(((px - ax) * ex + (pz - az) * ez) / (ex * ex + ez * ez), 0, 1)
        best = np.minimum(best, np.hypot(px - ax - t * ex, pz - az - t * ez))
    return best


def fold_psi():
    for line in reversed(fold.lines()):
        m = re.search(r"fold serial=\d+ psi_x=([-\d.e+]+) psi_z=([-\d.e+]+) nodes=(\d+)", line)
        if m:
            return float(m.group(1)), float(m.group(2)), int(m.group(3))
    return None


def white_points(img):
    """Model positions of the folded horizons' white pixels inside the model
    box, away from its edges and the arrow's handles."""
    x0, y0, x1, y1 = fold.canvas_box()
    sub = img[y0:y1, x0:x1].astype(int)
    mask = (sub > 235).all(axis=-1)
    ys, xs = np.nonzero(mask)
    mx, mz = fold.to_model(xs + x0, ys + y0)
    mx, mz = np.asarray(mx), np.asarray(mz)
    keep = (mx > 0.06) & (mx < 2.94) & (mz > 0.06) & (mz < 1.44)
    bx, bz = 1.5, 0.3    # the arrow's base (fold_model_changed)
    keep &= np.hypot(mx - bx, mz - bz) > 0.12
    return mx[keep], mz[keep]


def fit_fraction(mx, mz, psi, tol=0.02):
    ok = np.zeros(mx.shape, bool)
    for k in range(1, FOLD_COUNT + 1):
        t = k * FOLD_DELTA
        d = seg_dist(mx - psi[0] * t, mz - psi[1] * t, FOLD_H)
        ok |= np.abs(d - t) < tol
    return ok.mean() if len(ok) else 0.0


def t_fold_draw():
    if not fold.find_window():
        return False, "no window"
    s = fold.wait_settled()
    xdo("key", "ctrl+shift+Delete")    # win.fold-clear-horizon, the panel's “Clear”
    s = fold.wait_settled(s)
    for x, z in FOLD_H:
        sx, sy = fold.to_screen(x, z)
        xdo("mousemove", sx, sy)
        xdo("click", 1)
        time.sleep(0.3)
    end = time.time() + 30
    while time.time() < end and (fold_psi() or (0, 0, 0))[2] < 3:
        time.sleep(0.1)
    fst["serial"] = fold.wait_settled(fold.last_settled() if fold_psi()[2] < 3 else 0)
    time.sleep(0.5)
    fst["serial"] = fold.wait_settled(fst["serial"] - 1)
    img = fold.stable_shot("20-fold-drawn")
    mx, mz = white_points(img)
    psi = fold_psi()
    frac = fit_fraction(mx, mz, (0.0, 0.0))
    nodes = sum(near(img, *fold.to_screen(x, z), (255, 140, 0), radius=3, tol=40) for x, z in FOLD_H)
    fst["img0"] = fold.canvas(img).copy()
    return (psi is not None and psi[2] == 3 and nodes == 3 and len(mx) > 500 and frac > 0.95,
            "%d nodes drawn, %d horizon pixels, %.1f%% at distance k·Δ from the polyline (psi %s)"
            % (nodes, len(mx), 100 * frac, psi))


def t_fold_status():
    """The status line counts the levels T = k·Δ the panel's Count asks
    for, not the pieces they are drawn in (both sides of the horizon, cut
    by the model's edges): "8 of 8 levels", where the pieces are more."""
    line = ""
    for l in reversed(fold.lines()):
        if " status " in l:
            line = l
            break
    m = re.search(r"pieces=(\d+) (\d+) of (\d+) levels folded in [\d.]+ ms \((\w+)\)", line)
    ok = (m is not None and int(m.group(2)) == FOLD_COUNT and int(m.group(3)) == FOLD_COUNT
          and int(m.group(1)) > FOLD_COUNT)
    return ok, "status line: %r" % line


def t_fold_drag_psi():
    bx, by = fold.to_screen(1.5, 0.3)
    v = fold.view()
    # 0.5 F to the right: the arrow spans a quarter of the model's smaller side per unit ψa.
    tx = bx + int(round(0.5 * 0.25 * 1.51 * v["scale"]))
    drag(bx, by, tx, by)
    fst["serial"] = fold.wait_settled(fst["serial"])
    img = fold.stable_shot("21-fold-sheared")
    psi = fold_psi()
    mx, mz = white_points(img)
    sheared = fit_fraction(mx, mz, psi[:2])
    parallel = fit_fraction(mx, mz, (0.0, 0.0))
    # Sheared along the arrow, not against it: the level sets moved by
    # +ψa·t fit, those moved by −ψa·t do not.  (The mean x of the pixels is
    # no measure of it: the shifted curves leave the box on the right and
    # their left caps come into it.)
    mirrored = fit_fraction(mx, mz, (-psi[0], -psi[1]))
    fst["tip"] = (tx, by)
    return (psi[0] > 0.3 and abs(psi[1]) < 0.02 and sheared > 0.9 and parallel < 0.75 and mirrored < 0.75,
            "psi (%.3f, %.3f): %.1f%% of %d pixels on the sheared level sets, %.1f%% on the unsheared, "
            "%.1f%% on those sheared against ψa" % (psi[0], psi[1], 100 * sheared, len(mx), 100 * parallel,
                                                   100 * mirrored))


def fold_idle(timeout=30.0):
    """Waits until the newest fold job's frame has settled."""
    end = time.time() + timeout
    while time.time() < end:
        jobs = [int(m.group(1)) for m in (re.search(r"fold serial=(\d+)", l) for l in fold.lines()) if m]
        done = fold.settled_serials()
        if not jobs or (done and done[-1] >= jobs[-1]):
            return
        time.sleep(0.05)


def fold_key_psi(key):
    """Sends key and returns ψa of the job it starts, once that job's frame
    has settled.  (Waiting only for any newer settled frame raced with the
    last jobs of the drag before.)"""
    fold_idle()
    before = len(fold.lines())
    xdo("key", key)
    end = time.time() + 30.0
    while time.time() < end:
        new = [l for l in fold.lines()[before:] if " fold serial=" in l]
        if new:
            serial = int(re.search(r"fold serial=(\d+)", new[-1]).group(1))
            fst["serial"] = fold.wait_settled(serial - 1)
            return fold_psi()
        time.sleep(0.05)
    return None


def t_fold_undo():
    # Two drags before: ψa 0 → 0.5 → 0.  Each undo steps over one drag.
    first = fold_key_psi("ctrl+z")
    second = fold_key_psi("ctrl+z")
    again = fold_key_psi("ctrl+shift+z")
    ok = (first is not None and second is not None and again is not None and
          first[0] > 0.3 and abs(second[0]) < 1e-9 and abs(again[0] - first[0]) < 1e-12 and
          first[2] == second[2] == again[2] == 3)
    return ok, "ψa after undo %s, after undo %s, after redo %s" % (first, second, again)


def t_fold_psi_zero():
    bx, by = fold.to_screen(1.5, 0.3)
    drag(fst["tip"][0], fst["tip"][1], bx, by)
    fst["serial"] = fold.wait_settled(fst["serial"])
    img = fold.stable_shot("22-fold-parallel")
    psi = fold_psi()
    mx, mz = white_points(img)
    frac = fit_fraction(mx, mz, (0.0, 0.0), tol=0.01 + 1.5 / fold.view()["scale"])
    return (abs(psi[0]) < 1e-3 and abs(psi[1]) < 1e-3 and frac > 0.95,
            "psi (%.2g, %.2g): %.1f%% of %d pixels within one cell of distance k·Δ from the horizon"
            % (psi[0], psi[1], 100 * frac, len(mx)))


for name, fn in [
    ("folds: clicks draw a horizon; with ψa = 0 the folded horizons are parallel curves", t_fold_draw),
    ("folds: the status line counts Count's levels, not their pieces", t_fold_status),
    ("folds: dragging the ψa arrow's tip shears the folded horizons along it", t_fold_drag_psi),
    ("folds: dragging the tip back to ψa = 0 gives parallel curves within one cell", t_fold_psi_zero),
    ("folds: Ctrl+Z undoes each ψa drag as one step, Ctrl+Shift+Z redoes it", lambda: t_fold_undo()),
]:
    check(name, fn)
fold.quit()

FOLD_EXPORT = os.path.join(OUT, "fold-export")
shutil.rmtree(FOLD_EXPORT, ignore_errors=True)


def t_fold_export():
    # A receiver too: receivers are Rays mode's, so Folds mode writes no
    # receivers.csv, as its Export menu offers none.
    a = App("--mode", "folds", "--psi-a", "0.3,-0.2", "--receiver", "0.5,0",
            "--export-on-idle", FOLD_EXPORT, name="fold-export")
    rc = a.wait_exit()
    if rc is None:
        return False, "did not quit after exporting"
    names = sorted(os.listdir(FOLD_EXPORT)) if os.path.isdir(FOLD_EXPORT) else []
    ok = (rc == 0 and {"horizons.csv", "horizons.vtp", "figure.svg", "figure.pdf", "T.npy"} <= set(names)
          and "receivers.csv" not in names)
    notes = ["exit %d, files %s" % (rc, names)]
    if ok:
        with open(os.path.join(FOLD_EXPORT, "horizons.csv")) as f:
            rows = f.read().splitlines()
        ids = {r.split(",")[0] for r in rows[1:]}
        # T is the level k·Δ as set (0.3, not 0.30000000000000004), and
        # x, z the shortest text that reads back (0.03, not 0.029999...).
        levels = {r.split(",")[2] for r in rows[1:]}

        def digits(v):
            return re.sub(r"[eE].*", "", v).replace("-", "").replace(".", "").lstrip("0")

        # Python's repr is the shortest text that reads back.
        long_numbers = [v for r in rows[1:] for v in r.split(",")[3:]
                        if len(digits(v)) > len(digits(repr(float(v))))]
        short_levels = all(len(t) <= 6 for t in levels)
        root = ET.parse(os.path.join(FOLD_EXPORT, "horizons.vtp")).getroot()
        lines = sum(int(p.get("NumberOfLines", 0)) for p in root.iter("Piece"))
        # Each line's level T, as in the CSV (per horizon id), for ParaView.
        cells = {el.get("Name"): el for el in root.iter("DataArray")}
        vtp_t = []
        if "T" in cells:
            raw = base64.b64decode(cells["T"].text.strip())
            n = struct.unpack("<Q", raw[:8])[0] // 8
            vtp_t = list(struct.unpack("<%dd" % n, raw[8:8 + 8 * n]))
        csv_t = {}
        for r in rows[1:]:
            f = r.split(",")
            csv_t[int(f[0])] = float(f[2])
        levels_agree = ("k" in cells and len(vtp_t) == len(csv_t) and
                        all(abs(vtp_t[i] - csv_t[i]) < 1e-12 for i in sorted(csv_t)))
        svg = ET.parse(os.path.join(FOLD_EXPORT, "figure.svg")).getroot()
        paths = [p for p in svg.iter("{http://www.w3.org/2000/svg}path")
                 if "stroke:rgb(98%,98%,98%)" in p.get("style", "")]
        info = run("pdfinfo", os.path.join(FOLD_EXPORT, "figure.pdf"), check=False).stdout
        ok = (rows[0] == "horizon,k,T,x,z" and len(ids) == lines > 0 and len(paths) == lines
              and "Pages:" in info and short_levels and not long_numbers and levels_agree)
        notes.append("%d horizons in CSV, %d in .vtp, %d white paths in the SVG; pdfinfo %s; "
                     "levels %s; numbers longer than the shortest that reads back: %s; "
                     ".vtp's k and T agree with the CSV: %s"
                     % (len(ids), lines, len(paths), "ok" if "Pages:" in info else "failed",
                        sorted(levels), long_numbers[:3], levels_agree))
    return ok, "\n".join(notes)


check("folds: --export-on-idle writes T, horizons (CSV, .vtp) and the SVG/PDF figure", t_fold_export)

FOLD_SCENE_DIR = os.path.join(OUT, "fold-scene")
shutil.rmtree(FOLD_SCENE_DIR, ignore_errors=True)


def t_fold_scene_cli():
    """A scene with a fold (horizon, constant F, ψa, method, back end): the
    app's exported T and `foldray-cli fold --scene` agree."""
    root = os.environ.get("FOLDRAY_SOURCE_ROOT",
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import json
    with open(os.path.join(root, "data", "scenes", "three-layer.json")) as f:
        scene = json.load(f)
    bg = scene.get("background")
    if bg and not os.path.isabs(bg["path"]):
        bg["path"] = os.path.join(root, "data", "scenes", bg["path"])
    scene["fold"] = {"psi_a": [0.25, -0.1], "method": "las", "backend": "cpu", "speed": 1.5,
                     "delta": 0.1, "count": 6, "bands": False,
                     "horizon": [[0.3, 0.95], [1.5, 0.6], [2.7, 0.95]]}
    os.makedirs(FOLD_SCENE_DIR, exist_ok=True)
    path = os.path.join(FOLD_SCENE_DIR, "fold.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    exported = os.path.join(FOLD_SCENE_DIR, "export")
    a = App(path, "--mode", "folds", "--export-on-idle", exported, name="fold-scene")
    rc = a.wait_exit()
    if rc is None:
        return False, "did not quit after exporting"
    cli_t = os.path.join(FOLD_SCENE_DIR, "cli-T.npy")
    r = run(CLI, "fold", "--scene", path, "--out", cli_t, check=False)
    if rc != 0 or r.returncode != 0:
        return False, "app exit %d; foldray-cli exit %d: %s" % (rc, r.returncode, r.stderr.strip())
    app_t = np.load(os.path.join(exported, "T.npy")).astype(np.float64)
    cli = np.load(cli_t).astype(np.float64)
    if app_t.shape != cli.shape:
        return False, "shapes differ: app %s, cli %s" % (app_t.shape, cli.shape)
    fin = np.isfinite(cli)
    same_fin = bool((np.isfinite(app_t) == fin).all())
    # The app keeps T in single precision.
    rel = float(np.max(np.abs(app_t[fin] - cli[fin]) / np.maximum(np.abs(cli[fin]), 1e-6)))
    return (same_fin and fin.mean() > 0.5 and rel < 1e-5,
            "shape %s, %.1f%% finite in both %s, largest relative difference %.2g"
            % (cli.shape, 100 * fin.mean(), same_fin, rel))


check("folds: a saved fold scene gives the app's T with `foldray-cli fold --scene`", t_fold_scene_cli)


# A scene keeps its Folds mode and characteristic points, and a cleared
# horizon stays cleared: switching to Rays and back, saving and reopening
# do not bring the bundled anticline back.  The mode, the horizon's nodes
# and the characteristic points of each job come from the frame log.
FOLD_FILES = os.path.join(OUT, "fold-files")
FOLD_FILES_ENV = {"FOLDRAY_STATE_DIR": os.path.join(FOLD_FILES, "state"), "FOLDRAY_RECOVER": "no"}
MODE_BUTTON = {"rays": (117, 27), "folds": (183, 27)}    # window-relative, in the header bar
FOLD_FILE_H = [[0.3, 0.95], [1.5, 0.6], [2.7, 0.95]]


def newest_kind(a):
    """"fold" or "spr": the kind of a's newest job."""
    for line in reversed(a.lines()):
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in ("fold", "spr"):
            return parts[1]
    return None


def switch_mode(a, mode):
    before = a.last_job()
    xdo("mousemove", a.wx + MODE_BUTTON[mode][0], a.wy + MODE_BUTTON[mode][1])
    xdo("click", 1)
    a.wait_job(before)


def saved_json(a, path):
    mtime = os.stat(path).st_mtime_ns
    xdo("key", "ctrl+s")
    wait_for_change = time.time() + 10
    while time.time() < wait_for_change and os.stat(path).st_mtime_ns == mtime:
        time.sleep(0.05)
    a.wait_title(lambda t: not t.startswith("• "))
    with open(path) as f:
        return json.load(f)


def t_fold_file_mode():
    path = scene_variant(os.path.join(FOLD_FILES, "mode.json"),
                         lambda s: s.update(fold={"psi_a": [0.1, 0.0], "horizon": FOLD_FILE_H}))
    a = App(path, name="fold-mode", env=FOLD_FILES_ENV)
    notes = []
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        opened = newest_kind(a)
        switch_mode(a, "folds")
        xdo("mousemove", *a.to_screen(2.0, 0.3))
        xdo("keydown", "shift")
        xdo("click", 1)
        xdo("keyup", "shift")
        title = a.wait_title(lambda t: t.startswith("• "))
        a.settle_all()
        traced = a.last("fold")
        saved = saved_json(a, path)
    finally:
        a.quit()
    notes.append("opened in %s; after Folds and a Shift+click: %s, title %r" % (opened, traced, title))
    chars = saved.get("fold", {}).get("characteristics", [])
    notes.append("saved: mode %r, characteristics %s" % (saved.get("mode"), chars))
    b = App(path, name="fold-mode-reopened", env=FOLD_FILES_ENV)
    try:
        if not b.find_window():
            return False, "no window on reopening"
        b.settle_all()
        img = b.stable_shot("25-fold-mode-reopened")
        again = b.last("fold")
        kind = newest_kind(b)
        reopened_title = b.title()
    finally:
        b.quit()
    notes.append("reopened: newest job %s %s, title %r" % (kind, again, reopened_title))
    # The characteristic is drawn (magenta) near its point.
    sx, sy = b.to_screen(2.0, 0.3)
    drawn = near(img, sx, sy, (255, 0, 255), radius=12, tol=90)
    notes.append("characteristic drawn at its point: %s" % drawn)
    ok = (opened == "spr" and traced.get("nodes") == 3 and traced.get("rays") == 1
          and saved.get("mode") == "folds" and len(chars) == 1
          and abs(chars[0][0] - 2.0) < 0.02 and abs(chars[0][1] - 0.3) < 0.02
          and kind == "fold" and again.get("nodes") == 3 and again.get("rays") == 1
          and not reopened_title.startswith("• ") and drawn)
    return ok, "\n".join(notes)


def t_fold_file_cleared():
    path = os.path.join(FOLD_FILES, "mode.json")
    a = App(path, name="fold-cleared", env=FOLD_FILES_ENV)
    notes = []
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        before = a.last_job()
        xdo("key", "ctrl+shift+Delete")        # the panel's Clear
        a.wait_job(before)
        cleared = a.last("fold")
        switch_mode(a, "rays")
        switch_mode(a, "folds")
        back = a.last("fold")
        saved = saved_json(a, path)
    finally:
        a.quit()
    notes.append("cleared: %s; after Rays and Folds: %s" % (cleared, back))
    horizon = saved.get("fold", {}).get("horizon")
    notes.append("saved horizon %r, mode %r" % (horizon, saved.get("mode")))
    b = App(path, name="fold-cleared-reopened", env=FOLD_FILES_ENV)
    try:
        if not b.find_window():
            return False, "no window on reopening"
        b.settle_all()
        again = b.last("fold")
        kind = newest_kind(b)
    finally:
        b.quit()
    notes.append("reopened: newest job %s %s" % (kind, again))
    ok = (cleared.get("nodes") == 0 and back.get("nodes") == 0 and horizon == []
          and saved.get("mode") == "folds" and kind == "fold" and again.get("nodes") == 0)
    return ok, "\n".join(notes)


def t_mode_keys():
    """Ctrl+2 and Ctrl+1 switch to Folds and back to Rays, as the header's
    buttons do (the switch had no key)."""
    a = App(scene_variant(os.path.join(FOLD_FILES, "keys.json"), lambda s: None), name="mode-keys",
            env=FOLD_FILES_ENV)
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        first = newest_kind(a)
        job = a.last_job()
        xdo("key", "ctrl+2")
        a.wait_job(job)
        folds = newest_kind(a)
        job = a.last_job()
        xdo("key", "ctrl+1")
        a.wait_job(job)
        rays = newest_kind(a)
    finally:
        a.quit()
    return (first, folds, rays) == ("spr", "fold", "spr"), "jobs: %s, after Ctrl+2 %s, after Ctrl+1 %s" % (
        first, folds, rays)


def t_fold_characteristic_cut():
    """A characteristic whose front came from the horizon's part beyond
    the model's left edge starts out there; zoomed out, the canvas cuts it
    at the edge as it cuts the horizon (its last leg ran into the margin),
    and draws it inside."""
    path = scene_variant(os.path.join(FOLD_FILES, "edge-ray.json"), lambda s: s.update(
        mode="folds", view={"cx": 1.5, "cz": 0.75, "scale": 120.0},
        fold={"psi_a": [0.5, 0.0], "speed": 1.0, "horizon": [[-0.5, 0.5], [1.5, 0.3], [3.5, 0.5]],
              "characteristics": [[0.3, 1.4]]}))
    a = App(path, name="fold-characteristic-cut", env=FOLD_FILES_ENV)
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        img = a.stable_shot("25b-fold-characteristic-cut")
        traced = a.last("fold")
        edge, top = a.to_screen(0.0, 0.3)
        _, bottom = a.to_screen(0.0, 1.0)
        inside = a.to_screen(0.15, 1.15)
    finally:
        a.quit()
    # Magenta left of the edge, beyond the line's half width, where the
    # leg from (0, 0.9) to (-0.25, 0.48) would run.
    margin = img[top:bottom, edge - 60:edge - 6].astype(int)
    off = int((np.abs(margin - np.array((255, 0, 255))).max(axis=-1) <= 90).sum())
    drawn = near(img, inside[0], inside[1], (255, 0, 255), radius=6, tol=90)
    return (traced.get("rays") == 1 and off == 0 and drawn,
            "job %s; magenta pixels in the margin left of the model %d; drawn inside %s"
            % (traced, off, drawn))


os.makedirs(FOLD_FILES, exist_ok=True)
check("folds: Ctrl+2 and Ctrl+1 switch to Folds and back to Rays", t_mode_keys)
if check("folds: a scene saved in Folds mode reopens in it, with its characteristic points", t_fold_file_mode):
    check("folds: a cleared horizon stays cleared through Rays and back, saving and reopening",
          t_fold_file_cleared)
check("folds: a characteristic from a horizon beyond the model is cut at its edge",
      t_fold_characteristic_cut)


# ------------------------------------------------------------------ session 5
# The model editor (issue 7) on a scene file with three layers: drag an
# interface node, draw a polygon obstacle across the ray, save with Ctrl+S
# and reopen.  The scene file is the window's file, so Ctrl+S writes it
# without a dialog.
MODEL_SCENE = os.path.join(OUT, "model-scene.json")
MODEL_SRC, MODEL_RCV2 = (2.4, 0.3), (0.6, 0.3)
MODEL_NODE = (3.0, 0.48)               # the second interface's right end
MODEL_NODE_TO = (3.0, 0.15)            # now above the source: it starts in the second layer
mst = {}


def write_model_scene():
    root = os.environ.get("FOLDRAY_SOURCE_ROOT",
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    with open(os.path.join(root, "data", "scenes", "three-layer.json")) as f:
        scene = json.load(f)
    scene["sources"] = [list(MODEL_SRC)]
    scene["receivers"] = [list(MODEL_RCV2)]
    scene["title"] = "model editor test"
    with open(MODEL_SCENE, "w") as f:
        json.dump(scene, f)


def last_job(a):
    jobs = [int(m.group(1)) for m in (re.search(r" job serial=(\d+)", l) for l in a.lines()) if m]
    return jobs[-1] if jobs else 0


def settle_all(a, timeout=30.0):
    """Waits until the newest job's picture has settled (a drag may settle
    on the way, before its last move is solved)."""
    end = time.time() + timeout
    while time.time() < end:
        s, j = a.last_settled(), last_job(a)
        if j and s >= j:
            return s
        if a.proc.poll() is not None:
            raise RuntimeError("foldray exited with %d" % a.proc.returncode)
        time.sleep(0.05)
    raise TimeoutError("job %d never settled" % last_job(a))


def model_box(a, img, x0, z0, x1, z1):
    """The screen pixels of the model box [x0, x1] × [z0, z1]."""
    sx0, sy0 = a.to_screen(x0, z0)
    sx1, sy1 = a.to_screen(x1, z1)
    return img[sy0:sy1, sx0:sx1]


def changed(a, b, tol=24):
    return (np.abs(a.astype(int) - b.astype(int)).max(axis=-1) > tol).mean()


medit = None


def t_model_open():
    global medit
    write_model_scene()
    medit = App(MODEL_SCENE, name="model")
    if not medit.find_window():
        return False, "no window"
    settle_all(medit)
    img = medit.stable_shot("30-model-opened")
    rays = int(RAY(medit.canvas(img)).sum())
    xdo("key", "ctrl+m")                     # edit the model: nodes appear
    time.sleep(0.4)
    img = medit.stable_shot("31-model-editing")
    mst["base"] = img
    nx, ny = medit.to_screen(*MODEL_NODE)
    node = near(img, nx, ny, (255, 255, 255), radius=5, tol=30)
    return rays > 50 and node, "%d ray pixels; node handle drawn %s" % (rays, node)


def t_model_drag_node():
    fx, fy = medit.to_screen(*MODEL_NODE)
    tx, ty = medit.to_screen(*MODEL_NODE_TO)
    drag(fx, fy, tx, ty, steps=12)
    settle_all(medit)
    img = medit.stable_shot("32-node-dragged")
    mst["dragged"] = img
    # Below the old interface (and above the syncline) the field keeps
    # the second layer's colour; what changes there are the isochrons.
    box = (1.8, 0.55, 2.9, 0.75)
    a, b = model_box(medit, mst["base"], *box), model_box(medit, img, *box)
    below = changed(a, b)
    colour_a = np.median(a.reshape(-1, 3), axis=0)
    colour_b = np.median(b.reshape(-1, 3), axis=0)
    same_colour = np.abs(colour_a - colour_b).max() <= 8
    moved = near(img, tx, ty, (255, 235, 51), radius=6, tol=60)
    return (below > 0.01 and same_colour and moved,
            "%.1f%% of the pixels below the interface changed; field colour %s before, %s after; "
            "selected node at its new place %s" % (100 * below, colour_a, colour_b, moved))


def t_model_undo_redo():
    # Each waits for the solve its key asks for: the last one had settled
    # already, so without that the shot could come before the key did.
    job = last_job(medit)
    xdo("key", "ctrl+z")
    wait_for(lambda: last_job(medit) > job, timeout=10.0)
    settle_all(medit)
    undone = medit.stable_shot("33-node-undone")
    tx, ty = medit.to_screen(*MODEL_NODE)
    diff = np.abs(undone.astype(int) - mst["base"].astype(int)).max(axis=-1) > 24
    diff[ty - 12: ty + 13, tx - 12: tx + 13] = False     # the selected node's highlight
    back = diff[medit.canvas_box()[1]: medit.canvas_box()[3], medit.canvas_box()[0]: medit.canvas_box()[2]].mean()
    job = last_job(medit)
    xdo("key", "ctrl+shift+z")
    wait_for(lambda: last_job(medit) > job, timeout=10.0)
    settle_all(medit)
    redone = medit.stable_shot("34-node-redone")
    again = changed(medit.canvas(redone), medit.canvas(mst["dragged"]))
    return (back < 0.002 and again < 0.002,
            "after undo %.3f%% of the canvas differs from before the drag; after redo %.3f%% from after it"
            % (100 * back, 100 * again))


def ray_z_at(a, img, x):
    """The depths of the ray pixels in the screen column of model x."""
    sx, _ = a.to_screen(x, 0.0)
    _, y0, _, y1 = a.canvas_box()
    ys = np.nonzero(RAY(img[y0:y1, sx - 1: sx + 2]).any(axis=1))[0] + y0
    return [a.to_model(sx, y)[1] for y in ys]


def t_model_polygon():
    img = medit.stable_shot()
    zs = ray_z_at(medit, img, 1.5)
    if not zs:
        return False, "no ray pixel at x = 1.5 before the obstacle"
    zr = float(np.median(zs))
    box = (1.3, max(zr - 0.15, 0.03), 1.7, min(zr + 0.15, 1.45))
    mst["box"] = box
    inside_before = int(RAY(model_box(medit, img, *box)).sum())
    xdo("key", "ctrl+g")                     # the polygon tool
    time.sleep(0.2)
    # Two vertices, then Escape: that polygon is dropped, the tool stays.
    for x, z in ((0.3, 1.2), (0.5, 1.3)):
        xdo("mousemove", *medit.to_screen(x, z))
        xdo("click", 1)
    xdo("key", "Escape")
    time.sleep(0.2)
    for x, z in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])):
        xdo("mousemove", *medit.to_screen(x, z))
        xdo("click", 1)
        time.sleep(0.1)
    job = last_job(medit)
    xdo("key", "Return")
    # The closed polygon's own solve (the one before had settled).
    wait_for(lambda: last_job(medit) > job, timeout=10.0)
    settle_all(medit)
    img = medit.stable_shot("35-polygon")
    # Leave out the outline's anti-aliased edge.
    sx0, sy0 = medit.to_screen(box[0], box[1])
    sx1, sy1 = medit.to_screen(box[2], box[3])
    inside = int(RAY(img[sy0 + 3: sy1 - 2, sx0 + 3: sx1 - 2]).sum())
    rx, ry = medit.to_screen(*MODEL_RCV2)
    sx, sy = medit.to_screen(*MODEL_SRC)
    at_rcv = int(RAY(img[ry - 15: ry + 16, rx - 15: rx + 16]).sum())
    at_src = int(RAY(img[sy - 15: sy + 16, sx - 15: sx + 16]).sum())
    total = int(RAY(medit.canvas(img)).sum())
    grey = img[sy0 + 5: sy1 - 4, sx0 + 5: sx1 - 4].reshape(-1, 3).astype(int)
    greyish = float((np.ptp(grey, axis=1) < 12).mean())
    return (inside_before > 10 and inside == 0 and at_rcv > 5 and at_src > 5 and total > 50 and greyish > 0.8,
            "ray at z = %.2f; ray pixels inside the obstacle before %d, after %d; near the receiver %d, "
            "the source %d, on the canvas %d; %.0f%% of the inside grey"
            % (zr, inside_before, inside, at_rcv, at_src, total, 100 * greyish))


def t_model_save_reopen():
    before = os.stat(MODEL_SCENE).st_mtime_ns
    xdo("key", "Escape")                     # stop editing: no handles in the picture
    time.sleep(0.3)
    xdo("key", "ctrl+s")
    end = time.time() + 10
    while time.time() < end and os.stat(MODEL_SCENE).st_mtime_ns == before:
        time.sleep(0.05)
    edited = medit.canvas(medit.stable_shot("36-saved")).copy()
    medit.quit()
    with open(MODEL_SCENE) as f:
        saved = json.load(f)
    obstacles = saved.get("obstacles", [])
    node = saved["layers"][1]["interface"][-1:]
    notes = ["saved: %d obstacle(s) %s; moved node %s" % (len(obstacles), [(o["shape"], len(o["vertices"])) for o in obstacles], node)]
    ok = (len(obstacles) == 1 and obstacles[0]["shape"] == "polygon" and len(obstacles[0]["vertices"]) == 4
          and len(node) == 1 and abs(node[0][1] - MODEL_NODE_TO[1]) < 0.02)
    fresh = App(MODEL_SCENE, name="model-reopened")
    try:
        if not fresh.find_window():
            return False, "no window"
        settle_all(fresh)
        img = fresh.canvas(fresh.stable_shot("37-reopened"))
    finally:
        fresh.quit()
    if img.shape != edited.shape:
        return False, "canvas sizes differ: %s vs %s" % (img.shape, edited.shape)
    frac = changed(img, edited, tol=40)
    notes.append("%.3f%% of the canvas pixels differ from the edited window's" % (100 * frac))
    return ok and frac < 0.003, "\n".join(notes)


for name, fn in [
    ("model: a scene file opens; Ctrl+M shows the interface nodes", t_model_open),
    ("model: dragging an interface node changes the isochrons below it, not the colour there", t_model_drag_node),
    ("model: Ctrl+Z and Ctrl+Shift+Z undo and redo the node drag", t_model_undo_redo),
    ("model: a polygon obstacle across the ray; the ray goes around it to the receiver", t_model_polygon),
    ("model: Ctrl+S saves the scene; reopened, it draws the same canvas", t_model_save_reopen),
]:
    if not check(name, fn) and fn is t_model_open:
        break
if medit is not None:
    medit.quit()


# ------------------------------------------------------------------ session 4
# Scene files: save, examples, opening and quitting with unsaved edits, and
# the autosave of two instances at once.  Each check reads the window title
# (xdotool getwindowname) and the files written.
FILES = os.path.join(OUT, "files")
shutil.rmtree(FILES, ignore_errors=True)
os.makedirs(FILES)
FILES_ENV = {"FOLDRAY_STATE_DIR": os.path.join(FILES, "state"), "FOLDRAY_RECOVER": "no"}
fst = {}
fapp = None


def files_scene(name):
    root = os.environ.get("FOLDRAY_SOURCE_ROOT",
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    path = os.path.join(FILES, name)
    shutil.copy(os.path.join(root, "data", "scenes", "three-layer.json"), path)
    return path


def n_sources(path):
    with open(path) as f:
        return len(json.load(f)["sources"])


def autosaves(state=None):
    """The autosave files (not their .lock files) in the state folder."""
    state = state or FILES_ENV["FOLDRAY_STATE_DIR"]
    return sorted(f for f in os.listdir(state) if f.startswith("autosave") and f.endswith(".json")) \
        if os.path.isdir(state) else []


def autosave_of(pid, state=None):
    """The autosave file of the instance with this pid (autosave-PID-ID.json), or None."""
    mine = [f for f in autosaves(state) if f.startswith("autosave-%d-" % pid)]
    return mine[0] if mine else None


def window_shown(name):
    """Whether a window titled name is on the screen (a file chooser)."""
    return run("xdotool", "search", "--onlyvisible", "--name", name, check=False).stdout.strip() != ""


def windows_of(a):
    """The visible windows of a's process: its main one, dialogs."""
    return run("xdotool", "search", "--onlyvisible", "--pid", str(a.proc.pid), check=False).stdout.split()


def place_source(a, x, z):
    xdo("mousemove", *a.to_screen(x, z))
    xdo("click", 1)
    return a.wait_title(lambda t: t.startswith("• "))


def t_files_click_modifies():
    global fapp
    fst["s1"] = files_scene("s1.json")
    fst["n0"] = n_sources(fst["s1"])
    fapp = App(fst["s1"], name="files", env=FILES_ENV)
    if not fapp.find_window():
        return False, "no window"
    settle_all(fapp)
    before = fapp.title()
    after = place_source(fapp, 1.0, 1.2)
    saved = wait_for(lambda: autosave_of(fapp.proc.pid) is not None, timeout=10.0)
    fapp.stable_shot("40-files-placed")
    # The owner's alone, whatever the umask (it was 0644).
    mode = os.stat(os.path.join(FILES_ENV["FOLDRAY_STATE_DIR"], autosave_of(fapp.proc.pid))).st_mode \
        if saved else 0
    return (before == "s1.json — Foldray" and after == "• s1.json — Foldray" and saved
            and mode & 0o777 == 0o600,
            "title before %r, after the click %r; autosave files %s, mode %o"
            % (before, after, autosaves(), mode & 0o777))


def t_files_save_twice():
    notes = []
    for i, (x, z) in enumerate(((None, None), (2.0, 1.2))):
        if x is not None:
            place_source(fapp, x, z)
        mtime = os.stat(fst["s1"]).st_mtime_ns
        xdo("key", "ctrl+s")
        wait_for(lambda: os.stat(fst["s1"]).st_mtime_ns != mtime)
        title = fapp.wait_title(lambda t: t == "s1.json — Foldray")
        notes.append("save %d: title %r, %d sources in the file, autosaves %s"
                     % (i + 1, title, n_sources(fst["s1"]), autosaves()))
    fapp.stable_shot("41-files-saved-twice")
    strays = [f for f in os.listdir(FILES) if f not in ("s1.json", "state")]
    notes.append("other files beside it: %s" % strays)
    return (n_sources(fst["s1"]) == fst["n0"] + 2 and title == "s1.json — Foldray"
            and not autosaves() and not strays, "\n".join(notes))


def t_files_undo_to_saved():
    """Undoing back to the saved scene clears the title's • and the
    autosave; redo brings both back (the • stayed, and closing asked to
    save a scene with no changes)."""
    notes = []
    place_source(fapp, 1.5, 0.9)
    saved = wait_for(lambda: autosave_of(fapp.proc.pid) is not None, timeout=10.0)
    mine = autosave_of(fapp.proc.pid)
    notes.append("after a click: %r, autosave %s" % (fapp.title(), saved))
    xdo("key", "ctrl+z")
    undone = fapp.wait_title(lambda t: t == "s1.json — Foldray")
    gone = wait_for(lambda: mine not in autosaves(), timeout=5.0)
    notes.append("undone: %r, autosave gone %s" % (undone, gone))
    xdo("key", "ctrl+shift+z")
    redone = fapp.wait_title(lambda t: t.startswith("• "))
    xdo("key", "ctrl+z")
    again = fapp.wait_title(lambda t: t == "s1.json — Foldray")
    notes.append("redone: %r; undone again: %r" % (redone, again))
    # Leave the last source selected, as the next case expects.
    xdo("mousemove", *fapp.to_screen(2.0, 1.2))
    xdo("click", 1)
    time.sleep(0.5)
    return (saved and undone == "s1.json — Foldray" and gone and redone == "• s1.json — Foldray"
            and again == "s1.json — Foldray" and n_sources(fst["s1"]) == fst["n0"] + 2,
            "\n".join(notes))


def t_files_delete_in_entry():
    # The source placed last is selected; Delete and Ctrl+Z in the Radius
    # field must edit the text, not delete the source or undo its placing.
    sx, sy = fapp.to_screen(2.0, 1.2)
    xdo("mousemove", fapp.wx + 962, fapp.wy + 144)     # the side panel's Radius field (x)
    xdo("click", 1)
    xdo("key", "Home")
    xdo("key", "Delete")
    xdo("key", "ctrl+z")      # the field's own undo, not the scene's
    time.sleep(1.0)
    settle_all(fapp)
    img = fapp.stable_shot("42-files-delete-in-entry")
    title = fapp.title()
    still = near(img, sx, sy, SOURCE_RGB, radius=6)
    xdo("key", "ctrl+a")      # the scene's own radius back: unchanged, not modified
    xdo("type", "5")
    xdo("key", "Tab")
    return (still and title == "s1.json — Foldray",
            "source still drawn %s; title %r" % (still, title))


# Window-relative spots in the header bar (the window is GEOMETRY wide).
MENU_BUTTON = (1045, 27)
UNDO_BUTTON = (240, 27)


def click_at(a, spot):
    xdo("mousemove", a.wx + spot[0], a.wy + spot[1])
    xdo("click", 1)


def open_example(key):
    # Clicked, not F10: without a window manager the keyboard focus does
    # not come back to the window after a dialog.
    click_at(fapp, MENU_BUTTON)               # the primary menu, then Examples
    time.sleep(0.5)
    xdo("key", "x")
    time.sleep(0.5)
    xdo("key", key)


def t_files_example_untitled():
    data = open(fst["s1"], "rb").read()
    open_example("t")                         # Three Layers
    title = fapp.wait_title(lambda t: "s1.json" not in t)
    settle_all(fapp)
    click_at(fapp, MENU_BUTTON)               # ☰ → Save Scene (what Ctrl+S does)
    time.sleep(0.5)
    xdo("key", "s")
    chooser = wait_for(lambda: window_shown("Save Scene"), timeout=5.0)
    time.sleep(0.5)
    screenshot("43-files-example-ctrl-s")
    if chooser:
        xdo("key", "Escape")
        time.sleep(0.5)
    same = open(fst["s1"], "rb").read() == data
    return (title == "three-layer — Foldray" and chooser and same,
            "title %r; Save asked for a name %s; s1.json untouched %s" % (title, chooser, same))


def t_files_open_asks():
    dirty = place_source(fapp, 1.0, 1.2)
    open_example("g")                         # Gradient: the question comes first
    time.sleep(1.5)
    screenshot("44-files-open-asks")
    kept = fapp.title()
    xdo("key", "Escape")                      # Cancel: the edits stay
    time.sleep(0.5)
    cancelled = fapp.title()
    open_example("g")
    time.sleep(1.0)
    xdo("key", "alt+d")                       # Discard Changes
    opened = fapp.wait_title(lambda t: not t.startswith("• "))
    settle_all(fapp)
    fapp.stable_shot("45-files-opened-after-discard")
    click_at(fapp, UNDO_BUTTON)               # nothing of the old scene to undo
    time.sleep(0.5)
    undo = fapp.title()
    return (dirty.startswith("• ") and kept == dirty and cancelled == dirty
            and opened == "gradient — Foldray" and undo == opened,
            "dirty %r; after choosing Gradient %r; after Cancel %r; after Discard %r; after Undo %r"
            % (dirty, kept, cancelled, opened, undo))


def t_files_quit_asks():
    fapp.quit()
    s2 = files_scene("s2.json")
    n0 = n_sources(s2)
    a = App(s2, name="files-quit", env=FILES_ENV)
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        dirty = place_source(a, 1.0, 1.2)
        xdo("key", "ctrl+q")
        time.sleep(1.5)
        screenshot("46-files-quit-asks")
        alive = a.proc.poll() is None
        xdo("key", "Return")                  # the default answer: Save
        try:
            a.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        gone = a.proc.poll() is not None
        # The window went while the question's answer was being handled:
        # the dialog, transient for it, used it after it was freed.
        bad = a.bad_stderr()
        return (dirty.startswith("• ") and alive and gone and n_sources(s2) == n0 + 1 and not bad,
                "title %r; still running after Ctrl+Q %s; quit after Save %s; sources in the file %d "
                "(was %d); %d bad stderr lines %s"
                % (dirty, alive, gone, n_sources(s2), n0, len(bad), bad[:2]))
    finally:
        a.quit()


def save_as_typed(a, path):
    """☰ → Save Scene As…, the whole path typed into the chooser's name."""
    click_at(a, MENU_BUTTON)
    time.sleep(0.5)
    xdo("key", "a")
    shown = wait_for(lambda: window_shown("Save Scene"), timeout=5.0)
    time.sleep(0.5)
    xdo("key", "ctrl+a")
    xdo("type", path)
    xdo("key", "Return")
    return shown


def t_files_save_as_adds_json():
    """Save As with a name without .json saves NAME.json (scenes are opened
    by that ending); when NAME.json exists, the chooser never asked about
    it, so nothing is replaced and a dialog says why."""
    d = os.path.join(FILES, "save-as")
    os.makedirs(d, exist_ok=True)
    env = dict(FILES_ENV, FOLDRAY_STATE_DIR=os.path.join(FILES, "state-save-as"))
    a = App("--clear", name="files-save-as", env=env)
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        shown = save_as_typed(a, os.path.join(d, "noext"))
        saved = wait_for(lambda: os.path.exists(os.path.join(d, "noext.json")))
        title = a.wait_title(lambda t: "noext" in t)
        with open(os.path.join(d, "other.json"), "w") as f:
            f.write("keep me")
        save_as_typed(a, os.path.join(d, "other"))
        # The chooser closes, then the error dialog is the window beside
        # the main one.
        wait_for(lambda: not window_shown("Save Scene"), timeout=5.0)
        dialog = wait_for(lambda: len(windows_of(a)) > 1, timeout=5.0)
        time.sleep(0.5)
        screenshot("48-files-save-as-exists")
        kept = open(os.path.join(d, "other.json")).read() == "keep me"
        names = sorted(os.listdir(d))
        return (shown and saved and title == "noext.json — Foldray" and dialog and kept
                and names == ["noext.json", "other.json"],
                "chooser shown %s; noext.json written %s; title %r; other.json kept %s, refused "
                "in a dialog %s; files %s" % (shown, saved, title, kept, dialog, names))
    finally:
        a.quit()


def t_files_save_as_proposes_own_file():
    """Save As starts at the scene's own folder and name (it offered
    scene.json in the folder the app was started from).  The file is
    moved away first, so that Return in the chooser saves without a
    question, to where the chooser proposed."""
    d = os.path.join(FILES, "save-as-own")
    os.makedirs(d, exist_ok=True)
    own = os.path.join(d, "own.json")
    shutil.copy(files_scene("s7.json"), own)
    env = dict(FILES_ENV, FOLDRAY_STATE_DIR=os.path.join(FILES, "state-save-as-own"))
    a = App(own, name="files-save-as-own", env=env)
    try:
        if not a.find_window(name="own.json"):
            return False, "no window"
        settle_all(a)
        os.rename(own, os.path.join(d, "moved.json"))
        xdo("key", "ctrl+shift+s")
        shown = wait_for(lambda: window_shown("Save Scene"), timeout=5.0)
        time.sleep(1.0)
        screenshot("48b-files-save-as-own")
        xdo("key", "Return")
        saved = wait_for(lambda: os.path.exists(own))
        names = sorted(os.listdir(d))
        stray = [n for n in ("scene.json",) if os.path.exists(os.path.join(os.getcwd(), n))]
        return (shown and saved and names == ["moved.json", "own.json"] and not stray,
                "chooser shown %s; own.json written again %s; files %s; stray %s"
                % (shown, saved, names, stray))
    finally:
        a.quit()


def t_files_two_instances():
    env = dict(FILES_ENV, FOLDRAY_STATE_DIR=os.path.join(FILES, "state2"))
    a1 = App(files_scene("s3.json"), name="files-first", env=env)
    apps = [a1]
    try:
        if not a1.find_window(name="s3.json"):
            return False, "no first window"
        settle_all(a1)
        place_source(a1, 1.0, 1.2)
        if not wait_for(lambda: autosave_of(a1.proc.pid, env["FOLDRAY_STATE_DIR"]) is not None, timeout=10.0):
            return False, "the first instance (pid %d) wrote no autosave" % a1.proc.pid
        first = autosave_of(a1.proc.pid, env["FOLDRAY_STATE_DIR"])
        a2 = App(files_scene("s4.json"), name="files-second", env=dict(env, FOLDRAY_RECOVER="yes"))
        apps.append(a2)
        if not a2.find_window(name="s4.json"):
            return False, "no second window"
        settle_all(a2)
        time.sleep(1.5)                       # the recovery check runs when idle
        second = a2.title()
        kept = autosaves(env["FOLDRAY_STATE_DIR"])
        a2.quit()
        a1.proc.kill()                        # a crash: its autosave stays behind
        a1.proc.wait(10)
        a3 = App(files_scene("s5.json"), name="files-third", env=dict(env, FOLDRAY_RECOVER="yes"))
        apps.append(a3)
        if not a3.find_window(name="Foldray"):
            return False, "no third window"
        third = a3.wait_title(lambda t: t.startswith("• "))
        settle_all(a3)
        a3.stable_shot("47-files-recovered")
        after = autosaves(env["FOLDRAY_STATE_DIR"])
        return (second == "s4.json — Foldray" and first in kept and third.startswith("• ")
                and first not in after,
                "second instance's title %r with the first running (autosaves %s); after the first "
                "crashed, a third's title %r (autosaves %s)" % (second, kept, third, after))
    finally:
        for a in apps:
            a.quit()


def orphan_of(state, name, scene_path, extra_source):
    """Leaves what a crashed instance leaves: name.json, the three-layer
    scene with one more source, and name.lock recording scene_path."""
    os.makedirs(state, exist_ok=True)
    with open(scene_path) as f:
        scene = json.load(f)
    scene["sources"].append(list(extra_source))
    with open(os.path.join(state, name + ".json"), "w") as f:
        json.dump(scene, f)
    with open(os.path.join(state, name + ".lock"), "w") as f:
        f.write(os.path.abspath(scene_path))
    return os.path.join(state, name + ".json")


def t_files_recovery_escape_keeps():
    """Escape on "Recover the unsaved changes?" is "not now": the autosave
    stays and the next start offers it again (Escape deleted it for good).
    Recovered, the scene is its own file again: the title names it and
    Ctrl+S writes it (it was untitled, and Save As proposed scene.json)."""
    state = os.path.join(FILES, "state3")
    s6 = files_scene("s6.json")
    n0 = n_sources(s6)
    orphan = orphan_of(state, "autosave-7-0000beef", s6, (2.0, 1.0))
    env = {"FOLDRAY_STATE_DIR": state, "FOLDRAY_RECOVER": "ask"}   # the tests' default is "no"
    a = App(name="files-recovery-asks", env=env)
    try:
        if not a.find_window():
            return False, "no window"
        asked = wait_for(lambda: len(windows_of(a)) >= 2, timeout=10.0)
        screenshot("47a-files-recovery-asks")
        # A second instance started while the question is open does not
        # ask too: one's Discard would delete what the other recovers.
        other = App(name="files-recovery-offered", env=env)
        try:
            other_up = other.find_window()
            settle_all(other)
            time.sleep(1.5)                   # the recovery check runs when idle
            other_windows = len(windows_of(other))
        finally:
            other.quit()
        for w in windows_of(a):              # the question has the focus again
            if w != a.win:
                xdo("windowfocus", "--sync", w)
        xdo("key", "Escape")
        time.sleep(1.0)
        kept = os.path.exists(orphan) and os.path.exists(orphan[:-5] + ".lock")
    finally:
        a.quit()
    b = App(name="files-recovered-own-file", env=dict(env, FOLDRAY_RECOVER="yes"))
    try:
        if not b.find_window():
            return False, "no window on the second start"
        title = b.wait_title(lambda t: t.startswith("• "))
        settle_all(b)
        xdo("key", "ctrl+s")
        saved_title = b.wait_title(lambda t: t == "s6.json — Foldray")
        left = os.listdir(state)
    finally:
        b.quit()
    n = n_sources(s6)
    return (asked and other_up and other_windows == 1 and kept and title == "• s6.json — Foldray"
            and saved_title == "s6.json — Foldray" and n == n0 + 1 and left == [],
            "question shown %s; a second instance meanwhile up %s with %d windows (1: not asked); "
            "after Escape the autosave kept %s; recovered as %r, after Ctrl+S %r "
            "with %d sources (was %d); left in the state folder %s"
            % (asked, other_up, other_windows, kept, title, saved_title, n, n0, left))


def t_files_recovery_by_lock():
    """An autosave belongs to whoever holds its lock, not to whichever
    process has its pid: one whose lock is held is not offered, and once
    it is free it is, even under a pid that runs (pid 1; in a sandbox every
    start may be pid 1, and such an autosave was deleted as the new
    instance's own)."""
    import fcntl
    state = os.path.join(FILES, "state4")
    s7 = files_scene("s7.json")
    orphan = orphan_of(state, "autosave-1-0000cafe", s7, (2.5, 1.0))
    env = {"FOLDRAY_STATE_DIR": state, "FOLDRAY_RECOVER": "yes"}
    holder = open(orphan[:-5] + ".lock", "a")
    fcntl.flock(holder, fcntl.LOCK_EX)
    a = App(s7, name="files-lock-held", env=env)
    try:
        if not a.find_window(name="s7.json"):
            return False, "no window"
        settle_all(a)
        time.sleep(1.5)                       # the recovery check runs when idle
        held_title = a.title()
        held_kept = os.path.exists(orphan)
    finally:
        a.quit()
        holder.close()                        # the owner is gone
    b = App(s7, name="files-lock-free", env=env)
    try:
        if not b.find_window():
            return False, "no window on the second start"
        free_title = b.wait_title(lambda t: t.startswith("• "))
    finally:
        b.quit()
    return (held_title == "s7.json — Foldray" and held_kept and free_title == "• s7.json — Foldray",
            "lock held: title %r, autosave kept %s; lock free: title %r"
            % (held_title, held_kept, free_title))


def t_files_recovery_write_fails():
    """Recovering while writes fail (a file size limit the autosave is over,
    as on a full disk): the autosave keeps the recovered edits through the
    recovery and the quit, its lock still names the scene file, and it is
    no recent file.  Recovery opened it as a scene, which removed it before
    writing it anew, so the edits were left in memory alone; and it went
    into Recent Files."""
    state = os.path.join(FILES, "state6")
    s13 = files_scene("s13.json")
    orphan = orphan_of(state, "autosave-1-0000f11e", s13, (2.0, 0.8))
    with open(orphan) as f:
        scene = json.load(f)
    scene["title"] = "x" * 100000          # an autosave over the 64 KiB limit below
    with open(orphan, "w") as f:
        json.dump(scene, f)
    with open(orphan, "rb") as f:
        before = f.read()
    data = os.path.join(FILES, "data6")      # Recent Files' folder
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    limited = os.path.join(FILES, "foldray-fsize-64k")
    with open(limited, "w") as f:
        f.write("#!/bin/sh\nexec prlimit --fsize=65536 %s \"$@\"\n" % EXE)
    os.chmod(limited, 0o755)
    env = {"FOLDRAY_STATE_DIR": state, "FOLDRAY_RECOVER": "yes", "XDG_DATA_HOME": data}
    a = App(name="files-recovery-write-fails", env=env, exe=limited)
    try:
        if not a.find_window():
            return False, "no window"
        title = a.wait_title(lambda t: t.startswith("• "))
        refused = wait_for(lambda: any(" autosave bar shown" in l for l in a.lines()), timeout=15.0)
        during = autosaves(state)
    finally:
        a.quit()
    after = autosaves(state)
    kept = len(after) == 1
    if kept:
        with open(os.path.join(state, after[0]), "rb") as f:
            kept = f.read() == before
        with open(os.path.join(state, after[0][:-5] + ".lock")) as f:
            lock = f.read()
    else:
        lock = None
    recent = os.path.join(data, "recently-used.xbel")
    listed = os.path.exists(recent) and "autosave" in open(recent).read()
    return (title == "• s13.json — Foldray" and refused and len(during) == 1 and kept
            and lock == os.path.abspath(s13) and not listed,
            "recovered as %r, its rewrite refused %s; autosaves during %s, after quitting %s, "
            "bytes kept %s, lock %r; the autosave a recent file %s"
            % (title, refused, during, after, kept, lock, listed))


def t_files_sigterm_autosaves():
    """SIGTERM (a logout) right after an edit, before the 5 s autosave:
    the edit is written before the app quits (it was lost)."""
    import signal
    state = os.path.join(FILES, "state5")
    s8 = files_scene("s8.json")
    n0 = n_sources(s8)
    a = App(s8, name="files-sigterm", env={"FOLDRAY_STATE_DIR": state, "FOLDRAY_RECOVER": "no"})
    try:
        if not a.find_window(name="s8.json"):
            return False, "no window"
        settle_all(a)
        dirty = place_source(a, 2.2, 1.1)
        a.proc.send_signal(signal.SIGTERM)
        try:
            rc = a.proc.wait(10)
        except subprocess.TimeoutExpired:
            rc = None
    finally:
        a.quit()
    saved = autosaves(state)
    n = n_sources(os.path.join(state, saved[0])) if saved else -1
    return (dirty.startswith("• ") and rc == 0 and len(saved) == 1 and n == n0 + 1,
            "title %r; exit %s; autosaves %s with %d sources (the scene had %d)" % (dirty, rc, saved, n, n0))


def t_files_changed_on_disk():
    """Another program rewrites the open scene: Ctrl+S asks before
    replacing it (its changes were overwritten without a word); Escape
    keeps the other program's file, Replace writes the app's."""
    s9 = files_scene("s9.json")
    n0 = n_sources(s9)
    a = App(s9, name="files-changed-on-disk", env=FILES_ENV)
    try:
        if not a.find_window(name="s9.json"):
            return False, "no window"
        settle_all(a)
        with open(s9) as f:
            other = json.load(f)
        other["title"] = "written by another program"
        with open(s9, "w") as f:
            json.dump(other, f)
        place_source(a, 2.2, 1.1)
        xdo("key", "ctrl+s")
        asked = wait_for(lambda: len(windows_of(a)) >= 2, timeout=5.0)
        time.sleep(0.5)                       # drawn, for the screenshot
        screenshot("47b-files-changed-on-disk")
        xdo("key", "Escape")
        time.sleep(0.8)
        with open(s9) as f:
            kept = json.load(f)["title"] == "written by another program"
        still = a.title()
        xdo("key", "ctrl+s")
        asked_again = wait_for(lambda: len(windows_of(a)) >= 2, timeout=5.0)
        xdo("key", "alt+r")                   # Replace
        saved = a.wait_title(lambda t: t == "s9.json — Foldray")
        n = n_sources(s9)
        # Saved now: the next Ctrl+S asks nothing.
        place_source(a, 2.4, 1.1)
        xdo("key", "ctrl+s")
        plain = a.wait_title(lambda t: t == "s9.json — Foldray")
        quiet = len(windows_of(a)) == 1
    finally:
        a.quit()
    return (asked and kept and still.startswith("• ") and asked_again and saved == "s9.json — Foldray"
            and n == n0 + 1 and plain == "s9.json — Foldray" and quiet and n_sources(s9) == n0 + 2,
            "asked %s; after Escape the other program's file kept %s, title %r; asked again %s; "
            "after Replace %r with %d sources (was %d); a later Ctrl+S asked nothing %s (%r)"
            % (asked, kept, still, asked_again, saved, n, n0, quiet, plain))


EXPORT_BUTTON = (978, 27)


def export_to(a, key, out):
    """Export → the item whose mnemonic is key, with the whole path typed
    into the chooser; whether the chooser showed."""
    click_at(a, EXPORT_BUTTON)
    time.sleep(0.5)
    xdo("key", key)
    shown = wait_for(lambda: window_shown("Export"), timeout=5.0)
    time.sleep(0.5)
    xdo("key", "ctrl+a")
    xdo("type", out)
    xdo("key", "Return")
    return shown


def t_files_export_waits_for_solve():
    """Traveltimes exported while the edit's solve runs are the edited
    scene's: the export waits for it (the previous scene's T was written
    beside the new velocities, without a word).  Every solve starts 3 s
    late (FOLDRAY_DEBUG_SOLVE_DELAY_MS), so the export is asked for while
    it runs; the T written has 0 at the source just placed."""
    s10 = files_scene("s10.json")
    out = os.path.join(FILES, "during-T.npy")
    a = App(s10, name="files-export-waits", env=dict(FILES_ENV, FOLDRAY_DEBUG_SOLVE_DELAY_MS="3000"))
    try:
        if not a.find_window(name="s10.json"):
            return False, "no window"
        settle_all(a, timeout=60)
        place_source(a, 2.0, 0.6)
        shown = export_to(a, "t", out)        # _Traveltimes (.npy)…
        asked = time.time()
        written = wait_for(lambda: os.path.exists(out), timeout=30.0)
        waited = any(" export waits" in l for l in a.lines())
        took = time.time() - asked
    finally:
        a.quit()
    if not written:
        return False, "chooser shown %s; no %s written" % (shown, out)
    T = np.load(out)
    t_source = float(T[60, 200])
    return (shown and waited and t_source == 0.0,
            "chooser shown %s; the export waited for the solve %s (written %.1f s after Enter); "
            "T at the new source (2, 0.6) %g" % (shown, waited, took, t_source))


def t_files_autosave_fails_said():
    """An autosave that cannot be written is said in a bar over the
    picture, not on stderr alone (the state folder here lies under a
    plain file, so it cannot be made, even as root); saving the scene
    takes the bar away."""
    s12 = files_scene("s12.json")
    blocker = os.path.join(FILES, "not-a-folder")
    with open(blocker, "w") as f:
        f.write("a file where the state folder's parent should be\n")
    env = dict(FILES_ENV, FOLDRAY_STATE_DIR=os.path.join(blocker, "state"))
    a = App(s12, name="files-autosave-fails", env=env)
    try:
        if not a.find_window(name="s12.json"):
            return False, "no window"
        settle_all(a)
        before = a.stable_shot()
        place_source(a, 2.2, 0.9)
        shown = wait_for(lambda: any(" autosave bar shown" in l for l in a.lines()), timeout=15.0)
        time.sleep(0.5)
        during = a.stable_shot("47d-files-autosave-fails")
        # The bar sits over the bottom of the picture: those rows changed.
        x0, y0, x1, y1 = a.canvas_box()
        h = y1 - y0
        band = lambda img: img[y0 + h - 80:y1, x0 + 20:x1 - 20].astype(int)
        changed = float((np.abs(band(during) - band(before)).max(axis=-1) > 40).mean())
        xdo("key", "ctrl+s")
        hidden = wait_for(lambda: any(" autosave bar hidden" in l for l in a.lines()), timeout=10.0)
        bad = a.bad_stderr()
    finally:
        a.quit()
    autosave_warned = any("autosave" in l for l in bad)
    others = [l for l in bad if "autosave" not in l]
    return (shown and changed > 0.2 and hidden and not others,
            "bar shown %s (%.0f %% of the picture's bottom rows changed), hidden after Ctrl+S %s; "
            "the stderr warning too %s; other bad stderr %s"
            % (shown, 100 * changed, hidden, autosave_warned, others[:2]))


def t_files_quit_while_export_waits():
    """Ctrl+Q while an export waits for the solve asks first (the export
    was dropped without a word and the app quit): Cancel keeps the app,
    and the export is then written; a later Ctrl+Q goes on to the save
    question, whose Close without Saving quits."""
    s11 = files_scene("s11.json")
    out = os.path.join(FILES, "quit-T.npy")
    a = App(s11, name="files-quit-export", env=dict(FILES_ENV, FOLDRAY_DEBUG_SOLVE_DELAY_MS="4000"))
    try:
        if not a.find_window(name="s11.json"):
            return False, "no window"
        settle_all(a, timeout=60)
        place_source(a, 2.0, 0.6)
        export_to(a, "t", out)
        waits = wait_for(lambda: any(" export waits" in l for l in a.lines()), timeout=5.0)
        xdo("key", "ctrl+q")
        asked = wait_for(lambda: window_shown("Foldray") and len(windows_of(a)) >= 2, timeout=5.0)
        time.sleep(0.5)
        screenshot("47c-files-quit-export-waits")
        not_yet = not os.path.exists(out)
        xdo("key", "Escape")                  # Cancel
        written = wait_for(lambda: os.path.exists(out), timeout=30.0)
        alive = a.proc.poll() is None
        xdo("key", "ctrl+q")
        saving = wait_for(lambda: len(windows_of(a)) >= 2, timeout=5.0)
        xdo("key", "alt+w")                   # Close _without Saving
        try:
            a.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        gone = a.proc.poll() == 0
        bad = a.bad_stderr()
    finally:
        a.quit()
    return (waits and asked and not_yet and written and alive and saving and gone and not bad,
            "export waited %s; Ctrl+Q asked %s before it was written %s; after Cancel written %s, "
            "running %s; then the save question %s and quit with 0 %s; bad stderr %s"
            % (waits, asked, not_yet, written, alive, saving, gone, bad[:2]))


def background_grid(d, stem="bg"):
    """d/stem.npy, 30 × 40 nodes of 2.0 with a sidecar (spacing 0.05);
    its bytes."""
    os.makedirs(d, exist_ok=True)
    npy = os.path.join(d, stem + ".npy")
    np.save(npy, np.full((30, 40), 2.0, np.float32))
    with open(os.path.join(d, stem + ".json"), "w") as f:
        json.dump({"spacing": [0.05, 0.05]}, f)
    with open(npy, "rb") as f:
        return npy, f.read()


def t_files_export_over_background():
    """Export → Velocity (.npy) onto the grid the model was opened from is
    refused in a dialog, after the chooser's own Replace, and the grid is
    kept: it was replaced by the export, so the scene would reopen over
    another model.  And --export-on-idle into a folder where T.npy is a
    symbolic link to a scene's background writes everything but T.npy,
    says why, and exits 1."""
    d = os.path.join(FILES, "export-over-background")
    shutil.rmtree(d, ignore_errors=True)
    npy, before = background_grid(d)
    a = App(npy, name="files-export-over-bg", env=FILES_ENV)
    try:
        if not a.find_window(name="bg.npy"):
            return False, "no window"
        settle_all(a)
        windows = len(windows_of(a))
        shown = export_to(a, "v", npy)         # _Velocity (.npy)…
        # The chooser asks before replacing a file, in a window of its
        # own beside the chooser's; its Replace once it shows.
        asked = wait_for(lambda: len(windows_of(a)) >= windows + 2, timeout=10.0)
        time.sleep(0.5)
        xdo("key", "alt+r")
        dialog = wait_for(lambda: not window_shown("Export") and len(windows_of(a)) > windows,
                          timeout=10.0)
        time.sleep(0.5)
        screenshot("47e-files-export-over-background")
        kept = open(npy, "rb").read() == before
        bad = a.bad_stderr()
    finally:
        a.quit()

    # A scene elsewhere, its background named by a link in the export folder.
    src = os.path.join(d, "scene")
    out = os.path.join(d, "out")
    bg, bg_before = background_grid(src, "model")
    with open(files_scene("s-export-bg.json")) as f:
        scene = json.load(f)
    scene.update({"grid": {"nx": 40, "nz": 30, "spacing": [0.05, 0.05], "origin": [0, 0]},
                  "background": {"path": "model.npy", "format": "npy"}, "layers": [],
                  "obstacles": [], "sources": [[1.0, 0.0]], "receivers": [[0.5, 0.0]]})
    scene_path = os.path.join(src, "s.json")
    with open(scene_path, "w") as f:
        json.dump(scene, f)
    os.makedirs(out)
    os.symlink(bg, os.path.join(out, "T.npy"))
    b = App(scene_path, "--export-on-idle", out, name="files-export-over-bg-idle", env=FILES_ENV)
    rc = b.wait_exit()
    with open(b.stderr_path) as f:
        err = f.read()
    said = "is this model\u2019s background grid" in err and "T.npy" in err
    link_kept = os.path.islink(os.path.join(out, "T.npy")) and open(bg, "rb").read() == bg_before
    names = sorted(os.listdir(out))
    others = [n for n in ("T.vti", "velocity.npy", "rays.csv") if n in names]
    return (shown and asked and dialog and kept and not bad and rc == 1 and said and link_kept
            and len(others) == 3,
            "chooser shown %s, asked to replace %s; refused in a dialog %s; grid kept %s; bad "
            "stderr %s; --export-on-idle exit %s, said %s, link and background kept %s, files %s"
            % (shown, asked, dialog, kept, bad[:2], rc, said, link_kept, names))


for name, fn in [
    ("files: a click places a source, the title shows • and an autosave follows", t_files_click_modifies),
    ("files: Ctrl+S twice writes the scene's file both times and keeps its name", t_files_save_twice),
    ("files: undoing back to the saved scene clears • and the autosave", t_files_undo_to_saved),
    ("files: Delete and Ctrl+Z in the Radius field edit the text, not the scene", t_files_delete_in_entry),
    ("files: an example opens untitled, so Save asks for a name", t_files_example_untitled),
    ("files: opening another scene with unsaved edits asks first; nothing left to undo", t_files_open_asks),
    ("files: Ctrl+Q with unsaved edits asks, and Save writes the file before quitting", t_files_quit_asks),
    ("files: a second instance keeps its own autosave; a crashed one's is recovered", t_files_two_instances),
    ("files: Escape keeps an autosave for next time; recovered, it is its scene's file again",
     t_files_recovery_escape_keeps),
    ("files: an autosave whose lock is held is not offered; once free it is, whatever its pid",
     t_files_recovery_by_lock),
    ("files: recovered while its rewrite fails, an autosave keeps the edits and names its scene",
     t_files_recovery_write_fails),
    ("files: SIGTERM right after an edit autosaves it before quitting", t_files_sigterm_autosaves),
    ("files: Ctrl+S asks before replacing a scene another program rewrote", t_files_changed_on_disk),
    ("files: traveltimes exported during a solve are the edited scene's", t_files_export_waits_for_solve),
    ("files: Ctrl+Q while an export waits for the solve asks first; Cancel lets it be written",
     t_files_quit_while_export_waits),
    ("files: an export onto the scene's background grid is refused, the grid kept",
     t_files_export_over_background),
    ("files: an autosave that cannot be written is said over the picture until a save",
     t_files_autosave_fails_said),
    ("files: Save As adds .json to a name without it, and replaces nothing unasked", t_files_save_as_adds_json),
    ("files: Save As proposes the scene's own folder and name", t_files_save_as_proposes_own_file),
]:
    if not check(name, fn) and fn is t_files_click_modifies:
        break
if fapp is not None:
    fapp.quit()


# ------------------------------------------------------------------ session 6
# The model panel's grid rows at any scale: a scene at a spacing of 1e-5
# and one in metres show their Extent and Spacing whole (read back through
# the clipboard, and by the fields' pixels), visiting the fields edits
# nothing, and a click on + of one axis changes that axis only.  And a
# scene with receivers outside its grid is refused with a dialog, not
# opened with them moved onto the edge.
GRID_DIR = os.path.join(OUT, "grid")
shutil.rmtree(GRID_DIR, ignore_errors=True)
os.makedirs(GRID_DIR)
# Window-relative places in the model panel (see 60-grid-tiny.png): the
# rows, the text of the x and z fields up to their − buttons, their +.
GRID_ROWS = {"extent": 300, "nodes": 340, "spacing": 380}
GRID_TEXT = {"x": (930, 982), "z": (1060, 1112)}
GRID_PLUS = {"x": 1034, "z": 1164}
GRID_QUIET = (400, 600)                  # the canvas below the model
gst = {}
gapp = None


def clipboard_text(timeout=3.0):
    """The X CLIPBOARD as text (what Ctrl+C in a field copied), read with
    Xlib through ctypes: the tests need no clipboard tool."""
    import ctypes
    import ctypes.util
    x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    ptr, ulong, cint = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int
    x.XOpenDisplay.restype, x.XOpenDisplay.argtypes = ptr, [ctypes.c_char_p]
    x.XDefaultRootWindow.restype, x.XDefaultRootWindow.argtypes = ulong, [ptr]
    x.XCreateSimpleWindow.restype = ulong
    x.XCreateSimpleWindow.argtypes = [ptr, ulong, cint, cint, ctypes.c_uint, ctypes.c_uint,
                                      ctypes.c_uint, ulong, ulong]
    x.XInternAtom.restype, x.XInternAtom.argtypes = ulong, [ptr, ctypes.c_char_p, cint]
    x.XConvertSelection.argtypes = [ptr, ulong, ulong, ulong, ulong, ulong]
    x.XPending.argtypes = [ptr]
    x.XNextEvent.argtypes = [ptr, ptr]
    x.XGetWindowProperty.argtypes = [ptr, ulong, ulong, ctypes.c_long, ctypes.c_long, cint, ulong,
                                     ctypes.POINTER(ulong), ctypes.POINTER(cint), ctypes.POINTER(ulong),
                                     ctypes.POINTER(ulong), ctypes.POINTER(ptr)]
    x.XFree.argtypes = [ptr]
    x.XDestroyWindow.argtypes = [ptr, ulong]
    x.XCloseDisplay.argtypes = [ptr]
    dpy = x.XOpenDisplay(None)
    if not dpy:
        raise RuntimeError("cannot open the X display")
    try:
        win = x.XCreateSimpleWindow(dpy, x.XDefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0)
        prop = x.XInternAtom(dpy, b"FOLDRAY_TEST_CLIPBOARD", 0)
        x.XConvertSelection(dpy, x.XInternAtom(dpy, b"CLIPBOARD", 0),
                            x.XInternAtom(dpy, b"UTF8_STRING", 0), prop, win, 0)
        event = (ulong * 24)()               # an XEvent, 192 bytes
        end = time.time() + timeout
        while True:
            if x.XPending(dpy):
                x.XNextEvent(dpy, event)
                if ctypes.c_int.from_buffer(event).value == 31:    # SelectionNotify
                    break
            elif time.time() > end:
                raise TimeoutError("nobody answered for the clipboard")
            else:
                time.sleep(0.02)
        if event[7] == 0:                    # XSelectionEvent.property: refused
            raise RuntimeError("the clipboard holds no text")
        kind, fmt, n, after, data = ulong(), cint(), ulong(), ulong(), ptr()
        x.XGetWindowProperty(dpy, win, prop, 0, 1 << 16, 1, 0, ctypes.byref(kind), ctypes.byref(fmt),
                             ctypes.byref(n), ctypes.byref(after), ctypes.byref(data))
        text = ctypes.string_at(data, n.value).decode("utf-8") if data.value else ""
        if data.value:
            x.XFree(data)
        x.XDestroyWindow(dpy, win)
        return text
    finally:
        x.XCloseDisplay(dpy)


def grid_scene(name, spacing, velocity, source, receiver):
    scene = {"format": "foldray-scene", "version": 1, "title": name,
             "grid": {"nx": 301, "nz": 151, "spacing": [spacing, spacing], "origin": [0, 0]},
             "default_velocity": velocity, "sources": [source], "receivers": [receiver]}
    path = os.path.join(GRID_DIR, name + ".json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path


def field_text(a, row, axis):
    """What a grid field shows, copied with Ctrl+A, Ctrl+C."""
    x0, x1 = GRID_TEXT[axis]
    xdo("mousemove", a.wx + (x0 + x1) // 2, a.wy + GRID_ROWS[row])
    xdo("click", 1)
    time.sleep(0.3)
    xdo("key", "ctrl+a")
    xdo("key", "ctrl+c")
    time.sleep(0.3)
    return clipboard_text()


def all_fields(a):
    """Every grid field's text; then Tab, so the last one loses the focus
    too (a field writes back what it shows when the focus leaves)."""
    shown = {(row, axis): field_text(a, row, axis) for row in GRID_ROWS for axis in ("x", "z")}
    xdo("key", "Tab")
    time.sleep(0.8)
    return shown


def shows(text, value):
    try:
        return abs(float(text.replace(",", ".")) - value) <= 1e-9 * abs(value)
    except ValueError:
        return False


def wrong_fields(shown, expected):
    return {"%s %s" % k: shown.get(k) for k, v in expected.items() if not shows(shown.get(k, ""), v)}


def cut_off(a, img):
    """The grid fields whose text runs into their − button."""
    out = []
    for row, y in GRID_ROWS.items():
        for axis, (x0, x1) in GRID_TEXT.items():
            band = img[a.wy + y - 8: a.wy + y + 9, a.wx + x0: a.wx + x1].astype(int)
            cols = np.flatnonzero((band.max(axis=-1) < 120).any(axis=0))
            if len(cols) and cols[-1] >= x1 - x0 - 3:
                out.append("%s %s" % (row, axis))
    return out


def grid_open(name, path):
    global gapp
    if gapp is not None:
        gapp.quit()
    gapp = App(path, name=name)
    if not gapp.find_window():
        raise RuntimeError("no window")
    gapp.settle_all()
    xdo("mousemove", gapp.wx + GRID_QUIET[0], gapp.wy + GRID_QUIET[1])
    time.sleep(0.6)


def grid_step(axis, row, path, shot):
    """One click on + of a field, then Ctrl+S: the frame log's job and the
    saved grid."""
    job = gapp.last_job()
    xdo("mousemove", gapp.wx + GRID_PLUS[axis], gapp.wy + GRID_ROWS[row])
    xdo("click", 1)
    gapp.wait_job(job)
    xdo("mousemove", gapp.wx + GRID_QUIET[0], gapp.wy + GRID_QUIET[1])
    time.sleep(0.5)
    screenshot(shot)
    mtime = os.stat(path).st_mtime_ns
    xdo("key", "ctrl+s")
    wait_for(lambda: os.stat(path).st_mtime_ns != mtime)
    with open(path) as f:
        return gapp.last("job"), json.load(f)["grid"]


def t_grid_tiny_shown():
    """301 × 151 nodes at 1e-5: Extent 0.003 × 0.0015, Spacing 1e-5 (not
    the old minimum 0.0001, nor 0.002 for the depth)."""
    gst["tiny"] = grid_scene("tiny", 1e-5, 1.0, [0.0015, 0.0], [0.0005, 0.0])
    grid_open("grid-tiny", gst["tiny"])
    img = screenshot("60-grid-tiny")
    cut = cut_off(gapp, img)
    job = gapp.last_job()
    shown = all_fields(gapp)
    wrong = wrong_fields(shown, {("extent", "x"): 0.003, ("extent", "z"): 0.0015, ("nodes", "x"): 301,
                                 ("nodes", "z"): 151, ("spacing", "x"): 1e-5, ("spacing", "z"): 1e-5})
    title, after = gapp.title(), gapp.last_job()
    return (not wrong and not cut and after == job and not title.startswith("•"),
            "fields %s; wrong %s; cut off %s; after visiting every field: title %r, job %d (was %d)"
            % (sorted(shown.items()), wrong, cut, title, after, job))


def t_grid_tiny_step():
    """+ on the z spacing: 1.1e-5 along z, 137 nodes over the same 0.0015;
    x keeps its 301 nodes at exactly 1e-5."""
    job, saved = grid_step("z", "spacing", gst["tiny"], "61-grid-tiny-dz-plus")
    shown = all_fields(gapp)
    wrong = wrong_fields(shown, {("nodes", "x"): 301, ("spacing", "x"): 1e-5, ("extent", "x"): 0.003,
                                 ("nodes", "z"): 137, ("spacing", "z"): 1.1e-5})
    ok = (saved["nx"] == 301 and saved["spacing"][0] == 1e-5 and saved["nz"] == 137
          and abs(saved["spacing"][1] - 1.1e-5) < 1e-18 and not wrong)
    return ok, "job %s; saved grid %s; fields %s; wrong %s" % (job, saved, sorted(shown.items()), wrong)


def t_grid_metre_shown():
    """301 × 151 nodes at 10 m: Extent 3000 × 1500 and Spacing 10, whole
    (not "3000.0" cut off by the − button)."""
    gst["metre"] = grid_scene("metre", 10.0, 1500.0, [1500.0, 0.0], [500.0, 0.0])
    grid_open("grid-metre", gst["metre"])
    img = screenshot("62-grid-metre")
    cut = cut_off(gapp, img)
    job = gapp.last_job()
    shown = all_fields(gapp)
    wrong = wrong_fields(shown, {("extent", "x"): 3000, ("extent", "z"): 1500, ("nodes", "x"): 301,
                                 ("nodes", "z"): 151, ("spacing", "x"): 10, ("spacing", "z"): 10})
    title, after = gapp.title(), gapp.last_job()
    return (not wrong and not cut and after == job and not title.startswith("•"),
            "fields %s; wrong %s; cut off %s; after visiting every field: title %r, job %d (was %d)"
            % (sorted(shown.items()), wrong, cut, title, after, job))


def t_grid_metre_step():
    """+ on the x extent adds one cell: 3010 m, 302 nodes at 10 m; z keeps
    151 nodes at 10 m."""
    job, saved = grid_step("x", "extent", gst["metre"], "63-grid-metre-width-plus")
    ok = saved["nx"] == 302 and saved["nz"] == 151 and saved["spacing"] == [10.0, 10.0]
    return ok, "job %s; saved grid %s" % (job, saved)


def t_grid_outside_refused():
    """Receivers beside, left of and 5 km below the three-layer grid: the
    scene does not open (a dialog names the first), and its file stays."""
    if gapp is not None:
        gapp.quit()
    path = files_scene("outside.json")
    with open(path) as f:
        scene = json.load(f)
    scene["receivers"] = [[3.5, 0], [-0.2, 0.5], [1.0, 5.0]]
    with open(path, "w") as f:
        json.dump(scene, f)
    data = open(path, "rb").read()
    a = App(path, name="grid-outside")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        time.sleep(1.0)
        screenshot("64-grid-outside")
        title = a.title()
        # Besides the main window, one as tall as a dialog (not a tooltip).
        dialogs = []
        for w in windows_of(a):
            geo = dict(l.split("=") for l in run("xdotool", "getwindowgeometry", "--shell", w).stdout.split())
            if w != a.win and int(geo["HEIGHT"]) >= 80:
                dialogs.append("%sx%s" % (geo["WIDTH"], geo["HEIGHT"]))
        xdo("key", "Escape")
    finally:
        a.quit()
    with open(a.stderr_path) as f:
        said = [l for l in f.read().splitlines() if "lies outside the grid" in l]
    named = any("Receiver 1 at (3.5, 0)" in l and "x from 0 to 3, z from 0 to 1.5" in l for l in said)
    same = open(path, "rb").read() == data
    return (named and dialogs and "outside.json" not in title and same,
            "title %r; dialog windows %s; said %s; file untouched %s" % (title, dialogs, said, same))


def t_open_refused_keeps_picture():
    """Opening that scene over a solved one: refused in a dialog, and the
    solved picture stays (its result was dropped before the check)."""
    keep = files_scene("keep.json")
    a = App(keep, name="open-refused")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        before = a.canvas(a.stable_shot("65-open-refused-before")).astype(int)
        click_at(a, MENU_BUTTON)              # ☰ → Open…
        time.sleep(0.5)
        xdo("key", "o")
        shown = wait_for(lambda: window_shown("Open Scene"), timeout=5.0)
        time.sleep(0.5)
        xdo("key", "ctrl+l")
        xdo("type", os.path.join(FILES, "outside.json"))
        time.sleep(0.5)
        for _ in range(3):                    # the first Return may take a completion
            xdo("key", "Return")
            if wait_for(lambda: not window_shown("Open Scene"), timeout=2.0):
                break
        gone = not window_shown("Open Scene")
        dialog = wait_for(lambda: len(windows_of(a)) > 1, timeout=5.0)
        time.sleep(1.0)
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        after = a.canvas(a.stable_shot("66-open-refused-after")).astype(int)

        top = 140
        differ = float((np.abs(after[top:] - before[top:]).max(axis=-1) > 24).mean())
        title = a.title()
    finally:
        a.quit()
    return (shown and gone and dialog and title == "keep.json — Foldray" and differ < 0.002,
            "chooser shown %s, closed %s; dialog %s; title %r; %.3f%% of the canvas below the "
            "dialog changed" % (shown, gone, dialog, title, 100 * differ))


for name, fn in [
    ("grid: a scene at spacing 1e-5 shows its extent and spacing; visiting the fields edits nothing",
     t_grid_tiny_shown),
    ("grid: + on the z spacing of that scene changes z only; x keeps 301 nodes at 1e-5", t_grid_tiny_step),
    ("grid: a scene in metres shows 3000 and 10 whole; visiting the fields edits nothing", t_grid_metre_shown),
    ("grid: + on its width adds one 10 m cell; z stays", t_grid_metre_step),
    ("grid: a scene with receivers outside its grid is refused with a dialog naming one", t_grid_outside_refused),
    ("grid: opening it over a solved scene is refused and keeps the picture", t_open_refused_keeps_picture),
]:
    check(name, fn)
if gapp is not None:
    gapp.quit()

# ------------------------------------------------------------------ clicks
# A click on the empty space around the model (where a drag pans) placed a
# source on the nearest edge; a click just beyond an edge still does.


def t_click_beside_model():
    a = App("--clear", name="click-beside")
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        job0 = last_job(a)
        xdo("mousemove", *a.to_screen(1.5, 1.5 + 0.3))     # 0.3 below the 1.5 km model
        xdo("click", 1)
        time.sleep(1.5)
        beside = last_job(a)
        title = a.title()
        sx, sy = a.to_screen(1.5, 1.5)
        xdo("mousemove", sx, sy + 4)                        # 4 px below its bottom edge
        xdo("click", 1)
        edge = wait_for(lambda: last_job(a) > beside, timeout=5.0)
        settle_all(a)
        job = a.last("job")
    finally:
        a.quit()
    ok = beside == job0 and not title.startswith("•") and edge and job.get("sources") == 1
    return ok, ("job after the click beside the model %d (was %d), title %r; a click 4 px below "
                "the edge made a job %s with %s sources" % (beside, job0, title, edge, job.get("sources")))


check("click: empty space beside the model places nothing; just beyond its edge, a source", t_click_beside_model)

# ------------------------------------------------------------------ failures
# A failed solve (a source inside an obstacle) is said whole in a bar over
# the canvas's foot, not only in the status bar, where it was cut short;
# the bar goes once a solve succeeds.


def t_failure_bar():
    wall = {"shape": "rectangle", "velocity": 0,
            "vertices": [[1.3, 0.2], [1.7, 0.2], [1.7, 0.6], [1.3, 0.6]]}
    path = scene_variant(os.path.join(OUT, "failure", "wall.json"),
                         lambda scene: scene.update(obstacles=[wall], sources=[[1.5, 0.4]]))
    a = App(path, name="failure")
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        xdo("mousemove", a.wx + 1195, a.wy + 700)
        x0, y0, x1, y1 = a.canvas_box()
        foot = (slice(y1 - 40, y1 - 16), slice(x0 + 20, x1 - 20))   # the canvas's foot
        failed = a.stable_shot("67-failure-bar").astype(int)[foot].mean()
        xdo("mousemove", *a.to_screen(1.5, 0.4))                  # select the source
        xdo("click", 1)
        time.sleep(0.5)
        job = last_job(a)
        xdo("key", "Delete")
        wait_for(lambda: last_job(a) > job, timeout=5.0)
        settle_all(a)
        xdo("mousemove", a.wx + 1195, a.wy + 700)
        solved = a.stable_shot("68-failure-bar-gone").astype(int)[foot].mean()
    finally:
        a.quit()
    # The bar is light; the empty canvas under the model is dark.
    return (failed > 150 and solved < 80,
            "mean brightness of the canvas's foot: %.0f with the failure, %.0f once solved"
            % (failed, solved))


check("failure: a failed solve is said in a bar over the canvas, gone once a solve succeeds", t_failure_bar)

# ------------------------------------------------------------------ receivers from a file
# ☰ → Import Receivers… reads foldray-cli's R.csv: the receivers it names
# replace those on the canvas, each with its ray, as one undo step; a file
# with a point off the grid is refused in a dialog and changes nothing.
# Export → Receivers (CSV)… writes them back as the same file.
IMPORTS = os.path.join(OUT, "import")
IMPORTED = [(0.5, 0.0), (1.2, 0.6), (2.0, 0.8), (2.5, 1.3), (2.9, 0.3)]


def import_receivers(a, path):
    """☰ → Import Receivers…, the path typed into the chooser's location."""
    click_at(a, MENU_BUTTON)
    time.sleep(0.5)
    xdo("key", "r")
    shown = wait_for(lambda: window_shown("Import Receivers"), timeout=5.0)
    time.sleep(0.5)
    xdo("key", "ctrl+l")
    xdo("type", path)
    time.sleep(0.5)
    for _ in range(3):                    # the first Return may take a completion
        xdo("key", "Return")
        if wait_for(lambda: not window_shown("Import Receivers"), timeout=2.0):
            break
    return shown and not window_shown("Import Receivers")


def receivers_drawn(a, img):
    return [near(img, *a.to_screen(x, z), RECEIVER_RGB) for x, z in IMPORTED]


def t_import_receivers():
    # A file left by an earlier run would be there before the export wrote
    # it (and its chooser would ask to replace it): start from nothing.
    shutil.rmtree(IMPORTS, ignore_errors=True)
    os.makedirs(IMPORTS)
    good = os.path.join(IMPORTS, "spread.csv")
    with open(good, "w") as f:
        f.write("x,z\n" + "".join("%g,%g\n" % p for p in IMPORTED))
    bad = os.path.join(IMPORTS, "off-grid.csv")
    with open(bad, "w") as f:
        f.write("x,z\n1.0,0.2\n3.5,0.1\n")
    a = App("--clear", "--source", "1.5,0", name="import-receivers",
            env={"FOLDRAY_STATE_DIR": os.path.join(IMPORTS, "state"), "FOLDRAY_RECOVER": "no"})
    notes = []
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        before = receivers_drawn(a, a.stable_shot())
        job = last_job(a)
        chosen = import_receivers(a, good)
        wait_for(lambda: last_job(a) > job, timeout=5.0)
        settle_all(a)
        title = a.title()
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        img = a.stable_shot("69-import-receivers")
        drawn = receivers_drawn(a, img)
        rays = int(RAY(a.canvas(img)).sum())
        jobrec = a.last("spr").get("receivers")
        notes.append("chooser %s; title %r; receivers drawn before %s, after %s; job with %s "
                     "receivers; %d ray pixels" % (chosen, title, before, drawn, jobrec, rays))
        ok = (chosen and not any(before) and all(drawn) and title.startswith("• ")
              and jobrec == len(IMPORTED) and rays > 400)

        exported = os.path.join(IMPORTS, "exported.csv")
        shown = export_to(a, "c", exported)   # Re_ceivers (CSV)…
        wait_for(lambda: os.path.exists(exported), timeout=5.0)
        rows = open(exported).read().splitlines() if os.path.exists(exported) else []
        want = ["x,z"] + ["%g,%g" % p for p in IMPORTED]
        notes.append("Export → Receivers: chooser %s; wrote %s" % (shown, rows))
        ok = ok and shown and rows == want

        # Export → Arrival Times: each receiver in order, as placed, with
        # the T of the traveltimes exported beside it at its node.
        times = os.path.join(IMPORTS, "arrivals.csv")
        tnpy = os.path.join(IMPORTS, "T.npy")
        shown_times = export_to(a, "a", times)    # _Arrival Times (CSV)…
        shown_t = export_to(a, "t", tnpy)         # _Traveltimes (.npy)…
        wait_for(lambda: os.path.exists(times) and os.path.exists(tnpy), timeout=5.0)
        job = a.last("job")
        rows = open(times).read().splitlines() if os.path.exists(times) else []
        notes.append("Export → Arrival Times: chooser %s; wrote %s" % (shown_times, rows))
        good_times = shown_times and shown_t and rows[:1] == ["receiver,x,z,t"] and len(rows) == 6
        if good_times:
            T = np.load(tnpy)
            for k, (row, (x, z)) in enumerate(zip(rows[1:], IMPORTED)):
                f = row.split(",")
                at_node = T[int(round(z / float(job["dz"]))), int(round(x / float(job["dx"])))]
                good_times = (good_times and int(f[0]) == k and float(f[1]) == x and float(f[2]) == z
                              and np.float32(f[3]) == at_node and 0 < at_node < np.inf)
        ok = ok and good_times

        # Export → Traveltime Curve (SVG): a dot per receiver at its x and
        # at a height above T = 0 proportional to its time in the file.
        curve = os.path.join(IMPORTS, "curve.svg")
        shown_curve = export_to(a, "u", curve)    # Traveltime C_urve (SVG)…
        wait_for(lambda: os.path.exists(curve), timeout=5.0)
        good_curve, said_curve = (curve_matches_times(curve, [x for x, _ in IMPORTED],
                                                      [float(r.split(",")[3]) for r in rows[1:]], 3.0)
                                  if os.path.exists(curve) and good_times else (False, "not written"))
        notes.append("Export → Traveltime Curve: chooser %s; %s" % (shown_curve, said_curve))
        ok = ok and shown_curve and good_curve

        job = last_job(a)
        refused = import_receivers(a, bad)
        dialog = wait_for(lambda: len(windows_of(a)) > 1, timeout=5.0)
        time.sleep(0.5)
        screenshot("70-import-receivers-refused")
        kept = receivers_drawn(a, screenshot())
        no_job = last_job(a) == job
        xdo("key", "Escape")
        wait_for(lambda: len(windows_of(a)) == 1, timeout=5.0)
        # The dialog covers the window's top left, and the first receiver.
        notes.append("off the grid: chooser %s, dialog %s, receivers kept %s, no new job %s"
                     % (refused, dialog, kept, no_job))
        ok = ok and refused and dialog and all(kept[1:]) and no_job

        job = last_job(a)
        click_at(a, UNDO_BUTTON)
        wait_for(lambda: last_job(a) > job, timeout=5.0)
        settle_all(a)
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        undone = receivers_drawn(a, a.stable_shot("71-import-receivers-undone"))
        notes.append("after undo: receivers drawn %s, job with %s receivers"
                     % (undone, a.last("spr").get("receivers")))
        ok = ok and not any(undone)
    finally:
        a.quit()
    with open(a.stderr_path) as f:
        said = f.read()
    notes.append("stderr: %r" % said[-300:])
    return ok and "CRITICAL" not in said and "WARNING" not in said, "\n".join(notes)


check("receivers: ☰ → Import Receivers… replaces them from a CSV, refuses one off the grid, undoes; "
      "Export writes them back, and their arrival times",
      t_import_receivers)


def cyan_blobs(img, x0, y0, x1, y1):
    """Centres of the receiver-coloured blobs in the box, left to right."""
    crop = img[y0:y1, x0:x1].astype(int)
    mask = (np.abs(crop - RECEIVER_RGB).max(axis=-1) < 40)
    seen = np.zeros_like(mask)
    blobs = []
    for sy, sx in zip(*np.nonzero(mask)):
        if seen[sy, sx]:
            continue
        stack, pts = [(sy, sx)], []
        seen[sy, sx] = True
        while stack:
            y, x = stack.pop()
            pts.append((y, x))
            for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= ny < mask.shape[0] and 0 <= nx < mask.shape[1] and mask[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
        if len(pts) >= 12:
            ys, xs = zip(*pts)
            blobs.append((x0 + sum(xs) / len(xs), y0 + sum(ys) / len(ys)))
    return sorted(blobs)


def traveltime_curve(a, want):
    """The side panel's Traveltime Curve, scrolled into view: a dot for
    each receiver, its x in step with the receiver's x and its height with
    the T the marker list gives it (T up), so that the lowest dot is the
    receiver nearest the source; near the source, in the top layer (1.5
    km/s), T is the straight line's |x - 1.5| / 1.5."""
    rows = []
    with open(a.stderr_path) as f:
        for line in f.read().splitlines():
            m = re.search(r"fr-marker-panel-DEBUG: [\d:.]+: list rows=\d+ selected=-?\d+(.*)", line)
            if m:
                rows = [c.split(" ") for c in m.group(1).split(" | ")[1:]]
    times = [float(r[3]) for r in rows if r[0].startswith("R")]
    xdo("mousemove", a.wx + 1000, a.wy + 500)
    for _ in range(30):
        xdo("click", "5")
        time.sleep(0.03)
    time.sleep(1.0)
    img = screenshot("73e-traveltime-curve")
    blobs = cyan_blobs(img, a.wx + 870, a.wy + 60, a.wx + 1190, a.wy + 730)
    if len(blobs) != len(want) or len(times) != len(want):
        return False, "curve: %d dots for %d receivers, %d times in the list" % (len(blobs), len(want), len(times))
    (bx0, by0), (bx1, _) = blobs[0], blobs[-1]
    kx = (bx1 - bx0) / (want[-1][0] - want[0][0])
    k_t = min(range(len(times)), key=lambda i: times[i])
    ky = (blobs[k_t][1] - blobs[0][1]) / (times[k_t] - times[0])
    off_x = max(abs(bx0 + kx * (x - want[0][0]) - b[0]) for (x, _), b in zip(want, blobs))
    off_t = max(abs(blobs[0][1] + ky * (t - times[0]) - b[1]) for t, b in zip(times, blobs))
    lowest = max(range(len(blobs)), key=lambda i: blobs[i][1])
    near = [abs(times[i] - abs(want[i][0] - 1.5) / 1.5) / (abs(want[i][0] - 1.5) / 1.5)
            for i in range(len(want)) if 0 < abs(want[i][0] - 1.5) < 0.45]
    ok = (kx > 0 and ky < 0 and off_x <= 1.5 and off_t <= 1.5
          and abs(want[lowest][0] - 1.5) < 0.15 and near and max(near) < 0.03)

    # Hovering: the third dot's tooltip names R3 with its x and the list's
    # T; the line between the first two gives their slope, Δx / ΔT.
    def selected_rows():
        with open(a.stderr_path) as f:
            return [int(v) for v in re.findall(r"fr-marker-panel-DEBUG: [\d:.]+: list selected=(-?\d+)",
                                                f.read())]

    def tooltips():
        with open(a.stderr_path) as f:
            return re.findall(r"fr-time-curve-DEBUG: [\d:.]+: curve tooltip (.*)", f.read())

    def tooltip_at(x, y):
        x, y = int(round(x)), int(round(y))
        n = len(tooltips())
        xdo("mousemove", x, y)
        time.sleep(0.2)
        xdo("mousemove", x + 1, y)
        wait_for(lambda: len(tooltips()) > n, timeout=3.0)
        time.sleep(0.3)
        said = tooltips()
        return said[-1] if len(said) > n else None

    dot = tooltip_at(blobs[2][0], blobs[2][1])
    m = re.match(r"R3: x = ([\d.]+), T = ([\d.]+)$", dot or "")
    good_dot = (bool(m) and abs(float(m.group(1)) - want[2][0]) < 1e-9
                and abs(float(m.group(2)) - times[2]) < 1e-3)
    lx, ly = int(round((blobs[0][0] + blobs[1][0]) / 2)), int(round((blobs[0][1] + blobs[1][1]) / 2))
    line = tooltip_at(lx, ly)
    # And the tooltip shows: a popup below or above the pointer, over what
    # the panel drew before the hovering (GTK shows it a moment after).
    time.sleep(2.0)
    shown = screenshot("73g-traveltime-curve-tooltip")
    box = (max(lx - 200, 0), max(ly - 80, 0), min(lx + 200, shown.shape[1]), min(ly + 80, shown.shape[0]))
    popup = int(np.any(shown[box[1]:box[3], box[0]:box[2]] != img[box[1]:box[3], box[0]:box[2]],
                       axis=-1).sum())
    m = re.match(r"R1 to R2: apparent velocity ([\d.]+)$", line or "")
    slope = (want[1][0] - want[0][0]) / abs(times[1] - times[0])
    good_line = bool(m) and abs(float(m.group(1)) - slope) <= 0.02 * slope
    # A click on R5's dot selects R5: its row (after the source's) in the
    # list, its marker on the canvas; the dot is ringed.
    xdo("mousemove", int(round(blobs[4][0])), int(round(blobs[4][1])))
    time.sleep(0.2)
    xdo("click", "1")
    picked = wait_for(lambda: selected_rows()[-1:] == [5], timeout=3.0)
    time.sleep(0.5)
    screenshot("73h-traveltime-curve-picked")
    ok = ok and good_dot and good_line and popup > 200 and picked
    return ok, ("curve: %d dots; off the receivers' x by %.2f px, off their T by %.2f px (T up: %s); "
                "lowest dot at x = %.1f; near the source T vs |x - 1.5| / 1.5 off by %s; "
                "tooltip over R3 %r, over R1–R2 %r (slope from the list %.3f), %d pixels of it shown; "
                "a click on R5's dot selects its row %s"
                % (len(blobs), off_x, off_t, ky < 0, want[lowest][0],
                   ["%.3f" % v for v in near], dot, line, slope, popup, picked))


def t_receiver_line():
    """☰ → Receiver Line… lays out a line of receivers in place of those
    placed: 13 from (0.2, 0) to (2.6, 0), each drawn where it belongs
    and solved for, one undo step.  A line of more receivers than nodes
    is refused in the window, which stays open; Escape closes it with
    nothing changed.  A line down a borehole, 7 from (2, 0.1) to (2, 1.3),
    has the Traveltime Curve plot them against z."""
    a = App("--clear", "--source", "1.5,0", "--receiver", "0.5,0.5", name="receiver-line",
            env={"FOLDRAY_STATE_DIR": os.path.join(IMPORTS, "state-line"), "FOLDRAY_RECOVER": "no",
                 "G_MESSAGES_DEBUG": "fr-marker-panel fr-time-curve fr-receiver-line"})
    want = [(0.2 + 0.2 * k, 0.0) for k in range(13)]
    notes, bad = [], []
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)

        def open_line():
            click_at(a, MENU_BUTTON)
            time.sleep(0.5)
            xdo("key", "l")                   # Receiver _Line…
            return wait_for(lambda: window_shown("Receiver Line"), timeout=5.0)

        def window_says():
            """The window's last word on the spacing its fields make."""
            with open(a.stderr_path) as f:
                said = re.findall(r"fr-receiver-line-DEBUG: [\d:.]+: receiver line (.*)", f.read())
            return said[-1] if said else None

        def fill(key, text):
            xdo("key", key)
            time.sleep(0.3)
            xdo("key", "ctrl+a")
            xdo("type", "--", text)

        def lay_line(first, last, count, points, shot):
            """Fills the open window from first to last with count receivers
            and presses Enter: whether it closed, whether each of points is
            drawn, the solve's receivers and the window's last word."""
            # _First's and _Last's mnemonics take the focus to x, Tab to z.
            for key, text in (("alt+f", "%g" % first[0]), ("Tab", "%g" % first[1]),
                              ("alt+l", "%g" % last[0]), ("Tab", "%g" % last[1]), ("alt+r", str(count))):
                fill(key, text)
            job = last_job(a)
            xdo("key", "Return")
            closed = wait_for(lambda: not window_shown("Receiver Line"), timeout=5.0)
            wait_for(lambda: last_job(a) > job, timeout=10.0)
            settle_all(a)
            xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
            img = a.stable_shot(shot)
            drawn = [near(img, *a.to_screen(x, z), RECEIVER_RGB) for x, z in points]
            return closed, drawn, a.last("spr").get("receivers"), window_says()

        shown = open_line()
        time.sleep(0.5)
        screenshot("73b-receiver-line")
        closed, drawn, receivers, said = lay_line((0.2, 0), (2.6, 0), 13, want, "73c-receiver-line-laid")
        title = a.title()
        notes.append("window shown %s, closed on Enter %s; job with %s receivers; drawn %s; title %r; "
                     "it said %r" % (shown, closed, receivers, drawn, title, said))
        ok = (shown and closed and receivers == 13 and all(drawn) and title.startswith("• ")
              and said == "One receiver every 0.2 along a line 2.4 long")

        curve_ok, curve_note = traveltime_curve(a, want)
        notes.append(curve_note)
        ok = ok and curve_ok

        refused_shown = open_line()
        fill("alt+r", "5000")
        job = last_job(a)
        xdo("key", "Return")
        time.sleep(1.0)
        stays = window_shown("Receiver Line")
        screenshot("73d-receiver-line-refused")
        xdo("key", "Escape")
        gone = wait_for(lambda: not window_shown("Receiver Line"), timeout=5.0)
        time.sleep(0.5)
        no_job = last_job(a) == job
        notes.append("5000 receivers: window shown %s, stays open %s, Escape closes %s, no new job %s"
                     % (refused_shown, stays, gone, no_job))
        ok = ok and refused_shown and stays and gone and no_job

        job = last_job(a)
        click_at(a, UNDO_BUTTON)
        wait_for(lambda: last_job(a) > job, timeout=5.0)
        settle_all(a)
        undone = a.last("spr").get("receivers")
        notes.append("after undo: job with %s receivers" % undone)
        ok = ok and undone == 1

        borehole = [(2.0, 0.1 + 0.2 * k) for k in range(7)]
        bore_shown = open_line()
        bore_closed, bore_drawn, bore_receivers, bore_said = lay_line(
            (2, 0.1), (2, 1.3), 7, borehole, "73f-receiver-line-borehole")
        with open(a.stderr_path) as f:
            curves = re.findall(r"fr-time-curve-DEBUG: [\d:.]+: curve axis=(\w) t=0,[^ ]+ points=(\d+)",
                                f.read())
        notes.append("borehole: window shown %s, closed %s; job with %s receivers; drawn %s; "
                     "last curve %s; it said %r" % (bore_shown, bore_closed, bore_receivers, bore_drawn,
                                                    curves[-1:], bore_said))
        ok = (ok and bore_shown and bore_closed and bore_receivers == 7 and all(bore_drawn)
              and curves[-1:] == [("z", "7")] and bore_said == "One receiver every 0.2 along a line 1.2 long")
        bad = a.bad_stderr()
    finally:
        a.quit()
    notes.append("bad stderr %s" % bad[:2])
    return ok and not bad, "\n".join(notes)


check("receivers: ☰ → Receiver Line… lays out a line of them, refuses one of more receivers "
      "than nodes, undoes", t_receiver_line)


def t_separate_shots():
    """A line shot from both ends (sources at x = 0.3 and 2.7, seven
    receivers between): Alt+U checks "One shot per source", one undo
    step.  Each source is then solved alone: the last placed (S2) is the
    shot shown, S1 is drawn hollow, the status line says so and the
    curve's front branch is S2's, lowest at the receiver nearest it.  A
    click on S1 shows its shot from that solve, without solving again:
    its branch in front, lowest nearest it; the list's T at the idle
    source is the reciprocal time, the same either way.  S2 dragged solves
    its own shot alone, S1's kept; a receiver dragged solves no shot.
    Undo (three times) fires them together again."""
    receivers = [0.6 + 0.3 * k for k in range(7)]
    args = ["--clear", "--source", "0.3,0", "--source", "2.7,0"]
    for x in receivers:
        args += ["--receiver", "%g,0" % x]
    a = App(*args, name="separate-shots",
            env={"FOLDRAY_STATE_DIR": os.path.join(IMPORTS, "state-shots"), "FOLDRAY_RECOVER": "no",
                 "G_MESSAGES_DEBUG": "fr-marker-panel fr-time-curve"})
    notes, bad = [], []

    def solved(action):
        job = last_job(a)
        action()
        wait_for(lambda: last_job(a) > job, timeout=10.0)
        settle_all(a)
        xdo("mousemove", a.wx + GRID_QUIET[0], a.wy + GRID_QUIET[1])
        time.sleep(0.5)
        return a.last("spr").get("shot")

    def source_times():
        """The T the marker list gives S1 and S2, as the panel last wrote
        its rows ("" where it gives none)."""
        rows = []
        with open(a.stderr_path) as f:
            for line in f.read().splitlines():
                m = re.search(r"fr-marker-panel-DEBUG: [\d:.]+: list rows=\d+ selected=-?\d+(.*)", line)
                if m:
                    rows = [(c.split(" ") + [""] * 4)[:4] for c in m.group(1).split(" | ")[1:]]
        return {r[0]: r[3] for r in rows if r[0] in ("S1", "S2")}

    def front_lowest(name):
        """The x of the receiver under the curve's lowest filled dot, and
        how many filled dots there are."""
        img = screenshot(name)
        blobs = cyan_blobs(img, a.wx + 870, a.wy + 60, a.wx + 1190, a.wy + 730)
        if len(blobs) != len(receivers):
            return None, len(blobs)
        return receivers[max(range(len(blobs)), key=lambda i: blobs[i][1])], len(blobs)

    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        together = a.last("spr").get("shot")
        shot = solved(lambda: xdo("key", "alt+u"))
        img = a.stable_shot("74a-separate-shots")
        times_s2_shown = source_times()
        s1_filled = near(img, *a.to_screen(0.3, 0.0), SOURCE_RGB, radius=2, tol=40)
        s2_filled = near(img, *a.to_screen(2.7, 0.0), SOURCE_RGB, radius=2, tol=40)
        said = a.rays_status()
        title = a.title()
        xdo("mousemove", a.wx + 1000, a.wy + 500)
        for _ in range(30):
            xdo("click", "5")
            time.sleep(0.03)
        time.sleep(1.0)
        low2, n2 = front_lowest("74b-separate-shots-curve")
        notes.append("shot %s before, %s after Alt+U; S1 filled %s, S2 filled %s; status %r; title %r; "
                     "curve: %d filled dots, lowest at x = %s" % (together, shot, s1_filled, s2_filled,
                                                                  said, title, n2, low2))
        ok = (together == -1 and shot == 1 and not s1_filled and s2_filled
              and re.match(r"Solved 2 shots in [\d.]+ ms, showing S2’s", said) is not None
              and title.startswith("• ") and low2 == 2.4)

        def click_s1():
            xdo("mousemove", *a.to_screen(0.3, 0.0))
            xdo("click", "1")

        shot = solved(click_s1)
        img = a.stable_shot("74c-separate-shots-s1")
        s1_filled = near(img, *a.to_screen(0.3, 0.0), SOURCE_RGB, radius=2, tol=40)
        s2_filled = near(img, *a.to_screen(2.7, 0.0), SOURCE_RGB, radius=2, tol=40)
        low1, n1 = front_lowest("74d-separate-shots-s1-curve")
        said = a.rays_status()
        kept = a.last("spr").get("kept")
        times_s1_shown = source_times()
        # The list's T at the idle source is the reciprocal time: S2's shot
        # at S1 is S1's shot at S2.
        try:
            reciprocal = (times_s2_shown["S2"] == "" and times_s1_shown["S1"] == ""
                          and abs(float(times_s2_shown["S1"]) - float(times_s1_shown["S2"])) <= 2e-4
                          and float(times_s1_shown["S2"]) > 1.0)
        except (KeyError, ValueError):
            reciprocal = False
        notes.append("S1 clicked: shot %s, %s shots kept; S1 filled %s, S2 filled %s; "
                     "status %r; curve: %d filled dots, lowest at x = %s; the list's T at the sources "
                     "with S2 shown %s, with S1 shown %s"
                     % (shot, kept, s1_filled, s2_filled, said, n1, low1, times_s2_shown, times_s1_shown))
        ok = (ok and shot == 0 and s1_filled and not s2_filled and low1 == 0.6 and kept == 2
              and said == "Showing S1’s shot, solved before" and reciprocal)

        # S2 dragged to 2.55: its shot shown, solved again, S1's kept.
        def drag_s2():
            drag(*a.to_screen(2.7, 0.0), *a.to_screen(2.55, 0.0), steps=6)

        shot = solved(drag_s2)
        kept = a.last("spr").get("kept")
        low2, n2 = front_lowest("74e-separate-shots-s2-dragged")
        said = a.rays_status()
        notes.append("S2 dragged: shot %s, %s kept; status %r; curve: %d filled dots, lowest at x = %s"
                     % (shot, kept, said, n2, low2))
        ok = (ok and shot == 1 and kept == 1 and low2 == 2.4
              and re.match(r"Solved 1 of 2 shots in [\d.]+ ms, the others kept, showing S2’s$", said) is not None)

        # A receiver dragged (R4, 1.5 → 1.65): no shot solved, both taken
        # and their rays traced again, S2's still shown.
        def drag_r4():
            drag(*a.to_screen(1.5, 0.0), *a.to_screen(1.65, 0.0), steps=6)

        shot = solved(drag_r4)
        kept = a.last("spr").get("kept")
        said = a.rays_status()
        notes.append("R4 dragged: shot %s, %s kept; status %r" % (shot, kept, said))
        ok = ok and shot == 1 and kept == 2 and said == "Rays traced from the last solves, showing S2’s"

        solved(lambda: click_at(a, UNDO_BUTTON))     # the receiver's drag
        solved(lambda: click_at(a, UNDO_BUTTON))     # the source's drag
        shot = solved(lambda: click_at(a, UNDO_BUTTON))
        said = a.rays_status()
        notes.append("after two undos: shot %s; status %r" % (shot, said))
        ok = ok and shot == -1 and said.startswith("Solved in ")
        bad = a.bad_stderr()
    finally:
        a.quit()
    notes.append("bad stderr %s" % bad[:2])
    return ok and not bad, "\n".join(notes)


check("shots: One shot per source solves each source alone, shows the one selected (the others "
      "hollow), a branch of the curve each; undo fires them together", t_separate_shots)


def t_folds_keep_markers():
    """In Folds mode, which neither shows the markers nor undoes their
    edits, ☰ → Clear Markers, Import Receivers and Receiver Line are off: their mnemonics
    there change nothing, and back in Rays mode the source and the three
    receivers are solved for as before."""
    a = App("--clear", "--source", "1.5,0", "--receiver", "0.5,0", "--receiver", "1.0,0",
            "--receiver", "2.5,0", name="folds-keep-markers",
            env={"FOLDRAY_STATE_DIR": os.path.join(IMPORTS, "state-folds"), "FOLDRAY_RECOVER": "no"})
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        before = a.last("spr").get("receivers")
        click_at(a, MODE_BUTTON["folds"])
        settle_all(a)
        for key in ("c", "r", "l"):           # _Clear Markers, Import _Receivers…, Receiver _Line…
            click_at(a, MENU_BUTTON)
            time.sleep(0.5)
            xdo("key", key)
            time.sleep(0.5)
            xdo("key", "Escape")
            time.sleep(0.3)
        chooser = window_shown("Import Receivers") or window_shown("Receiver Line")
        if chooser:
            xdo("key", "Escape")
        title = a.title()
        job = last_job(a)
        click_at(a, MODE_BUTTON["rays"])
        wait_for(lambda: last_job(a) > job, timeout=10.0)
        settle_all(a)
        after = a.last("spr").get("receivers")
        sources = a.last("job").get("sources")
    finally:
        a.quit()
    return (before == 3 and after == 3 and sources == 1 and not chooser,
            "receivers before %s, after %s; sources %s; import chooser shown %s; title %r"
            % (before, after, sources, chooser, title))


check("folds: ☰ → Clear Markers, Import Receivers and Receiver Line are off in Folds mode",
      t_folds_keep_markers)


def t_folds_no_receivers_export():
    """Export → Receivers (CSV)… and Arrival Times (CSV)… are off in Folds
    mode, as Import Receivers is: their mnemonics there open no chooser and no "nothing to export"
    dialog (which told the user to Shift+click the model, which in Folds
    mode adds a characteristic's point); back in Rays mode it asks for a
    file again."""
    a = App("--clear", "--source", "1.5,0", "--receiver", "0.5,0", "--receiver", "2.5,0",
            name="folds-no-receivers-export",
            env={"FOLDRAY_STATE_DIR": os.path.join(IMPORTS, "state-folds-export"),
                 "FOLDRAY_RECOVER": "no"})
    try:
        if not a.find_window():
            return False, "no window"
        settle_all(a)
        click_at(a, MODE_BUTTON["folds"])
        settle_all(a)
        click_at(a, EXPORT_BUTTON)
        time.sleep(0.6)
        screenshot("72-folds-export-menu")
        xdo("key", "c")                       # Re_ceivers (CSV)…
        chooser = wait_for(lambda: window_shown("Export"), timeout=3.0)
        screenshot("73-folds-export-receivers-pressed")
        xdo("key", "a")                       # _Arrival Times (CSV)…, off too
        chooser = wait_for(lambda: window_shown("Export"), timeout=3.0) or chooser
        xdo("key", "Escape")                  # the menu, still open (or the chooser)
        time.sleep(1.0)
        dialogs = len(windows_of(a)) - 1      # a "nothing to export" dialog
        for _ in range(5):
            if len(windows_of(a)) <= 1:
                break
            xdo("key", "Escape")
            time.sleep(0.3)
        click_at(a, MODE_BUTTON["rays"])
        settle_all(a)
        click_at(a, EXPORT_BUTTON)
        time.sleep(0.6)
        xdo("key", "c")
        rays_chooser = wait_for(lambda: window_shown("Export"), timeout=5.0)
        if rays_chooser:
            xdo("key", "Escape")
        bad = a.bad_stderr()
    finally:
        a.quit()
    return (not chooser and dialogs == 0 and rays_chooser and not bad,
            "Folds mode: chooser shown %s, other windows %d; Rays mode: chooser shown %s; "
            "bad stderr %s" % (chooser, dialogs, rays_chooser, bad[:2]))


check("folds: Export → Receivers (CSV)… and Arrival Times (CSV)… are off in Folds mode, on again in Rays mode",
      t_folds_no_receivers_export)

# ------------------------------------------------------------------ SEG-Y
# A SEG-Y model named on the command line opens as SEG-Y (it went to the
# .npy reader, "bad magic"), with its geometry from the headers.
SEGY_DIR = os.path.join(OUT, "segy")


def write_segy(path, v, cdp_x, scalar, interval):
    """v[iz][ix] as big-endian IEEE floats (format 5), one trace per
    column; CDP X at bytes 181-184 with the scalar at 71-72, the sample
    count at 115-116; the binary header's interval (3217-3218), sample
    count (3221-3222) and format (3225-3226)."""
    nz, nx = len(v), len(v[0])
    binary = bytearray(400)
    struct.pack_into(">h", binary, 16, interval)
    struct.pack_into(">h", binary, 20, nz)
    struct.pack_into(">h", binary, 24, 5)
    with open(path, "wb") as f:
        f.write(b" " * 3200 + bytes(binary))
        for ix in range(nx):
            header = bytearray(240)
            struct.pack_into(">h", header, 70, scalar)
            struct.pack_into(">h", header, 114, nz)
            struct.pack_into(">i", header, 180, cdp_x[ix])
            f.write(bytes(header) + struct.pack(">%df" % nz, *(v[iz][ix] for iz in range(nz))))


def t_segy_argument():
    """7 traces at x = 500 + 25·ix (centimetres, scalar −100), 5 samples
    12.5 apart: the exported velocity equals the file's samples, and its
    .vti has origin 500 and spacing 25 × 12.5."""
    os.makedirs(SEGY_DIR, exist_ok=True)
    v = [[1500.0 + 250.0 * iz + 2.0 * ix for ix in range(7)] for iz in range(5)]
    path = os.path.join(SEGY_DIR, "model.sgy")
    write_segy(path, v, [50000 + 2500 * ix for ix in range(7)], -100, 12500)
    exported = os.path.join(SEGY_DIR, "export")
    shutil.rmtree(exported, ignore_errors=True)
    a = App(path, "--export-on-idle", exported, name="segy-argument")
    rc = a.wait_exit()
    with open(a.stderr_path) as f:
        said = f.read().strip()
    if rc != 0:
        return False, "exit %s: %s" % (rc, said)
    got = np.load(os.path.join(exported, "velocity.npy"))
    piece = ET.parse(os.path.join(exported, "velocity.vti")).getroot().find("ImageData")
    origin = [float(t) for t in piece.get("Origin").split()]
    spacing = [float(t) for t in piece.get("Spacing").split()]
    same = got.shape == (5, 7) and bool(np.all(got == np.array(v, dtype=np.float32)))
    ok = same and origin[0] == 500.0 and spacing[0] == 25.0 and spacing[2] == 12.5
    return ok, "velocity %s, equal to the samples: %s; origin %s, spacing %s" % (
        got.shape, same, origin, spacing)


check("SEG-Y: a model named on the command line opens with its headers' geometry", t_segy_argument)

print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
