#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of the canvas's plot layout (app/fr-plot-layout.c) under a real
X server (run it inside xvfb-run): the field stays in the plot rectangle,
the axes' labels and the colour bar in the gutters around it, at the fitted
view and zoomed in with the mouse wheel; a click lands on the model point
under it and a click in a gutter places nothing; a ray along the model's
top edge stays visible over the model's frame.  Real input through
xdotool, the screen read with ImageMagick's `import`, checked by pixels.
Speaks TAP.

Usage: gui-layout-test.py FOLDRAY_EXE OUT_DIR

The field's rectangle is found in the pixels, not taken from the code's
constants: zoomed in, it is the run of non-background pixels through the
canvas's middle.  The harness (App, screenshots, TAP) is guilib.py."""

import os
import sys
import tempfile
import time

import numpy as np

from guilib import App, check, configure, results, save_png, xdo

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-layout-")
os.makedirs(OUT, exist_ok=True)
configure(EXE, OUT, "1200x760")

SOURCE_RGB = np.array((255, 77, 20))   # fr-canvas.c source_color
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
    above it, and the colour bar right of it, clear of it."""
    img = app.stable_shot("01-fitted")
    canvas = app.canvas(img)
    h, w, _ = canvas.shape
    x0, y0, x1, y1 = model_box(app)
    rows, bx0, bx1 = colour_bar(canvas, x1 + 2)
    ok = (x0 >= 40 and y0 >= 20 and x1 <= w - 70 and y1 <= h
          and rows > 150 and bx0 is not None and bx0 >= x1 + 6 and bx1 - bx0 <= 16)
    return ok, ("model at x %d..%d, y %d..%d on a %d × %d canvas; colour bar %d rows, columns %s..%s"
                % (x0, x1, y0, y1, w, h, rows, bx0, bx1))


if not check("window opens on the three-layer model", t_window):
    app.quit()
    print("1..%d" % len(results), flush=True)
    sys.exit(1)
check("fitted: the whole model shows, clear of the labels' and the colour bar's room", t_fitted)


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


for name, fn in [
    ("zoomed in with the wheel: the field fills a plot rectangle inside the canvas", t_zoom),
    ("zoomed in: gutters on the left, top and right hold no field", t_gutters),
    ("zoomed in: no field colour outside the field; the colour bar only in the right gutter", t_no_field_in_gutters),
    ("zoomed in: tick labels in the top and left gutters, none over the field's edges", t_labels_outside_field),
    ("zoomed in: a click puts the source on the node under the pointer", t_click_lands),
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

print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
