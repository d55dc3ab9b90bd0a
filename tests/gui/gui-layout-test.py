#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of the canvas's plot layout (app/fr-plot-layout.c) under a real
X server (run it inside xvfb-run): the field stays in the plot rectangle,
the axes' labels and the colour bar in the gutters around it, at the fitted
view and zoomed in with the mouse wheel; a click lands on the model point
under it and a click in a gutter places nothing; a ray along the model's
top edge stays visible over the model's frame; a press in a gutter keeps
the selection; a resize refits a fitted view and keeps a zoomed one; in
model-edit mode the wheel over a layer scales its velocity (Ctrl+wheel
zooms), the editor's handles stay out of the gutters and its tools ignore
presses there; the status bar keeps the cursor readout whole in a narrow
window, and its width while v and T print in exponent form; F9 hides the
side panel and the picture takes its room; a line wider than the largest
GL texture shows every trace zoomed in; in Folds mode
the starting horizon and the obstacles' outlines stop at the model's edge
on the canvas, in the exported PNG and in the PDF figure (rendered with
pdftoppm), and a horizon lying on the edge shows its whole width there.  Real input through xdotool, the screen read with
ImageMagick's `import`, checked by pixels.  Speaks TAP.

Usage: gui-layout-test.py FOLDRAY_EXE OUT_DIR

The field's rectangle is found in the pixels, not taken from the code's
constants: zoomed in, it is the run of non-background pixels through the
canvas's middle.  The harness (App, screenshots, TAP) is guilib.py."""

import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

from guilib import (App, check, configure, read_png, results, save_png, scene_variant, screenshot,
                    wait_for, xdo)

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-layout-")
os.makedirs(OUT, exist_ok=True)
configure(EXE, OUT, "1200x760")

SOURCE_RGB = np.array((255, 77, 20))   # fr-canvas.c source_color
SELECT_RGB = np.array((255, 235, 51))  # fr-canvas.c select_color, fr-editor.c's selected outline
AMBER = lambda img: ((img[..., 0] > 200) & (img[..., 1] > 120) & (img[..., 1] < 200)
                     & (img[..., 2] < 80))  # fr-editor.c: a slow obstacle's outline and handles
# The layout's default gutters (left, top, right, bottom) and the padding
# round a fitted model (fr-plot-layout.c), for what a fit must fill.
GUTTERS = (60, 28, 92, 22)
PAD = 16
RAY = lambda img: (img[..., 0] > 200) & (img[..., 1] < 90) & (img[..., 2] > 200)
MODEL = (3.0, 1.5)                     # the three-layer example's extent
SPACING = 0.01                         # and its node spacing


def chroma(img):
    """How coloured each pixel is: the field and the colour bar are, the
    labels, ticks, frame and background are grey."""
    p = img.astype(int)
    return p.max(axis=-1) - p.min(axis=-1)


def background(canvas):
    return canvas[2, 2].astype(int)   # the top-left corner is a gutter's corner


def not_background(canvas):
    return np.abs(canvas.astype(int) - background(canvas)).max(axis=-1) > 6


def run_through(mask, i):
    """The run of True in the 1-D mask that contains index i: [a, b)."""
    if not mask[i]:
        return i, i
    a, b = i, i
    while a > 0 and mask[a - 1]:
        a -= 1
    while b < len(mask) and mask[b]:
        b += 1
    return a, b


def model_box(a):
    """The model's rectangle on the canvas, from the view in the log."""
    x0, y0 = a.to_screen(0.0, 0.0)
    x1, y1 = a.to_screen(*MODEL)
    cx, cy = a.canvas_box()[:2]
    return x0 - cx, y0 - cy, x1 - cx, y1 - cy


def colour_bar(canvas, right_of):
    """The coloured pixels right of column right_of: (rows, first column,
    last column), the colour bar when the layout is right."""
    c = chroma(canvas[:, right_of:]) > 40
    cols = np.nonzero(c.any(axis=0))[0]
    if len(cols) == 0:
        return 0, None, None
    return int(c.any(axis=1).sum()), right_of + int(cols[0]), right_of + int(cols[-1])


# ------------------------------------------------------------------ session 1
# The three-layer example without markers: no result, so the field shows
# only the three layers' colours.
app = App("--clear", name="layout")
state = {}


def t_window():
    ok = app.find_window()
    if ok:
        app.wait_settled()
    return ok, "" if ok else "no window named Foldray"


def t_fitted():
    """The opened model is whole, with room for the labels left of and
    above it, and the colour bar right of it, clear of it, and level with
    it: its bottom on the model's, its top at most its title's room below
    the model's (a fixed 320-pixel bar stood out below a flat model)."""
    img = app.stable_shot("01-fitted")
    canvas = app.canvas(img)
    h, w, _ = canvas.shape
    x0, y0, x1, y1 = model_box(app)
    rows, bx0, bx1 = colour_bar(canvas, x1 + 2)
    bar = np.nonzero((chroma(canvas[:, x1 + 2:]) > 40).any(axis=1))[0]
    top, bottom = (int(bar[0]), int(bar[-1])) if len(bar) else (None, None)
    ok = (x0 >= 40 and y0 >= 20 and x1 <= w - 70 and y1 <= h
          and rows > 150 and bx0 is not None and bx0 >= x1 + 6 and bx1 - bx0 <= 16
          and top is not None and abs(bottom - y1) <= 2 and y0 - 2 <= top <= y0 + 30)
    return ok, ("model at x %d..%d, y %d..%d on a %d × %d canvas; colour bar %d rows (%s..%s), "
                "columns %s..%s" % (x0, x1, y0, y1, w, h, rows, top, bottom, bx0, bx1))


if not check("window opens on the three-layer model", t_window):
    app.quit()
    print("1..%d" % len(results), flush=True)
    sys.exit(1)
check("fitted: the whole model shows, clear of the labels' and the colour bar's room", t_fitted)


def t_key_zoom():
    """Ctrl++ zooms about the middle of the part of the model the plot
    shows, so the model's middle stays in the plot (the keys zoomed about
    the widget's middle, below the fitted model: six presses left only
    its bottom third in view, and no key brings it back); Ctrl+0 fits
    it again."""
    before = app.to_screen(1.5, 0.75)
    scale = app.view()["scale"]
    for _ in range(6):
        xdo("key", "ctrl+plus")
        time.sleep(0.15)
    end = time.time() + 10
    while app.view()["scale"] < 1.25 ** 6 * scale * 0.99 and time.time() < end:
        time.sleep(0.05)
    after = app.to_screen(1.5, 0.75)
    zoomed = app.view()["scale"] / scale
    app.stable_shot("01b-key-zoomed")
    xdo("key", "ctrl+0")
    end = time.time() + 10
    while abs(app.view()["scale"] - scale) > 1e-9 * scale and time.time() < end:
        time.sleep(0.05)
    refit = app.view()["scale"] / scale
    x0, y0, x1, y1 = app.canvas_box()
    gl, gt, gr, gb = GUTTERS
    inside = x0 + gl <= after[0] <= x1 - gr and y0 + gt <= after[1] <= y1 - gb
    return (zoomed > 3.7 and abs(after[0] - before[0]) <= 1 and inside and abs(refit - 1.0) < 1e-9,
            "zoom %.2f×; the model's centre at %s, was %s, in the plot (%d..%d × %d..%d) %s; "
            "Ctrl+0 gives the fit back: %.6f"
            % (zoomed, after, before, x0 + gl, x1 - gr, y0 + gt, y1 - gb, inside, refit))


def t_zoom():
    """Wheel zoom over the field until the model overflows the plot."""
    cx, cy = app.to_screen(1.5, 0.75)
    xdo("mousemove", cx, cy)
    time.sleep(0.3)
    scale = app.view()["scale"]
    for _ in range(8):
        xdo("click", 4)
        time.sleep(0.05)
    end = time.time() + 10
    while app.view()["scale"] < 2.0 * scale and time.time() < end:
        time.sleep(0.05)
    img = app.stable_shot("02-zoomed")
    canvas = app.canvas(img)
    h, w, _ = canvas.shape
    # Without a result the field is the layers' colours, all coloured; the
    # axis lines beside it are grey.
    field = chroma(canvas) > 40
    fx0, fx1 = run_through(field[h // 2], w // 2)
    fy0, fy1 = run_through(field[:, w // 2], h // 2)
    nb = not_background(canvas)
    state.update(img=img, canvas=canvas, field=(fx0, fy0, fx1, fy1))
    x0, y0, x1, y1 = model_box(app)
    overflow = x0 < fx0 and y0 < fy0 and x1 > fx1 and y1 > fy1
    filled = nb[fy0:fy1, fx0:fx1].mean()
    return (overflow and filled > 0.999,
            "zoom %.2f×; field at x %d..%d, y %d..%d on %d × %d, %.2f%% of it drawn; model x %d..%d, y %d..%d"
            % (app.view()["scale"] / scale, fx0, fx1, fy0, fy1, w, h, 100 * filled, x0, x1, y0, y1))


def t_gutters():
    """The field stops short of the canvas's edges: gutters on the left and
    top for the labels, a wide one on the right for the colour bar."""
    canvas, (fx0, fy0, fx1, fy1) = state["canvas"], state["field"]
    h, w, _ = canvas.shape
    ok = fx0 >= 40 and fy0 >= 20 and w - fx1 >= 70 and h - fy1 >= 10
    return ok, "gutters left %d, top %d, right %d, bottom %d px" % (fx0, fy0, w - fx1, h - fy1)


def t_no_field_in_gutters():
    """Outside the field only grey (labels, ticks, background) and the
    colour bar: its colours in the right gutter, in one narrow band clear
    of the field."""
    canvas, (fx0, fy0, fx1, fy1) = state["canvas"], state["field"]
    c = chroma(canvas) > 40
    outside = c.copy()
    outside[fy0:fy1, fx0:fx1] = False
    left_top_bottom = int(outside[:, :fx1].sum())
    rows, bx0, bx1 = colour_bar(canvas, fx1)
    ok = left_top_bottom == 0 and rows > 150 and bx0 is not None and bx0 >= fx1 + 6 and bx1 - bx0 <= 16
    return ok, ("%d coloured pixels left of the right gutter and outside the field; colour bar %d rows, "
                "columns %s..%s (field ends at %d)" % (left_top_bottom, rows, bx0, bx1, fx1))


def t_labels_outside_field():
    """The gutters above and left of the field hold the tick labels (light
    ink), and the field's edge bands hold the layers' colours only: no label
    drawn over the data."""
    canvas, (fx0, fy0, fx1, fy1) = state["canvas"], state["field"]
    p = canvas.astype(int)
    ink = p.min(axis=-1) > 200
    top_ink = int(ink[:fy0, fx0:fx1].sum())
    left_ink = int(ink[fy0:fy1, :fx0].sum())
    # The layers' colours: those that cover the field's inside.
    inner = p[fy0 + 40: fy1 - 40, fx0 + 60: fx1 - 60].reshape(-1, 3)
    colours, counts = np.unique(inner, axis=0, return_counts=True)
    colours = colours[counts > 0.005 * len(inner)]
    band = np.concatenate([p[fy0: fy0 + 24, fx0:fx1].reshape(-1, 3),
                           p[fy0:fy1, fx0: fx0 + 60].reshape(-1, 3),
                           p[fy1 - 8: fy1, fx0:fx1].reshape(-1, 3),
                           p[fy0:fy1, fx1 - 8: fx1].reshape(-1, 3)])
    dist = np.abs(band[:, None, :] - colours[None, :, :]).max(axis=-1).min(axis=-1)
    foreign = int((dist > 6).sum())
    return (top_ink > 30 and left_ink > 30 and foreign == 0 and 1 <= len(colours) <= 3,
            "label ink: %d px above, %d px left of the field; %d layer colours; "
            "%d pixels of other colours in the field's edge bands" % (top_ink, left_ink, len(colours), foreign))


def t_click_lands():
    """A click places the source on the node under the pointer: the disc is
    drawn where the view maps that node, within the node's snap of the
    pointer."""
    fx0, fy0, fx1, fy1 = state["field"]
    ox, oy = app.canvas_box()[:2]
    sx, sy = ox + fx0 + int(0.3 * (fx1 - fx0)), oy + fy0 + int(0.4 * (fy1 - fy0))
    mx, mz = app.to_model(sx, sy)
    nx, nz = round(mx / SPACING) * SPACING, round(mz / SPACING) * SPACING
    ex, ey = app.to_screen(nx, nz)
    scale = app.view()["scale"]
    job = app.last_job()
    xdo("mousemove", sx, sy)
    xdo("click", 1)
    end = time.time() + 20
    while app.last_job() == job and time.time() < end:
        time.sleep(0.05)
    app.settle_all()
    img = app.stable_shot("03-clicked")
    r = 24
    patch = img[sy - r: sy + r + 1, sx - r: sx + r + 1].astype(int)
    ys, xs = np.nonzero(np.abs(patch - SOURCE_RGB).max(axis=-1) <= 30)
    if len(xs) < 20:
        return False, "only %d source pixels near the click at (%d, %d)" % (len(xs), sx, sy)
    cx, cy = sx - r + xs.mean(), sy - r + ys.mean()
    off_node = np.hypot(cx - ex, cy - ey)
    snap = np.hypot(ex - sx, ey - sy)
    return (app.last_job() != job and off_node <= 1.5 and snap <= 0.75 * SPACING * scale + 1.0,
            "clicked (%d, %d) = model (%.4f, %.4f); node (%.2f, %.2f) at (%d, %d), %.1f px from the "
            "pointer; the disc's centre (%.1f, %.1f) is %.2f px from the node"
            % (sx, sy, mx, mz, nx, nz, ex, ey, snap, cx, cy, off_node))


def source_pixels(canvas):
    return int((np.abs(canvas.astype(int) - SOURCE_RGB).max(axis=-1) <= 30).sum())


def is_selected_rgb(img):
    """The selection's yellow; the top of viridis (253, 231, 37) is not."""
    return np.abs(img.astype(int) - SELECT_RGB).max(axis=-1) <= 8


def selection_pixels(img, sx, sy, r=14):
    """The selection halo's pixels in its ring round the marker at (sx, sy)."""
    patch = is_selected_rgb(img[sy - r: sy + r + 1, sx - r: sx + r + 1])
    yy, xx = np.mgrid[-r: r + 1, -r: r + 1]
    ring = (np.hypot(xx, yy) >= 9) & (np.hypot(xx, yy) <= 13)
    return int((patch & ring).sum())


def t_gutter_press_keeps_selection():
    """The source just placed is selected (a yellow halo); a press in the
    left, top or right gutter is not on the model: the halo stays, as
    does the source."""
    fx0, fy0, fx1, fy1 = state["field"]
    ox, oy = app.canvas_box()[:2]
    img = app.stable_shot()
    canvas = app.canvas(img)
    ys, xs = np.nonzero(np.abs(canvas.astype(int) - SOURCE_RGB).max(axis=-1) <= 30)
    if len(xs) < 20:
        return False, "no source on the canvas"
    sx, sy = ox + int(round(xs.mean())), oy + int(round(ys.mean()))
    before = selection_pixels(img, sx, sy)
    notes = ["selection halo: %d px" % before]
    ok = before > 30
    for where, (px, py) in [("left", (ox + fx0 - 25, sy)), ("top", (sx, oy + fy0 - 12)),
                            ("right", (ox + fx1 + 40, sy))]:
        xdo("mousemove", px, py)
        xdo("mousedown", 1)
        time.sleep(0.1)
        xdo("mouseup", 1)
        time.sleep(0.5)
        img = app.stable_shot("04-gutter-press-%s" % where)
        after = selection_pixels(img, sx, sy)
        notes.append("after a press in the %s gutter at (%d, %d): %d px" % (where, px, py, after))
        ok = ok and after >= 0.8 * before
    return ok, "\n".join(notes)


def t_gutter_click():
    """A click in the left gutter (over a hidden part of the model) places
    nothing: no job starts, no source appears (it may clear the selection,
    as a click on nothing does)."""
    fx0, fy0, fx1, fy1 = state["field"]
    ox, oy = app.canvas_box()[:2]
    sx, sy = ox + fx0 - 25, oy + (fy0 + fy1) // 2
    before = source_pixels(app.canvas(app.stable_shot()))
    job = app.last_job()
    xdo("mousemove", sx, sy)
    xdo("click", 1)
    time.sleep(1.5)
    after = source_pixels(app.canvas(app.stable_shot("04-gutter-click")))
    return app.last_job() == job and after <= before, (
        "click at (%d, %d), %d px left of the field: jobs %d → %d, source pixels %d → %d"
        % (sx, sy, fx0 - (sx - ox), job, app.last_job(), before, after))


check("Ctrl++ zooms about the model's middle in the plot; Ctrl+0 fits again", t_key_zoom)


def field_edges(canvas, row, col):
    """The field's left edge in row and its top edge in column col, in
    canvas pixels (the first coloured pixel from the left and the top)."""
    c = chroma(canvas) > 40
    xs, ys = np.nonzero(c[row, :])[0], np.nonzero(c[:, col])[0]
    return (int(xs[0]) if len(xs) else None), (int(ys[0]) if len(ys) else None)


def t_key_pan():
    """With the picture focused (a middle click on it gives it the keys),
    each arrow key pans it a tenth of the plot: two Left presses and one
    Up move the field right by a fifth of the plot's width and down by a
    tenth of its height, on screen; Right, Right, Down bring the view
    back exactly."""
    ox, oy = app.canvas_box()[:2]
    sx, sy = app.to_screen(1.5, 0.75)
    xdo("mousemove", sx, sy)
    xdo("click", 2)
    time.sleep(0.3)
    v0 = app.view()
    pw = v0["w"] - GUTTERS[0] - GUTTERS[2]
    ph = v0["h"] - GUTTERS[1] - GUTTERS[3]
    row, col = sy - oy, sx - ox
    left0, top0 = field_edges(app.canvas(app.stable_shot("01c-before-key-pan")), row, col)
    for key in ("Left", "Left", "Up"):
        xdo("key", key)
        time.sleep(0.15)
    end = time.time() + 10
    while app.view()["cz"] == v0["cz"] and time.time() < end:
        time.sleep(0.05)
    left1, top1 = field_edges(app.canvas(app.stable_shot("01d-key-panned")), row, col)
    for key in ("Right", "Right", "Down"):
        xdo("key", key)
        time.sleep(0.15)
    end = time.time() + 10
    while app.view()["cz"] != v0["cz"] and time.time() < end:
        time.sleep(0.05)
    v2 = app.view()
    back = abs(v2["cx"] - v0["cx"]) < 1e-9 and abs(v2["cz"] - v0["cz"]) < 1e-9
    ok = (None not in (left0, top0, left1, top1)
          and abs((left1 - left0) - 0.2 * pw) <= 2 and abs((top1 - top0) - 0.1 * ph) <= 2 and back)
    return ok, ("field's left edge %s → %s (a fifth of the plot: %.1f px), top edge %s → %s (a "
                "tenth: %.1f px); back to the view: %s" % (left0, left1, 0.2 * pw, top0, top1,
                                                           0.1 * ph, back))


check("arrow keys pan the focused picture a tenth of the plot a press", t_key_pan)
for name, fn in [
    ("zoomed in with the wheel: the field fills a plot rectangle inside the canvas", t_zoom),
    ("zoomed in: gutters on the left, top and right hold no field", t_gutters),
    ("zoomed in: no field colour outside the field; the colour bar only in the right gutter", t_no_field_in_gutters),
    ("zoomed in: tick labels in the top and left gutters, none over the field's edges", t_labels_outside_field),
    ("zoomed in: a click puts the source on the node under the pointer", t_click_lands),
    ("zoomed in: a press in a gutter keeps the selection", t_gutter_press_keeps_selection),
    ("zoomed in: a click in a gutter places nothing", t_gutter_click),
]:
    if not check(name, fn) and fn is t_zoom:
        break


def t_clean(a):
    def fn():
        a.quit()
        bad = a.bad_stderr()
        return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))
    return fn


check("no GTK warning or critical on stderr (zoom and clicks)", t_clean(app))


def t_small_window():
    """A 640 × 480 window is 640 × 480: the status bar asks for its labels'
    width but does not hold the window to it (they added up to a minimum
    of about 1000 px, past the edge of a small screen).  What gives way is
    the back end, grid and solve labels, ellipsized; the cursor readout at
    the right end stays on the screen, so moving the pointer over the
    canvas changes the status bar's right half (it was the readout that
    went)."""
    import subprocess
    a = App("--geometry", "640x480", name="small-window")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", a.win], capture_output=True,
                             text=True).stdout
        size = dict(l.split("=") for l in geo.split())
        a.stable_shot("40-small-window")
        w, h = int(size["WIDTH"]), int(size["HEIGHT"])
        strips = []
        for x in (0.8, 2.2):                   # two points of the model, 3 × 1.5
            n = len([l for l in a.lines() if " readout " in l])
            xdo("mousemove", *a.to_screen(x, 1.0))
            read = wait_for(lambda: len([l for l in a.lines() if " readout " in l]) > n, 5.0)
            time.sleep(0.5)                    # the X server shows the frame a little later
            img = screenshot("40b-small-window-readout-%d" % len(strips))
            strips.append((read, img[a.wy + h - 26:a.wy + h, a.wx + w // 2:a.wx + w].astype(int)))
        changed = int((np.abs(strips[0][1] - strips[1][1]).max(axis=2) > 60).sum())
        bad = a.bad_stderr()
    finally:
        a.quit()
    return (w <= 660 and h <= 500 and strips[0][0] and strips[1][0] and changed >= 20 and not bad,
            "window %d × %d for --geometry 640x480; readout written %s %s; %d pixels of the status "
            "bar's right half changed with the pointer (the readout on screen: 20 or more); "
            "%d bad stderr lines %s" % (w, h, strips[0][0], strips[1][0], changed, len(bad), bad[:2]))


check("a 640 × 480 window opens that size, the status bar cut but its readout shown", t_small_window)


def t_side_panel_hidden():
    """In a 640 × 480 window F9 hides the side panel and the fitted picture
    takes its room (the model was 110 pixels wide beside it); the main
    menu's Side Panel check item brings it back, and the picture is as
    before.  The window stays 640 wide: a header button for it had widened
    the header bar past the window, cutting off the close button."""
    import subprocess
    a = App("--geometry", "640x480", name="side-panel")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        width0 = a.to_screen(3.0, 0.0)[0] - a.to_screen(0.0, 0.0)[0]
        canvas0 = a.view()["w"]
        xdo("key", "F9")
        wait_for(lambda: a.view()["w"] > canvas0 + 200, 5.0)
        a.settle_all()
        img = a.stable_shot("41-side-panel-hidden")
        width1 = a.to_screen(3.0, 0.0)[0] - a.to_screen(0.0, 0.0)[0]
        canvas1 = a.view()["w"]
        # Where the panel's fields were, the model's right part: viridis'
        # yellow, not the panel's light grey.
        px, py = a.to_screen(2.8, 1.4)
        field_there = px > a.wx + 400 and tuple(int(c) for c in img[py, px][:3]) != (246, 245, 244)
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", a.win], capture_output=True,
                             text=True).stdout
        win_w = int(dict(l.split("=") for l in geo.split())["WIDTH"])
        xdo("mousemove", a.wx + 484, a.wy + 27)  # ☰ at 640 px, then Side Panel
        xdo("click", 1)
        time.sleep(0.6)
        screenshot("41b-side-panel-menu")
        xdo("key", "p")
        wait_for(lambda: abs(a.view()["w"] - canvas0) < 1, 5.0)
        a.settle_all()
        a.stable_shot("41c-side-panel-back")
        width2 = a.to_screen(3.0, 0.0)[0] - a.to_screen(0.0, 0.0)[0]
        bad = a.bad_stderr()
    finally:
        a.quit()
    return (width1 >= 2.5 * width0 and canvas1 >= canvas0 + 250 and field_there and win_w <= 660
            and abs(width2 - width0) <= 1 and not bad,
            "model %d px wide beside the panel, %d without it, %d with it back; canvas %g → %g px; "
            "the field where the panel was %s; window %d wide; bad stderr %s"
            % (width0, width1, width2, canvas0, canvas1, field_there, win_w, bad[:2]))


check("F9 hides the side panel, the picture takes its room; the menu's check brings it back",
      t_side_panel_hidden)


# ------------------------------------------------------------------ session 2
# A source and a receiver on the surface: the ray runs along the model's
# top edge, over the model's frame.
SRC, RCV = (0.3, 0.0), (0.9, 0.0)
edge = App("--source", "%g,%g" % SRC, "--receiver", "%g,%g" % RCV, name="edge")


def t_top_edge_ray():
    """The frame lies in the row just above the model, under the rays and
    markers: on a ray along z = 0 (3 px wide, centred on the edge) and on
    the source's disc there, the rows at and above the edge show the ray
    and the disc, never the frame's light grey."""
    if not edge.find_window():
        return False, "no window"
    edge.settle_all()
    img = edge.stable_shot("05-top-edge-ray")
    sx, sy = edge.to_screen(*SRC)
    rx, _ = edge.to_screen(*RCV)
    rows = img[sy - 3: sy + 1].astype(int)
    ray = rows[:, sx + 20: rx - 20]
    frame_grey = (chroma(ray) < 12) & (ray.min(axis=-1) > 90)
    magenta = RAY(img[sy - 3: sy + 2, sx + 20: rx - 20]).any(axis=0)
    disc = rows[:, sx - 3: sx + 4]
    disc_whole = bool((np.abs(disc - SOURCE_RGB).max(axis=-1) <= 30).all())
    # A close-up for people to look at.
    save_png(np.ascontiguousarray(img[sy - 40: sy + 40, sx - 40: rx + 40]),
             os.path.join(OUT, "05-top-edge-crop.png"))
    return (magenta.mean() > 0.95 and not frame_grey.any() and disc_whole,
            "rows %d..%d between the markers: magenta in %d of %d columns, %d frame-grey pixels; "
            "the source's disc there is whole: %s" % (sy - 3, sy, int(magenta.sum()), len(magenta),
                                                      int(frame_grey.sum()), disc_whole))


check("a ray along the model's top edge is drawn over the frame", t_top_edge_ray)
check("no GTK warning or critical on stderr (top edge)", t_clean(edge))

# ------------------------------------------------------------------ session 2b
# The bundled three-layer scene, its source and ten receivers on the
# surface, which is also the top layer's interface, and no isochrons.  The
# canvas draws the interfaces on the field and the rays and markers over
# them; the exported PNG (the same GL picture) shows the interfaces too.
ROOT = os.environ.get("FOLDRAY_SOURCE_ROOT",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
THREE_LAYER = os.path.join(ROOT, "data", "scenes", "three-layer.json")
RECEIVER_RGB = np.array((51, 217, 255))  # fr-canvas.c receiver_color
OUTLINE_EXPORT = os.path.join(OUT, "outlines-export")
with open(THREE_LAYER) as f:
    three = json.load(f)
shutil.rmtree(OUTLINE_EXPORT, ignore_errors=True)
ol = App(THREE_LAYER, "--interval", "0", name="outlines")
ol_state = {}


def interface_z(layer, x):
    """The interface's depth at x: linear between nodes, level beyond."""
    xs = [n[0] for n in layer["interface"]]
    zs = [n[1] for n in layer["interface"]]
    return float(np.interp(x, xs, zs))


def t_receivers_whole():
    """Each receiver's diamond sits on the surface interface and shows
    whole: its middle rows are the receiver's colour, not crossed by the
    interface's line."""
    if not ol.find_window():
        return False, "no window"
    ol.settle_all()
    img = ol.stable_shot("07-outlines")
    ol_state["img"] = img
    bad = []
    for x, z in three["receivers"]:
        rx, ry = ol.to_screen(x, z)
        patch = img[ry - 1: ry + 2, rx - 3: rx + 4].astype(int)
        if not (np.abs(patch - RECEIVER_RGB).max(axis=-1) <= 40).all():
            bad.append("(%g, %g)" % (x, z))
    save_png(np.ascontiguousarray(img[ry - 30: ry + 60, rx - 200: rx + 30]),
             os.path.join(OUT, "07-outlines-crop.png"))
    return not bad, "%d of %d receivers crossed: %s" % (len(bad), len(three["receivers"]), ", ".join(bad))


def t_surface_ray_over_interface():
    """The direct rays run along the surface, on the top interface: between
    the receivers right of the source they show magenta."""
    img = ol_state.get("img")
    if img is None:
        return False, "no screenshot"
    (x0, z0), (x1, _) = three["receivers"][5], three["receivers"][9]
    ax, ay = ol.to_screen(x0, z0)
    bx, _ = ol.to_screen(x1, z0)
    cols = [c for c in range(ax + 12, bx - 12)
            if all(abs(c - ol.to_screen(x, z0)[0]) > 12 for x, _ in three["receivers"])]
    magenta = RAY(img[ay - 2: ay + 3, cols]).any(axis=0)
    return magenta.mean() > 0.95, "magenta in %d of %d columns along z = 0" % (int(magenta.sum()), len(cols))


def interface_light(img, to_pixel, layers, xs):
    """For each layer below the first and each x: whether a light pixel
    (every channel over 160: the interface's line, 1.5 px wide, may be
    split between two rows) lies within 2 rows of the interface, and none
    lies 8 rows above or below it, in the field."""
    hits, total, field_light, missed = 0, 0, 0, []
    for layer in layers[1:]:
        for x in xs:
            px, py = to_pixel(x, interface_z(layer, x))
            total += 1
            hit = bool((img[py - 2: py + 3, px].min(axis=-1) > 160).any())
            hits += hit
            if not hit:
                missed.append("x = %.2f: %s" % (x, img[py - 3: py + 4, px].tolist()))
            field_light += int(img[py - 8, px].min() > 160) + int(img[py + 8, px].min() > 160)
    return hits, total, field_light, missed


def t_interfaces_drawn():
    """The interfaces below the surface are drawn as light lines on the
    field (no isochrons are drawn, and no ray runs there)."""
    img = ol_state.get("img")
    if img is None:
        return False, "no screenshot"
    hits, total, field_light, missed = interface_light(img, ol.to_screen, three["layers"],
                                                       np.linspace(2.2, 2.9, 8))
    return hits == total and field_light == 0, ("a light line at %d of %d interface points; %d light "
                                                "field pixels beside them %s"
                                                % (hits, total, field_light, "; ".join(missed)))


def t_exported_png_interfaces():
    """The PNG export (the GL picture and the axes) shows the interfaces."""
    ol.quit()
    e = App(THREE_LAYER, "--interval", "0", "--export-on-idle", OUTLINE_EXPORT, name="outlines-export")
    rc = e.wait_exit()
    if rc is None:
        return False, "did not quit after exporting"
    img = read_png(os.path.join(OUTLINE_EXPORT, "canvas.png"))
    v = e.view()

    def to_png(x, z):
        return (int(round((x - v["cx"]) * v["scale"] + v["w"] / 2)),
                int(round((z - v["cz"]) * v["scale"] + v["h"] / 2)))

    hits, total, field_light, missed = interface_light(img, to_png, three["layers"],
                                                       np.linspace(2.2, 2.9, 8))
    return rc == 0 and hits == total and field_light == 0, (
        "exit %d; a light line at %d of %d interface points; %d light field pixels beside them %s"
        % (rc, hits, total, field_light, "; ".join(missed)))


check("the receivers on the surface interface show whole", t_receivers_whole)
check("a ray along the surface interface is drawn over it", t_surface_ray_over_interface)
check("the interfaces are drawn on the field", t_interfaces_drawn)
check("the exported PNG shows the interfaces", t_exported_png_interfaces)
check("no GTK warning or critical on stderr (outlines)", t_clean(ol))


# ------------------------------------------------------------------ status bar
# The three-layer scene at 1200 px, 800 px and the smallest width: the
# cursor readout keeps its whole text, the other labels are ellipsized.

def window_size(a):
    import subprocess
    geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", a.win], capture_output=True,
                         text=True).stdout
    size = dict(l.split("=") for l in geo.split())
    return int(size["WIDTH"]), int(size["HEIGHT"])


def status_runs(a, img, w, h):
    """The runs of text in the status bar along the window's bottom edge,
    as (first, end) columns from the window's left edge: a gap of more
    than 14 px (the labels are 18 px apart, the readout's widest gap is
    two spaces) ends a run."""
    strip = img[a.wy + h - 24:a.wy + h - 3, a.wx:a.wx + w].astype(int)
    bg = np.median(strip.reshape(-1, 3), axis=0)
    cols = np.nonzero((np.abs(strip - bg).max(axis=2) > 80).any(axis=0))[0]
    runs = []
    for c in cols:
        if runs and c - runs[-1][1] <= 14:
            runs[-1][1] = c + 1
        else:
            runs.append([int(c), int(c) + 1])
    return [tuple(r) for r in runs]


def readout_at(a, x, z, name):
    """Moves the pointer to model point (x, z); the readout written and
    a screenshot once it shows."""
    n = len([l for l in a.lines() if " readout " in l])
    xdo("mousemove", *a.to_screen(x, z))
    wait_for(lambda: len([l for l in a.lines() if " readout " in l]) > n, 5.0)
    time.sleep(0.6)                    # the X server shows the frame a little later
    read = [l.split(" readout ", 1)[1] for l in a.lines() if " readout " in l]
    return (read[-1] if len(read) > n else None), screenshot(name)


def t_status_bar_narrow():
    """At 800 px and at the window's smallest width (--geometry 200x150
    opens it at that), the cursor readout shows whole at the right end of
    the status bar, as wide per character as in a 1200 px window and its
    margin clear, and the labels before it give way with an ellipsis: the
    back end, the grid and the solve's line each keep a run of text (the
    solve's line went whole behind the readout below 1000 px, the grid's
    was cut through a glyph, and at the smallest width only the back end's
    start was left)."""
    notes, ok = [], True
    ref = None
    for geometry in ("1200x760", "800x600", "200x150"):
        a = App("--geometry", geometry, os.path.join(ROOT, "data", "scenes", "three-layer.json"),
                name="status-%s" % geometry)
        try:
            if not a.find_window(name="three-layer.json"):
                return False, "no window at %s" % geometry
            a.settle_all()
            w, h = window_size(a)
            read, img = readout_at(a, 2.2, 1.1, "45-status-bar-%d" % w)
            runs = status_runs(a, img, w, h)
            bad = a.bad_stderr()
        finally:
            a.quit()
        last = runs[-1] if runs else (0, 0)
        per_char = (last[1] - last[0]) / max(len(read or ""), 1)
        notes.append("window %d × %d: readout %r, text runs %s" % (w, h, read, runs))
        if ref is None:
            ref = per_char
        ok = (ok and read is not None and len(runs) >= 4 and last[1] <= w - 10
              and abs(per_char - ref) <= 0.03 * ref and not bad)
        if bad:
            notes.append("bad stderr: %s" % bad[:2])
    return ok, "\n".join(notes)


check("the status bar at 1200, 800 px and the smallest width: the readout whole, the rest ellipsized",
      t_status_bar_narrow)


# A laboratory-sized model in mm and mm/s (no unit named): v of 1.5e6 and
# more, written in exponent form, and T of a few 1e-7 s near the source
# (exponent form) to 1e-4 s across (fixed).  In an 800 px window, where the
# labels before the readout are ellipsized, the readout's place is the
# same wherever the pointer is: the labels before it keep their runs of
# text.  The readout was measured for a v of six digits below 1 and a T
# from 0.001 s, and widened (the labels before it shrank) as the pointer
# crossed values printed longer.
LAB_POINTS = [(150.4, 0.4), (150.0, 30.0), (12.0, 60.0), (100.0, 120.0), (290.0, 140.0),
              (149.6, 1.2)]


def t_readout_width_steady():
    path = os.path.join(OUT, "lab.json")
    doc = {"format": "foldray-scene", "version": 1, "title": "lab",
           "grid": {"nx": 301, "nz": 151, "spacing": [1.0, 1.0], "origin": [0.0, 0.0]},
           "default_velocity": 1.5e6,
           "layers": [{"velocity": 1.5e6, "dvdz": 1234.5, "dvdx": 0.0, "interface": [[0, 0], [300, 0]]},
                      {"velocity": 2.5e6, "dvdz": 0.0, "dvdx": 0.0, "interface": [[0, 75], [300, 75]]}],
           "obstacles": [], "sources": [[150.0, 0.0]], "receivers": [],
           "solver": {"radius": 5, "backend": "cpu"}}
    with open(path, "w") as f:
        json.dump(doc, f)
    a = App("--geometry", "800x600", path, name="lab-readout")
    notes, ends, reads = [], [], []
    try:
        if not a.find_window(name="lab.json"):
            return False, "no window"
        a.settle_all()
        w, h = window_size(a)
        for i, (x, z) in enumerate(LAB_POINTS):
            read, img = readout_at(a, x, z, "46-lab-readout-%d" % i)
            runs = status_runs(a, img, w, h)
            reads.append(read)
            ends.append(tuple(runs[:-1]) if len(runs) >= 2 else None)
            notes.append("(%g, %g): readout %r; text runs %s" % (x, z, read, runs))
        bad = a.bad_stderr()
    finally:
        a.quit()
    exponent = [r for r in reads if r and ("e+" in r.split(" v ")[1] or "e-" in r.split(" T ")[1])]
    ok = (None not in reads and len(exponent) >= 3 and None not in ends and len(set(ends)) == 1
          and not bad)
    notes.append("the labels before the readout at %d place(s); %d readouts with a number in "
                 "exponent form" % (len(set(ends)), len(exponent)))
    return ok, "\n".join(notes)


check("the cursor readout keeps its width while v and T print in exponent form", t_readout_width_steady)

# ------------------------------------------------------------------ session 3
# Resizes: a window opened small shows the model whole; made larger, the
# model is fitted again to the new plot.  Once zoomed, a resize keeps the
# view (the model point at the centre, the scale); Ctrl+0 fits again, and
# the next resize fits too.
configure(EXE, OUT, "700x480")
rs = App("--clear", name="resize")


def field_box(a, img):
    """The field's rectangle on the canvas, from its pixels: the leftmost
    run of coloured columns (the colour bar is the other, narrow one)."""
    c = chroma(a.canvas(img)) > 40
    cols = c.any(axis=0)
    x0, x1 = run_through(cols, int(np.argmax(cols)))
    rows = np.nonzero(c[:, x0:x1].any(axis=1))[0]
    return x0, int(rows[0]), x1, int(rows[-1]) + 1


def fitted_size(w, h):
    """The model's size in pixels when fitted into a w × h canvas."""
    bw = w - GUTTERS[0] - GUTTERS[2] - 2 * PAD
    bh = h - GUTTERS[1] - GUTTERS[3] - 2 * PAD
    s = min(bw / MODEL[0], bh / MODEL[1])
    return MODEL[0] * s, MODEL[1] * s


def resize(a, w, h, name):
    """Resizes the window to w × h and waits for the canvas to follow."""
    before = a.view()["w"]
    xdo("windowsize", a.win, w, h)
    end = time.time() + 10
    while a.view()["w"] == before and time.time() < end:
        time.sleep(0.05)
    time.sleep(0.3)
    a.find_window()
    return a.stable_shot(name)


def check_fitted(a, img, what):
    v = a.view()
    x0, y0, x1, y1 = field_box(a, img)
    ew, eh = fitted_size(v["w"], v["h"])
    ok = abs((x1 - x0) - ew) <= 3 and abs((y1 - y0) - eh) <= 3
    return ok, ("%s: canvas %d × %d; the field is %d × %d px at (%d, %d), a fit is %.1f × %.1f"
                % (what, v["w"], v["h"], x1 - x0, y1 - y0, x0, y0, ew, eh))


def t_resize_small():
    if not rs.find_window():
        return False, "no window"
    rs.wait_settled()
    return check_fitted(rs, rs.stable_shot("10-small"), "opened at 700 × 480")


def t_resize_grow():
    """Made larger, the fitted model grows to fill the new plot."""
    img = resize(rs, 1200, 760, "11-grown")
    return check_fitted(rs, img, "grown to 1200 × 760")


def t_resize_keeps_zoom():
    """Zoomed with the wheel at the canvas's centre, then a source placed
    there: a resize keeps the scale and the model point at the centre, so
    the source's disc is at the new centre."""
    x0, y0, x1, y1 = rs.canvas_box()
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    xdo("mousemove", cx, cy)
    time.sleep(0.3)
    scale = rs.view()["scale"]
    for _ in range(3):
        xdo("click", 4)
        time.sleep(0.1)
    end = time.time() + 10
    while rs.view()["scale"] < 1.4 * scale and time.time() < end:
        time.sleep(0.05)
    zoomed = rs.view()["scale"]
    job = rs.last_job()
    xdo("click", 1)
    end = time.time() + 10
    while rs.last_job() == job and time.time() < end:
        time.sleep(0.05)
    rs.settle_all()
    img = resize(rs, 900, 600, "12-zoomed-resized")
    v = rs.view()
    x0, y0, x1, y1 = rs.canvas_box()
    ncx, ncy = (x0 + x1) / 2, (y0 + y1) / 2
    ys, xs = np.nonzero(np.abs(img.astype(int) - SOURCE_RGB).max(axis=-1) <= 30)
    if len(xs) < 20:
        return False, "no source on the screen after the resize"
    dx, dy = xs.mean() - ncx, ys.mean() - ncy
    snap = 0.5 * SPACING * v["scale"] * np.sqrt(2) + 1.5
    ok = abs(v["scale"] - zoomed) < 1e-6 * zoomed and zoomed > 1.4 * scale and np.hypot(dx, dy) <= snap
    return ok, ("scale %.2f fitted, %.2f zoomed, %.2f after the resize to %d × %d; the source is "
                "%.1f px from the canvas's centre (the node's snap allows %.1f)"
                % (scale, zoomed, v["scale"], v["w"], v["h"], np.hypot(dx, dy), snap))


def t_resize_after_fit():
    """Ctrl+0 fits again, and from then on a resize fits too."""
    xdo("key", "ctrl+0")
    time.sleep(0.5)
    ok1, d1 = check_fitted(rs, rs.stable_shot("13-refitted"), "after Ctrl+0")
    img = resize(rs, 1100, 700, "14-refitted-resized")
    ok2, d2 = check_fitted(rs, img, "then resized to 1100 × 700")
    return ok1 and ok2, d1 + "\n" + d2


for name, fn in [
    ("resize: opened small, the model is fitted to the plot", t_resize_small),
    ("resize: made larger, the fitted model is fitted again", t_resize_grow),
    ("resize: zoomed in, a resize keeps the scale and the point at the centre", t_resize_keeps_zoom),
    ("resize: after Ctrl+0, a resize fits again", t_resize_after_fit),
]:
    check(name, fn)
check("no GTK warning or critical on stderr (resizes)", t_clean(rs))
configure(EXE, OUT, "1200x760")

# ------------------------------------------------------------------ session 4
# Model-edit mode on the three-layer scene with a slow obstacle near the
# left edge: the wheel over a layer scales its top velocity (one undo
# step), Ctrl+wheel zooms; zoomed in, the obstacle's outline and handles
# stay out of the left gutter; a press in a gutter keeps the selected
# obstacle selected, and the rectangle tool starts nothing there.
EDIT_SCENE = os.path.join(OUT, "edit-scene.json")
LAYER_POINT = (1.5, 0.7)                 # in the second layer (v = 2.5)
OBSTACLE = [(0.1, 0.6), (0.5, 0.6), (0.5, 0.9), (0.1, 0.9)]
ZOOM_AT = (0.3, 0.75)                    # in the obstacle
VELOCITY_STEP = 1.03                     # fr-editor.c, one wheel step
est = {}


def write_edit_scene():
    root = os.environ.get("FOLDRAY_SOURCE_ROOT",
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    with open(os.path.join(root, "data", "scenes", "three-layer.json")) as f:
        scene = json.load(f)
    scene["sources"], scene["receivers"] = [], []
    scene["obstacles"] = [{"shape": "polygon", "velocity": 1.0, "vertices": [list(v) for v in OBSTACLE]}]
    scene["title"] = "editor layout test"
    with open(EDIT_SCENE, "w") as f:
        json.dump(scene, f)


def saved_scene(a):
    """Saves with Ctrl+S (the window's own file) and reads it back."""
    mtime = os.path.getmtime(EDIT_SCENE)
    xdo("key", "ctrl+s")
    end = time.time() + 10
    while os.path.getmtime(EDIT_SCENE) == mtime and time.time() < end:
        time.sleep(0.05)
    time.sleep(0.1)
    with open(EDIT_SCENE) as f:
        return json.load(f)


def wait_jobs_settle(a, job, timeout=10.0):
    end = time.time() + timeout
    while a.last_job() == job and time.time() < end:
        time.sleep(0.05)
    a.settle_all()


write_edit_scene()
ed = App(EDIT_SCENE, name="edit")


def t_edit_open():
    if not ed.find_window():
        return False, "no window"
    ed.settle_all()
    xdo("key", "ctrl+m")
    time.sleep(0.4)
    img = ed.stable_shot("20-editing")
    amber = int(AMBER(ed.canvas(img)).sum())
    return amber > 100, "%d amber pixels (the slow obstacle's outline and handles)" % amber


def t_wheel_scales_layer():
    """With the Select tool, three wheel steps up over the second layer
    scale its top velocity by 1.03³ and recolour it, the view unchanged;
    Ctrl+Z takes the whole burst back."""
    px, py = ed.to_screen(*LAYER_POINT)
    xdo("mousemove", px, py)
    time.sleep(0.3)
    scale = ed.view()["scale"]
    colour0 = ed.stable_shot()[py, px].astype(int)
    job = ed.last_job()
    for _ in range(3):
        xdo("click", 4)
        time.sleep(0.15)
    wait_jobs_settle(ed, job)
    time.sleep(0.8)                      # the burst ends (one undo step)
    img = ed.stable_shot("21-wheel-over-layer")
    colour1 = img[py, px].astype(int)
    v1 = saved_scene(ed)["layers"][1]["velocity"]
    job = ed.last_job()
    xdo("key", "ctrl+z")
    wait_jobs_settle(ed, job)
    colour2 = ed.stable_shot("22-wheel-undone")[py, px].astype(int)
    v2 = saved_scene(ed)["layers"][1]["velocity"]
    want = 2.5 * VELOCITY_STEP ** 3
    ok = (abs(v1 - want) < 1e-3 and abs(v2 - 2.5) < 1e-9 and ed.view()["scale"] == scale
          and np.abs(colour1 - colour0).max() > 10 and np.abs(colour2 - colour0).max() <= 2)
    return ok, ("velocity 2.5 → %.5f after three steps (want %.5f), %.5f after Ctrl+Z; scale %.3f → %.3f; "
                "colour %s → %s → %s" % (v1, want, v2, scale, ed.view()["scale"], list(colour0),
                                          list(colour1), list(colour2)))


def t_wheel_undo_at_once():
    """Ctrl+Z straight after three wheel steps, while the burst still waits
    for more: the whole burst is undone, and nothing is left open (a
    fourth step after it is one new undo step, which Ctrl+Z takes back
    too)."""
    px, py = ed.to_screen(*LAYER_POINT)
    xdo("mousemove", px, py)
    time.sleep(0.3)
    job = ed.last_job()
    for _ in range(3):
        xdo("click", 4)
        time.sleep(0.1)
    xdo("key", "ctrl+z")                 # well within the burst's 600 ms
    wait_jobs_settle(ed, job)
    time.sleep(0.8)
    v_undone = saved_scene(ed)["layers"][1]["velocity"]
    job = ed.last_job()
    xdo("click", 4)
    wait_jobs_settle(ed, job)
    time.sleep(0.8)
    v_step = saved_scene(ed)["layers"][1]["velocity"]
    job = ed.last_job()
    xdo("key", "ctrl+z")
    wait_jobs_settle(ed, job)
    v_back = saved_scene(ed)["layers"][1]["velocity"]
    ok = (abs(v_undone - 2.5) < 1e-9 and abs(v_step - 2.5 * VELOCITY_STEP) < 1e-3
          and abs(v_back - 2.5) < 1e-9)
    return ok, ("after three steps and an immediate Ctrl+Z %.5f (want 2.5); one more step %.5f; "
                "Ctrl+Z %.5f" % (v_undone, v_step, v_back))


def t_ctrl_wheel_zooms():
    """Ctrl+wheel over the obstacle zooms about the pointer and edits
    nothing."""
    px, py = ed.to_screen(*ZOOM_AT)
    xdo("mousemove", px, py)
    time.sleep(0.3)
    scale = ed.view()["scale"]
    job = ed.last_job()
    xdo("keydown", "ctrl")
    for _ in range(8):
        xdo("click", 4)
        time.sleep(0.05)
    xdo("keyup", "ctrl")
    end = time.time() + 10
    while ed.view()["scale"] < 2.5 * scale and time.time() < end:
        time.sleep(0.05)
    time.sleep(0.5)
    est["img"] = ed.stable_shot("23-ctrl-wheel-zoomed")
    qx, qy = ed.to_screen(*ZOOM_AT)
    ok = ed.view()["scale"] > 2.5 * scale and ed.last_job() == job and abs(qx - px) <= 1 and abs(qy - py) <= 1
    return ok, ("scale %.2f → %.2f; jobs %d → %d; the point under the pointer moved by (%d, %d) px"
                % (scale, ed.view()["scale"], job, ed.last_job(), qx - px, qy - py))


def plot_edges(canvas):
    """The plot's left and top edges on a zoomed-in canvas, from the
    field's pixels: the typical first coloured column of a row, and first
    coloured row of a column (a stray overlay pixel in a gutter moves
    neither)."""
    c = chroma(canvas) > 40
    h, w = c.shape
    firsts = [int(np.argmax(c[y, : w // 2])) for y in range(h) if c[y, : w // 2].any()]
    tops = [int(np.argmax(c[: h // 2, x])) for x in range(w // 2) if c[: h // 2, x].any()]
    return int(np.median(firsts)), int(np.median(tops))


def t_overlay_clipped():
    """Zoomed in so the obstacle's left side lies under the left gutter:
    its outline and handles stop at the plot's edge, none in the gutter."""
    canvas = ed.canvas(est["img"])
    fx0, fy0 = plot_edges(canvas)
    amber = AMBER(canvas)
    ox = ed.canvas_box()[0]
    left_x, _ = ed.to_screen(OBSTACLE[0][0], OBSTACLE[0][1])
    in_gutters = int(amber[:, : fx0].sum() + amber[: fy0, :].sum())
    in_plot = int(amber[fy0:, fx0:].sum())
    ok = left_x - ox < fx0 - 10 and in_gutters == 0 and in_plot > 100
    return ok, ("plot from column %d, row %d; the obstacle's left side at column %d; amber pixels: "
                "%d in the gutters, %d in the plot" % (fx0, fy0, left_x - ox, in_gutters, in_plot))


def t_edit_gutter_press():
    """The obstacle, selected by a press inside it, stays selected (its
    outline yellow) through a press in the left gutter beside the layer
    below it, and a drag from the gutter over its hidden part does not
    move it."""
    px, py = ed.to_screen(*ZOOM_AT)
    xdo("mousemove", px, py)
    xdo("click", 1)
    time.sleep(0.5)
    canvas = ed.canvas(ed.stable_shot("24-obstacle-selected"))
    fx0, _ = plot_edges(canvas)
    ox, oy = ed.canvas_box()[:2]

    def sel(c):
        # The outline's top and bottom sides, over the layer's colours.
        rows = [ed.to_screen(OBSTACLE[0][0], z)[1] - oy for z in (OBSTACLE[0][1], OBSTACLE[2][1])]
        x1 = ed.to_screen(OBSTACLE[1][0], 0.0)[0] - ox
        return int(sum(is_selected_rgb(c[r - 3: r + 4, fx0: x1 - 4]).sum() for r in rows))

    before = sel(canvas)
    vertices = saved_scene(ed)["obstacles"][0]["vertices"]
    gx, gy = ox + fx0 - 20, ed.to_screen(0.0, OBSTACLE[2][1] + 0.05)[1]
    xdo("mousemove", gx, gy)
    xdo("mousedown", 1)
    time.sleep(0.1)
    xdo("mouseup", 1)
    time.sleep(0.5)
    after = sel(ed.canvas(ed.stable_shot("25-edit-gutter-press")))
    # Over the obstacle's hidden left part: a drag 60 px to the right.
    xdo("mousemove", gx, py)
    xdo("mousedown", 1)
    for t in range(1, 7):
        xdo("mousemove", gx + 10 * t, py)
        time.sleep(0.05)
    xdo("mouseup", 1)
    time.sleep(0.5)
    moved = saved_scene(ed)["obstacles"][0]["vertices"] != vertices
    after_drag = sel(ed.canvas(ed.stable_shot("25-edit-gutter-drag")))
    return before > 200 and after >= 0.8 * before and after_drag >= 0.8 * before and not moved, (
        "selected outline: %d yellow px; after a press at (%d, %d) in the left gutter: %d; after a drag "
        "from (%d, %d): %d, the obstacle %s" % (before, gx, gy, after, gx, py, after_drag,
                                                "moved" if moved else "in place"))


def t_rectangle_from_gutter():
    """The rectangle tool (Ctrl+R): a drag that starts in the left gutter
    makes no obstacle; one from the plot ending in the gutter makes one
    that stops at the plot's edge."""
    xdo("key", "ctrl+r")
    time.sleep(0.3)
    canvas = ed.canvas(ed.stable_shot())
    fx0, fy0 = plot_edges(canvas)
    ox, oy = ed.canvas_box()[:2]
    h = canvas.shape[0]
    y0, y1 = oy + fy0 + 40, oy + fy0 + 40 + (h - fy0) // 3
    xdo("mousemove", ox + fx0 - 30, y0)
    xdo("mousedown", 1)
    for t in range(1, 6):
        xdo("mousemove", ox + fx0 - 30 + 40 * t, y0 + (y1 - y0) * t // 5)
        time.sleep(0.05)
    xdo("mouseup", 1)
    time.sleep(0.5)
    n_from_gutter = len(saved_scene(ed)["obstacles"])
    xdo("mousemove", ox + fx0 + 170, y0)
    xdo("mousedown", 1)
    for t in range(1, 6):
        xdo("mousemove", ox + fx0 + 170 - 40 * t, y0 + (y1 - y0) * t // 5)
        time.sleep(0.05)
    xdo("mouseup", 1)
    time.sleep(0.5)
    obstacles = saved_scene(ed)["obstacles"]
    ed.stable_shot("26-rectangle-to-gutter")
    edge_x, _ = ed.to_model(ox + fx0, y0)
    xs = [v[0] for v in obstacles[-1]["vertices"]] if len(obstacles) == 2 else [float("nan")]
    xdo("key", "ctrl+m")
    ok = n_from_gutter == 1 and len(obstacles) == 2 and abs(min(xs) - edge_x) < 2.0 / ed.view()["scale"]
    return ok, ("%d obstacle(s) after a drag from the gutter, %d after one into it; the new one's left "
                "side at x = %.4f, the plot's edge at x = %.4f" % (n_from_gutter, len(obstacles),
                                                                  min(xs), edge_x))


for name, fn in [
    ("edit mode: the slow obstacle's outline and handles show", t_edit_open),
    ("edit mode: the wheel over a layer scales its velocity; Ctrl+Z undoes the burst", t_wheel_scales_layer),
    ("edit mode: Ctrl+Z during a wheel burst undoes the whole burst", t_wheel_undo_at_once),
    ("edit mode: Ctrl+wheel zooms and edits nothing", t_ctrl_wheel_zooms),
    ("edit mode, zoomed in: the editor's overlay stays out of the gutters", t_overlay_clipped),
    ("edit mode: a press in a gutter keeps the selected obstacle", t_edit_gutter_press),
    ("edit mode: the rectangle tool starts nothing in a gutter and stops at the plot's edge",
     t_rectangle_from_gutter),
]:
    if not check(name, fn) and fn is t_edit_open:
        break
check("no GTK warning or critical on stderr (model editing)", t_clean(ed))

# ------------------------------------------------------------------ clip
# Folds mode on a scene whose starting horizon runs from x = -0.5 to 3.5
# and whose slow obstacle reaches from x = 2.4 to 3.5, past the model's
# right edge (x from 0 to 3): zoomed out with the wheel, the plot shows
# room around the model, and neither the horizon nor the obstacle's
# outline is drawn there, on the canvas, in the exported PNG or in the
# PDF figure, as the field, the interfaces and the folded horizons are
# not.  The horizon's nodes off the model keep their handles on the
# canvas, where they can be grabbed and brought back.
CLIP_DIR = os.path.join(OUT, "clip")
CLIP_H = [(-0.5, 0.8), (0.8, 0.55), (1.5, 0.7), (2.2, 0.55), (3.5, 0.8)]
ORANGE = lambda img: ((img[..., 0] > 200) & (img[..., 1] > 100) & (img[..., 1] < 200)
                      & (img[..., 2] < 90))   # the horizon and a slow obstacle's outline
EXPORT_BUTTON = (978, 27)                     # window-relative, in the header bar


def clip_scene(s):
    s["mode"] = "folds"
    s["fold"] = {"horizon": [list(p) for p in CLIP_H], "backend": "cpu"}
    s["obstacles"] = [{"shape": "rectangle", "velocity": 0.8,
                       "vertices": [[2.4, 1.1], [3.5, 1.1], [3.5, 1.35], [2.4, 1.35]]}]


def orange_outside(img, box, keep=(), grow=2, radius=10):
    """The horizon- or obstacle-coloured pixels of img outside box
    (x0, y0, x1, y1), grown by grow px, less those within radius px of a
    point of keep (the horizon's handles)."""
    mask = ORANGE(img).copy()
    x0, y0, x1, y1 = box
    mask[max(0, int(y0) - grow):int(y1) + grow + 1, max(0, int(x0) - grow):int(x1) + grow + 1] = False
    ys, xs = np.nonzero(mask)
    for kx, ky in keep:
        far = np.hypot(xs - kx, ys - ky) > radius
        xs, ys = xs[far], ys[far]
    return len(xs)


def export_via_menu(a, keys, out, menu=True):
    """Export → the item that keys reach (a mnemonic), or keys alone (an
    accelerator) without the menu; the path typed into the chooser.
    Whether the file was written."""
    if menu:
        xdo("mousemove", a.wx + EXPORT_BUTTON[0], a.wy + EXPORT_BUTTON[1])
        xdo("click", 1)
        time.sleep(0.6)
    for k in keys:
        xdo("key", k)
        time.sleep(0.2)
    shown = wait_for(lambda: run_ok("xdotool", "search", "--onlyvisible", "--name", "^Export$"), 5.0)
    time.sleep(0.5)
    xdo("key", "ctrl+a")
    xdo("type", out)
    xdo("key", "Return")
    return shown and wait_for(lambda: os.path.exists(out), 20.0)


def run_ok(*args):
    import subprocess
    return subprocess.run(list(args), capture_output=True, text=True).stdout.strip() != ""


def picture_field_box(img):
    """The model's rectangle in a picture, from its pixels: the widest run
    of columns holding the field's colours (the colour bar is a narrow
    one), and its rows; the horizon's and obstacle's colours left out."""
    p = img.astype(int)
    c = ((p.max(axis=-1) - p.min(axis=-1)) > 40) & ~ORANGE(img)
    cols = c.sum(axis=0) > 20
    runs, start = [], None
    for i, v in enumerate(list(cols) + [False]):
        if v and start is None:
            start = i
        elif not v and start is not None:
            runs.append((start, i))
            start = None
    x0, x1 = max(runs, key=lambda r: r[1] - r[0])
    rows = np.nonzero(c[:, x0:x1].sum(axis=1) > 20)[0]
    return x0, int(rows[0]), x1 - 1, int(rows[-1])


def t_clip_to_model():
    os.makedirs(CLIP_DIR, exist_ok=True)
    path = scene_variant(os.path.join(CLIP_DIR, "clip.json"), clip_scene)
    png, pdf = os.path.join(CLIP_DIR, "clip.png"), os.path.join(CLIP_DIR, "clip.pdf")
    for f in (png, pdf):
        if os.path.exists(f):
            os.remove(f)
    a = App(path, name="clip")
    notes = []
    try:
        if not a.find_window(name="clip.json"):
            return False, "no window"
        a.settle_all()
        x0, y0, x1, y1 = a.canvas_box()
        xdo("mousemove", (x0 + x1) // 2, (y0 + y1) // 2)
        scale = a.view()["scale"]
        for _ in range(3):                    # zoom out: room round the model
            xdo("click", 5)
            time.sleep(0.15)
        wait_for(lambda: a.view()["scale"] < 0.7 * scale, 10.0)
        a.settle_all()
        xdo("mousemove", x1 - 5, y1 - 5)      # off the model: no readout over the picture
        img = a.stable_shot("50-clip-canvas")
        mx0, my0 = a.to_screen(-0.005, -0.005)
        mx1, my1 = a.to_screen(3.005, 1.505)
        nodes = [a.to_screen(*p) for p in CLIP_H]
        outside = orange_outside(img, (mx0, my0, mx1, my1), keep=nodes)
        inside = int(ORANGE(img[my0:my1, mx0:mx1]).sum())
        handles = all(ORANGE(img[y - 3:y + 4, x - 3:x + 4]).any() for x, y in nodes)
        notes.append("canvas (scale %.0f from %.0f): the model at (%d, %d)-(%d, %d); %d orange "
                     "pixels inside it, %d outside away from the nodes; node handles drawn %s"
                     % (a.view()["scale"], scale, mx0, my0, mx1, my1, inside, outside, handles))
        ok = inside > 300 and outside == 0 and handles

        wrote_png = export_via_menu(a, ["ctrl+e"], png, menu=False)   # Picture (PNG)…
        wrote_pdf = export_via_menu(a, ["d"], pdf)                     # Figure (P_DF)…
        bad = a.bad_stderr()
    finally:
        a.quit()
    notes.append("PNG written %s, PDF written %s" % (wrote_png, wrote_pdf))
    ok = ok and wrote_png and wrote_pdf and not bad
    if wrote_png:
        pic = read_png(png)
        save_png(pic, os.path.join(OUT, "51-clip-export.png"))
        box = picture_field_box(pic)
        out_png = orange_outside(pic, box)
        notes.append("PNG %d × %d: field at %s, %d orange pixels inside, %d outside"
                     % (pic.shape[1], pic.shape[0], box,
                        int(ORANGE(pic[box[1]:box[3], box[0]:box[2]]).sum()), out_png))
        ok = ok and out_png == 0
    if wrote_pdf:
        import subprocess
        subprocess.run(["pdftoppm", "-r", "144", "-png", "-singlefile", pdf,
                        os.path.join(CLIP_DIR, "clip-pdf")], check=True)
        fig = read_png(os.path.join(CLIP_DIR, "clip-pdf.png"))
        save_png(fig, os.path.join(OUT, "52-clip-figure-pdf.png"))
        box = picture_field_box(fig)
        out_pdf = orange_outside(fig, box, grow=3)
        notes.append("PDF at 144 dpi %d × %d: field at %s, %d orange pixels inside, %d outside"
                     % (fig.shape[1], fig.shape[0], box,
                        int(ORANGE(fig[box[1]:box[3], box[0]:box[2]]).sum()), out_pdf))
        ok = ok and out_pdf == 0
    if bad:
        notes.append("bad stderr: %s" % bad[:2])
    return ok, "\n".join(notes)


check("folds: the starting horizon and an obstacle's outline stop at the model's edge "
      "(canvas, PNG, PDF figure)", t_clip_to_model)


# ------------------------------------------------------------------ edge
# Lines lying on the model's edge show their whole width: the clip at the
# edge grows by half each line's width.  In Folds mode a starting horizon
# along the model's top edge (z = -0.005, the cells' outer edge) is as
# thick as it is drawn, 3.5 px on the canvas and in the exported PNG (3 or
# 4 rows of orange, by where it falls on the pixels), 2 points in the PDF
# figure (4 rows at 144 dpi); the clip at the edge cut it down the middle
# (2 rows).
EDGE_DIR = os.path.join(OUT, "edge-lines")
EDGE_Z = -SPACING / 2                        # the model's top edge


def edge_scene(s):
    s["mode"] = "folds"
    s["fold"] = {"horizon": [[0.2, EDGE_Z], [2.8, EDGE_Z]], "backend": "cpu"}
    s["sources"], s["receivers"] = [], []


def thickness(img, cols, row):
    """The median count, over columns cols, of orange pixels within 8 rows
    of row."""
    mask = ORANGE(img)
    return float(np.median([int(mask[max(0, row - 8):row + 8, c].sum()) for c in cols]))


def t_edge_lines_whole():
    os.makedirs(EDGE_DIR, exist_ok=True)
    path = scene_variant(os.path.join(EDGE_DIR, "edge.json"), edge_scene)
    png, pdf = os.path.join(EDGE_DIR, "edge.png"), os.path.join(EDGE_DIR, "edge.pdf")
    for f in (png, pdf):
        if os.path.exists(f):
            os.remove(f)
    a = App(path, name="edge-lines")
    notes = []
    try:
        if not a.find_window(name="edge.json"):
            return False, "no window"
        a.settle_all()
        x0, y0, x1, y1 = a.canvas_box()
        xdo("mousemove", x1 - 5, y1 - 5)      # off the model: no readout over the picture
        img = a.stable_shot("55-edge-horizon-canvas")
        ey = a.to_screen(1.5, EDGE_Z)[1]
        rows = thickness(img, range(a.to_screen(0.5, 0)[0], a.to_screen(2.5, 0)[0]), ey)
        notes.append("canvas: the horizon along the top edge (row %d) %.0f rows thick" % (ey, rows))
        ok = rows >= 3
        # The folded horizons below it are level (ψa = 0): along x = 0.5 .. 1
        # (clear of their rounded ends and of the interface), every row of
        # pixels from z = 0.3 to 0.75 is one colour.  Drawn as one capsule a
        # cell, their antialiased fringes blended twice at each joint, and
        # those rows were dotted, varying by up to 198 (of 765, R + G + B).
        (lx0, ly0), (lx1, ly1) = a.to_screen(0.5, 0.3), a.to_screen(1.0, 0.75)
        band = img[ly0:ly1, lx0:lx1].astype(int).sum(axis=2)
        spread = int((band.max(axis=1) - band.min(axis=1)).max())
        notes.append("canvas: level folded horizons, rows %d..%d over columns %d..%d: "
                     "largest spread along a row %d" % (ly0, ly1, lx0, lx1, spread))
        ok = ok and spread <= 12
        wrote_png = export_via_menu(a, ["ctrl+e"], png, menu=False)   # Picture (PNG)…
        wrote_pdf = export_via_menu(a, ["d"], pdf)                     # Figure (P_DF)…
        bad = a.bad_stderr()
    finally:
        a.quit()
    notes.append("PNG written %s, PDF written %s" % (wrote_png, wrote_pdf))
    ok = ok and wrote_png and wrote_pdf and not bad
    for f, name, dpi in ((png, "57-edge-export", None), (pdf, "58-edge-figure-pdf", 144)):
        if not os.path.exists(f):
            continue
        if dpi:
            import subprocess
            subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", f,
                            os.path.join(EDGE_DIR, "edge-pdf")], check=True)
            f = os.path.join(EDGE_DIR, "edge-pdf.png")
        pic = read_png(f)
        save_png(pic, os.path.join(OUT, name + ".png"))
        bx0, by0, bx1, by1 = picture_field_box(pic)
        w = bx1 - bx0
        rows = thickness(pic, range(bx0 + w // 5, bx1 - w // 5), by0)
        notes.append("%s: field at %s, the horizon along its top %.0f rows thick"
                     % (name, (bx0, by0, bx1, by1), rows))
        ok = ok and rows >= (4 if dpi else 3)
    if bad:
        notes.append("bad stderr: %s" % bad[:2])
    return ok, "\n".join(notes)


check("a starting horizon lying on the model's top edge shows its whole width "
      "(canvas, PNG, PDF figure); the level folded horizons are not dotted", t_edge_lines_whole)


# ------------------------------------------------------------------ a long line
# A grid wider than the GL's largest texture (16384 on llvmpipe): a seismic
# line of 20 000 traces drew no field at all, as GL refused its textures.


def t_line_wider_than_texture():
    """A 20 000 × 40 node velocity grid (1 on the left half, 3 on the right)
    with a source and isochrons every 5: the exported picture shows its
    field, the colour map's dark end on the left and its light end on the
    right, and the isochrons, light lines on the dark half."""
    d = os.path.join(OUT, "long-line")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    v = np.ones((40, 20000), np.float32)
    v[:, 10000:] = 3.0
    npy = os.path.join(d, "line.npy")
    np.save(npy, v)
    with open(os.path.join(d, "line.json"), "w") as f:
        json.dump({"spacing": [0.01, 0.5]}, f)
    a = App(npy, "--source", "50,0", "--interval", "5", "--export-on-idle", os.path.join(d, "export"),
            name="long-line")
    rc = a.wait_exit(timeout=180)
    png = os.path.join(d, "export", "canvas.png")
    if rc != 0 or not os.path.exists(png):
        return False, "exit %s; picture written %s" % (rc, os.path.exists(png))
    img = read_png(png).astype(int)
    save_png(img.astype(np.uint8), os.path.join(OUT, "59-long-line.png"))
    view = a.view()
    h, w, _ = img.shape

    def px(x, z):
        return (int(round((x - view["cx"]) * view["scale"] + view["w"] / 2)),
                int(round((z - view["cz"]) * view["scale"] + view["h"] / 2)))

    def band(x0, x1):
        """The field's pixels over x0..x1 at mid-depth, in a band of rows."""
        (c0, r), (c1, _) = px(x0, 10.0), px(x1, 10.0)
        return img[max(r - 3, 0):r + 4, c0:c1].reshape(-1, 3)

    left, right = np.median(band(5.0, 45.0), axis=0), np.median(band(160.0, 190.0), axis=0)
    # viridis: (68, 1, 84) at its low end, (253, 231, 37) at its high end.
    dark_left = left[0] < 110 and left[1] < 80 and left[2] > 60
    light_right = right[0] > 180 and right[1] > 170 and right[2] < 120
    # Isochrons at 5, 10, … from x = 50 on the left: light pixels.
    light = int((band(5.0, 45.0).min(axis=1) > 150).sum())
    return (dark_left and light_right and light > 20,
            "exit %d, %d × %d picture; median colour on the left %s, on the right %s; "
            "%d light isochron pixels on the left" % (rc, w, h, left.round().tolist(),
                                                       right.round().tolist(), light))


check("a grid wider than the largest GL texture still shows its field", t_line_wider_than_texture)


def t_line_every_trace():
    """The same 20 000-trace line with the velocity alternating trace by
    trace (1 on even traces, 3 on odd ones), zoomed in until a trace is
    several pixels wide: both velocities show side by side across the
    picture.  The field was drawn from every other trace past the GL's
    largest texture, so only the even traces' 1 showed."""
    d = os.path.join(OUT, "long-line-traces")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    v = np.ones((40, 20000), np.float32)
    v[:, 1::2] = 3.0
    npy = os.path.join(d, "line.npy")
    np.save(npy, v)
    with open(os.path.join(d, "line.json"), "w") as f:
        json.dump({"spacing": [0.01, 0.5]}, f)
    a = App(npy, "--clear", name="long-line-traces")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        scale0 = a.view()["scale"]
        for _ in range(20):                    # 1.25^20 ≈ 87: a trace about 3 px wide
            xdo("key", "ctrl+plus")
            time.sleep(0.1)
        wait_for(lambda: a.view()["scale"] > 80 * scale0, 10.0)
        img = a.stable_shot("60-long-line-traces").astype(int)
        px_per_trace = a.view()["scale"] * 0.01
        x0, y0, x1, y1 = a.canvas_box()
        row = img[(y0 + y1) // 2, x0 + GUTTERS[0] + 20:x1 - GUTTERS[2] - 20]
        bad = a.bad_stderr()
    finally:
        a.quit()
    # viridis: (68, 1, 84) at its low end (1), (253, 231, 37) at its high end (3).
    dark = int(((row[:, 0] < 110) & (row[:, 1] < 80)).sum())
    light = int(((row[:, 0] > 180) & (row[:, 1] > 170)).sum())
    n = len(row)
    return (px_per_trace >= 2.5 and dark > 0.3 * n and light > 0.3 * n and not bad,
            "%.1f px a trace; across %d px of the picture %d dark (v = 1), %d light (v = 3); "
            "bad stderr %s" % (px_per_trace, n, dark, light, bad[:2]))


check("zoomed in, a grid wider than the largest GL texture shows every trace", t_line_every_trace)


print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
