#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of the side panels (the wheel over their fields, the layer and
obstacle fields, the display and solver settings saved with the scene
and saved back as the scene gave them, the linked Extent, Nodes and
Spacing rows, the marker list), the colour
bar, the cursor readout, the status bar and the application's stderr,
under a real X server (run it inside xvfb-run).  Real input through
xdotool, the screen read with ImageMagick's `import`, checks by pixels, by
the frame log and by the saved file.  Speaks TAP.

Usage: gui-panels-test.py FOLDRAY_EXE OUT_DIR [cuda|no-cuda]

The harness (App, screenshots, TAP) is guilib.py, shared with gui-test.py.  The panel
positions are those of the window at GEOMETRY with the bundled
three-layer scene; the window sits at the screen's top-left corner."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from guilib import (App, check, click, configure, results, run, scene_variant, screenshot, type_into,
                    wait_for, xdo)

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-panels-")
os.makedirs(OUT, exist_ok=True)
GEOMETRY = "1200x760"
configure(EXE, OUT, GEOMETRY)
# Whether the build has CUDA (meson says; else guess from the libraries).
CUDA_BUILT = (sys.argv[3] == "cuda" if len(sys.argv) > 3 else
              "libcudart" in subprocess.run(["ldd", EXE], capture_output=True, text=True).stdout)
ROOT = os.environ.get("FOLDRAY_SOURCE_ROOT",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCENE = os.path.join(ROOT, "data", "scenes", "three-layer.json")


def reddish(img, box):
    x0, y0, x1, y1 = box
    p = img[y0:y1, x0:x1].astype(int)
    return int(((p[..., 0] > 170) & (p[..., 1] < 90) & (p[..., 2] < 90)).sum())


def orangeish(img, box):
    """The warning style's pixels: its text, and its border (225, 160, 97),
    which counts where the text is short ("1")."""
    x0, y0, x1, y1 = box
    p = img[y0:y1, x0:x1].astype(int)
    return int(((p[..., 0] > 180) & (p[..., 1] > 80) & (p[..., 1] < 175) & (p[..., 2] < 110)).sum())


def differs(a, b, box):
    x0, y0, x1, y1 = box
    return int(np.any(a[y0:y1, x0:x1] != b[y0:y1, x0:x1], axis=-1).sum())


# Where things are in the window (see 01-start.png).
RADIUS_ENTRY = (962, 144)          # along x; its - and + at 1008 and 1042
RADIUS_Z_ENTRY = (1085, 144)       # along z
BACKEND_DROPDOWN = (1060, 184)
EXTENT_X_ENTRY = (955, 300)
NODES_ENTRY = (955, 340)
SPACING_X_ENTRY = (955, 380)
LAYER2_ROW = (1027, 472)
VELOCITY_ENTRY = (1045, 574)
PANEL_BOX = (862, 55, 1190, 728)
# The model panel's message, below the layer's fields.
MODEL_PANEL_BOTTOM = (866, 674, 1190, 728)
COLOURBAR_LABELS = (806, 222, 850, 562)
CURSOR_LABEL = (760, 733, 1195, 755)
STATUS_LABEL = (520, 736, 700, 752)

# ------------------------------------------------------------------ session 1
# Start, show the shortcuts, quit: stderr stays clean.


def t_clean_exit():
    a = App(SCENE, name="clean")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        screenshot("01-start")
        xdo("key", "ctrl+question")
        time.sleep(1.5)
        screenshot("02-shortcuts")
        xdo("key", "Escape")
        time.sleep(0.5)
        xdo("key", "ctrl+q")
        rc = a.proc.wait(15)
    except subprocess.TimeoutExpired:
        return False, "did not quit on Ctrl+Q"
    finally:
        a.quit()
    bad = a.bad_stderr()
    return rc == 0 and not bad, "exit %s; %d bad stderr lines\n%s" % (rc, len(bad), "\n".join(bad[:6]))


check("start, Keyboard Shortcuts, Ctrl+Q: no GTK warning or critical on stderr", t_clean_exit)

# ------------------------------------------------------------------ session 2
app = App(SCENE, name="panels")
state = {}


def t_window():
    ok = app.find_window()
    if ok:
        app.settle_all()
    return ok, "" if ok else "no window named Foldray"


def t_backends():
    """Only back ends the build has: no CUDA row without CUDA."""
    cuda = CUDA_BUILT
    click(*BACKEND_DROPDOWN)
    time.sleep(0.6)
    img = screenshot("03-backend-dropdown")
    xdo("key", "Escape")
    time.sleep(0.4)
    # The popover has a black frame (no window manager): its height, top
    # frame to bottom frame down a column, gives the rows (32 px each).
    col = img[195:460, 1100].astype(int).max(axis=-1) == 0
    black = np.flatnonzero(col)
    gaps = np.flatnonzero(np.diff(black) > 1)
    if len(black) == 0 or len(gaps) == 0:
        return False, "no popover found"
    height = int(black[gaps[0] + 1] - black[0])
    rows = round((height - 25) / 32.0)
    want = 4 if cuda else 3
    return rows == want, "popover %d px high, %d rows; want %d (CUDA built: %s)" % (height, rows, want, cuda)


def t_scroll_panel():
    """The wheel over an unfocused spin button scrolls the panel and
    leaves the value (no new solve)."""
    before = screenshot()
    job = app.last_job()
    xdo("mousemove", *NODES_ENTRY)
    time.sleep(0.3)
    for _ in range(3):
        xdo("click", 5)
        time.sleep(0.1)
    time.sleep(1.5)
    after = screenshot("04-wheel-over-nodes")
    moved = differs(before, after, PANEL_BOX)
    new_job = app.last_job() != job
    # Back to the top for the next checks.
    for _ in range(6):
        xdo("click", 4)
        time.sleep(0.05)
    time.sleep(0.6)
    return moved > 2000 and not new_job, "%d panel pixels changed; new solve: %s" % (moved, new_job)


def t_scroll_focused_spin():
    """The wheel over a spin button that has the focus (one typed into a
    while ago keeps it) scrolls the panel too, and leaves the value: no
    new solve, and the same text once the panel is back and the entry has
    lost the focus."""
    x, y = RADIUS_ENTRY
    box = (x - 80, y - 12, x + 80, y + 12)
    xdo("mousemove", 700, 700)
    time.sleep(0.6)
    text_before = screenshot()[box[1]:box[3], box[0]:box[2]].copy()
    click(x, y)                     # the caret in Radius: it has the focus
    before = screenshot("04b-radius-focused")
    job = app.last_job()
    xdo("mousemove", x, y)
    time.sleep(0.3)
    for _ in range(3):
        xdo("click", 5)
        time.sleep(0.1)
    time.sleep(1.5)
    after = screenshot("04c-wheel-over-focused-radius")
    moved = differs(before, after, PANEL_BOX)
    new_job = app.last_job() != job
    for _ in range(6):
        xdo("click", 4)
        time.sleep(0.05)
    xdo("key", "Tab")               # the focus leaves Radius (it keeps its text)
    xdo("mousemove", 700, 700)
    time.sleep(0.8)
    text_after = screenshot("04d-radius-unfocused")[box[1]:box[3], box[0]:box[2]]
    same = bool(np.array_equal(text_before, text_after))
    new_job = new_job or app.last_job() != job
    return (moved > 2000 and not new_job and same,
            "%d panel pixels changed; new solve: %s; Radius text unchanged: %s" % (moved, new_job, same))


def t_invalid_velocity():
    """"abc" in Velocity is refused: the value stays, the entry turns red
    and a message says why."""
    click(*LAYER2_ROW)
    job = app.last_job()
    type_into(*VELOCITY_ENTRY, "abc")
    img = screenshot("05-velocity-abc")
    time.sleep(0.5)
    new_job = app.last_job() != job
    x, y = VELOCITY_ENTRY
    border = reddish(img, (x - 80, y - 20, x + 145, y + 20))
    message = reddish(img, MODEL_PANEL_BOTTOM)
    return (not new_job and border > 40 and message > 40,
            "new solve: %s; red pixels: entry %d, message %d" % (new_job, border, message))


def t_radius_clamped():
    """Radius 0 is clamped to 1, visibly (the entry's warning style and a
    tooltip with the allowed range, see 06-radius-0.png).  The upper bound,
    100, is the solver's on any grid."""
    type_into(*RADIUS_ENTRY, "0")
    xdo("mousemove", RADIUS_ENTRY[0], RADIUS_ENTRY[1] + 2)
    time.sleep(1.5)
    img = screenshot("06-radius-0")
    x, y = RADIUS_ENTRY
    warn = orangeish(img, (x - 90, y - 20, x + 160, y + 20))
    # Back to a quick radius for the next checks.
    type_into(*RADIUS_ENTRY, "5")
    app.settle_all()
    return warn > 20, "%d orange pixels on the entry" % warn


def t_radius_whole():
    """Radius 2.5, a fraction in a count, is set to 3 visibly (the entry's
    warning style and "2.5 is not a whole number; set to 3"), and the
    solve takes 3.  The field showed 2 and the solve took 3, without a
    word (06b-radius-2.5.png)."""
    job = app.last_job()
    type_into(*RADIUS_ENTRY, "2.5")
    app.wait_job(job)
    app.settle_all()
    xdo("mousemove", RADIUS_ENTRY[0], RADIUS_ENTRY[1] + 2)
    time.sleep(1.5)
    img = screenshot("06b-radius-2.5")
    x, y = RADIUS_ENTRY
    warn = orangeish(img, (x - 90, y - 20, x + 160, y + 20))
    radius = app.last("spr").get("radius")
    type_into(*RADIUS_ENTRY, "5")
    app.settle_all()
    return warn > 20 and radius == 3, "%d orange pixels on the entry; solved with radius %s" % (warn, radius)


def t_legend_follows():
    """A velocity edit re-labels the colour bar at once (no zoom needed)."""
    app.settle_all()
    time.sleep(0.5)
    before = screenshot()
    type_into(*VELOCITY_ENTRY, "7")
    app.settle_all()
    time.sleep(1.0)
    after = screenshot("07-velocity-7")
    n = differs(before, after, COLOURBAR_LABELS)
    return n > 30, "%d colour-bar pixels changed" % n


def t_cursor_after_click():
    """A click at the pointer (a new source there) updates the readout's T
    without moving the pointer."""
    sx, sy = app.to_screen(0.6, 1.2)
    xdo("mousemove", sx, sy)
    time.sleep(0.8)
    before = screenshot("08-readout-before")
    job = app.last_job()
    xdo("click", 1)
    end = time.time() + 20
    while app.last_job() == job and time.time() < end:
        time.sleep(0.05)
    app.settle_all()
    time.sleep(1.0)
    after = screenshot("09-readout-after")
    n = differs(before, after, CURSOR_LABEL)
    return n > 20, "%d readout pixels changed" % n


def t_status_tooltip():
    """The status line's full text is in its tooltip (it is ellipsized).
    GTK puts the tooltip below the label or, where the screen ends,
    above it: what appears around the label when the pointer rests on it."""
    x0, y0, x1, y1 = STATUS_LABEL
    xdo("mousemove", 5, 5)
    time.sleep(1.0)
    before = screenshot()
    xdo("mousemove", (x0 + x1) // 2, (y0 + y1) // 2)
    time.sleep(0.3)
    xdo("mousemove", (x0 + x1) // 2 + 3, (y0 + y1) // 2)
    time.sleep(2.0)
    img = screenshot("10-status-tooltip")
    around = [(x0 - 150, y0 - 90, x1 + 150, y0 - 2), (x0 - 150, y1 + 2, x1 + 150, 800)]
    n = sum(differs(before, img, box) for box in around)
    return n > 200, "%d pixels appeared around the status line" % n


def t_about_icon():
    """The About dialog shows Foldray's icon, found in the GResource when
    the app runs from the build tree (it showed the missing-image one):
    the icon's red source dot."""
    click(1044, 27)                 # ☰
    xdo("key", "b")                 # A_bout Foldray: its mnemonic, wherever the item sits
    time.sleep(1.0)
    img = screenshot("16-about")
    xdo("key", "Escape")
    time.sleep(0.5)
    area = img[60:200, 150:360].astype(int)
    red = int(((area[..., 0] > 200) & (area[..., 1] < 80) & (area[..., 2] < 80)).sum())
    return red > 20, "%d red icon pixels in the About dialog" % red


for name, fn in [
    ("the window opens on the three-layer scene", t_window),
    ("the back-end drop-down offers only the back ends of this build", t_backends),
    ("the wheel over an unfocused spin button scrolls the panel, not the value", t_scroll_panel),
    ("the wheel over a focused spin button scrolls the panel, not the value", t_scroll_focused_spin),
    ("\"abc\" in Velocity is refused with a visible reason, and nothing is solved", t_invalid_velocity),
    ("Radius 0 is clamped to 1 visibly, with the allowed range in a tooltip", t_radius_clamped),
    ("Radius 2.5 is set to 3 visibly, and the solve takes 3", t_radius_whole),
    ("a velocity edit re-labels the colour bar at once", t_legend_follows),
    ("the cursor readout follows a click without a pointer move", t_cursor_after_click),
    ("the status line has its full text as a tooltip", t_status_tooltip),
    ("the About dialog shows the application's icon", t_about_icon),
]:
    if not check(name, fn) and fn is t_window:
        break


def t_no_warnings():
    app.quit()
    bad = app.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


check("no GTK warning or critical on stderr during the panel checks", t_no_warnings)

# ------------------------------------------------------------------ session 3
# Folds mode (the fold panel's positions, see 11-folds.png).
SPEED_DROPDOWN = (1090, 104)
SPEED_CONSTANT_ROW = (1090, 152)
SPEED_GRID_ROW = (1090, 184)
PSI_X_ENTRY = (1055, 184)
F_ENTRY = (1055, 144)
EXPORT_CSV_BUTTON = (993, 532)

fold = App("--mode", "folds", "--psi-a", "0.95,0", name="folds")


def window_named(title):
    r = run("xdotool", "search", "--onlyvisible", "--name", title, check=False)
    return r.stdout.split()


def t_fold_window():
    ok = fold.find_window()
    if ok:
        fold.settle_all()
        time.sleep(0.5)
        screenshot("11-folds")
    return ok, "" if ok else "no window named Foldray"


def t_fold_psi_kept():
    """Speed F to the velocity grid shortens ψa only while F is the grid:
    back to constant, the user's ψa is back."""
    # F = 2 allows |ψa| up to 0.95 F; the grid's slowest speed (1.5) less.
    # "1.8" went into F in two of seven CI runs: F's tooltip covered ψa x
    # (type_into now leaves the pointer off the field).  The solve's ψa
    # still says whether the value arrived, and F and ψa are typed again if
    # not.
    tries = 0
    for tries in range(1, 4):
        type_into(*F_ENTRY, "2")
        type_into(*PSI_X_ENTRY, "1.8")
        fold.settle_all()
        if abs(float(fold.last("fold").get("psi_x", 0.0)) - 1.8) < 1e-6:
            break
    x, y = PSI_X_ENTRY
    box = (x - 50, y - 12, x + 50, y + 12)
    xdo("mousemove", 400, 650)
    time.sleep(0.8)
    before = screenshot()
    click(*SPEED_DROPDOWN)
    click(*SPEED_GRID_ROW)
    fold.settle_all()
    xdo("mousemove", 400, 650)
    time.sleep(0.8)
    grid = screenshot("12-speed-grid")
    click(*SPEED_DROPDOWN)
    click(*SPEED_CONSTANT_ROW)
    fold.settle_all()
    xdo("mousemove", 400, 650)
    time.sleep(0.8)
    after = screenshot("13-speed-constant-again")
    shortened = differs(before, grid, box)
    restored = differs(before, after, box)
    return (shortened > 0 and restored == 0,
            "F and ψa typed %d time(s); ψa x pixels changed: %d on the grid, %d back on constant F"
            % (tries, shortened, restored))


def t_fold_field_left_as_shown():
    """ψa x 0.30449 (once shown as 0.304): clicking into the field and out again
    (into F) leaves ψa as it is, with no solve and no undo step (the field
    wrote back its rounded text, 0.304, and solved again)."""
    type_into(*PSI_X_ENTRY, "0.30449")
    fold.settle_all()
    job = fold.last_job()
    asked = fold.last("fold").get("psi_x")
    click(*PSI_X_ENTRY)
    click(*F_ENTRY)
    xdo("mousemove", 400, 650)
    time.sleep(1.5)
    after = fold.last_job()
    return (asked == 0.30449 and after == job,
            "ψa x solved: %s; jobs before and after visiting the field: %d, %d"
            % (asked, job, after))


def t_fold_export_buttons():
    """The folded horizons' export opens its dialog only when there is a
    horizon: cleared, the button is greyed out and opens nothing."""
    click(*EXPORT_CSV_BUTTON)
    time.sleep(1.5)
    screenshot("14-export-horizons")
    opened = bool(window_named("^Export"))
    xdo("key", "Escape")
    time.sleep(0.8)
    xdo("mousemove", 400, 650)
    xdo("key", "ctrl+shift+Delete")
    time.sleep(1.0)
    click(*EXPORT_CSV_BUTTON)
    time.sleep(1.5)
    screenshot("15-export-no-horizon")
    opened_empty = bool(window_named("^Export"))
    if opened_empty:
        xdo("key", "Escape")
    return opened and not opened_empty, "dialog with a horizon: %s; without: %s" % (opened, opened_empty)


for name, fn in [
    ("folds: the window opens in Folds mode", t_fold_window),
    ("folds: Speed F on the grid and back keeps the user's ψa", t_fold_psi_kept),
    ("folds: visiting ψa x without typing changes nothing", t_fold_field_left_as_shown),
    ("folds: the horizons' export is offered only when there is a horizon", t_fold_export_buttons),
]:
    if not check(name, fn) and fn is t_fold_window:
        break


def t_fold_no_warnings():
    fold.quit()
    bad = fold.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


check("no GTK warning or critical on stderr in Folds mode", t_fold_no_warnings)

# ------------------------------------------------------------------ session 4
# Bad command lines: refused with one line on stderr and status 2; a bad
# FILE opens the window on the example with the error in a dialog (there
# may be no terminal to read stderr).


def refused(*args):
    """Runs foldray with args; its exit status and its stderr lines."""
    r = run(EXE, *args, check=False, timeout=30)
    return r.returncode, [l for l in r.stderr.splitlines() if l.strip()]


def t_unknown_example():
    rc, err = refused("--example=nope")
    line = err[0] if err else ""
    ok = (rc == 2 and len(err) == 1 and "nope" in line and "three-layer" in line and
          "gradient" in line)
    return ok, "exit %d; stderr: %s" % (rc, err)


def t_installed_data():
    """An app outside its build folder (as installed) reads its examples
    from $FOLDRAY_DATA_DIR or the install only: with neither holding them
    it says so on stderr and opens the built-in stand-in (301 x 201 nodes).
    The build's own app, with no FOLDRAY_DATA_DIR, reads the source tree's
    three-layer grid (301 x 151).  The installed app had read the build
    machine's checkout, which hid that the install lacked its data."""
    tmp = tempfile.mkdtemp(prefix="foldray-installed-", dir=OUT)
    exe = os.path.join(tmp, "foldray")
    empty = os.path.join(tmp, "data")
    os.makedirs(empty)
    shutil.copy2(EXE, exe)
    shapes, said = [], []
    for name, app_exe, data in (("installed", exe, empty), ("uninstalled", None, "")):
        out = os.path.join(tmp, name)
        a = App("--export-on-idle", out, name="data-" + name, exe=app_exe,
                env={"FOLDRAY_DATA_DIR": data})
        rc = a.wait_exit()
        with open(a.stderr_path) as f:
            said.append([l for l in f.read().splitlines() if "not installed" in l])
        try:
            shapes.append(np.load(os.path.join(out, "velocity.npy")).shape if rc == 0 else rc)
        except OSError as e:
            shapes.append(str(e))
    ok = (shapes == [(201, 301), (151, 301)] and len(said[0]) == 1 and "three-layer" in said[0][0]
          and not said[1])
    return ok, "velocity shapes %s; stderr %s" % (shapes, said)


def t_numbers_out_of_range():
    """Each numeric option out of range (or not a number) is refused, and
    the line names the option and its range."""
    cases = [(("--radius", "0"), ("1", "100")), (("--radius", "101"), ("1", "100")),
             (("--radius", "abc"), ("1", "100")), (("--radius", "3,0"), ("1", "100", "R,RZ")),
             (("--radius", "3,7,9"), ("1", "100")), (("--radius", "3,"), ("1", "100")),
             (("--interval", "-1"), ("0", "100")),
             (("--wavefront", "-0.5"), ("0",)), (("--bench-size", "8"), ("16", "8192")),
             (("--bench-moves", "1"), ("2",))]
    bad = []
    for args, bounds in cases:
        rc, err = refused(*args)
        line = err[0] if err else ""
        if rc != 2 or len(err) != 1 or not line.startswith("foldray: " + args[0] + ":") or \
           not all(b in line for b in bounds):
            bad.append("%s: exit %d; stderr %s" % (" ".join(args), rc, err))
    return not bad, "\n".join(bad) or "%d cases refused" % len(cases)


def t_points_outside():
    """--source and --receiver outside the example's grid (x 0 to 3, z 0 to
    1.5) are refused, not moved onto its edge."""
    bad = []
    for args in (("--source", "5,0"), ("--receiver", "1,-0.5"), ("--receiver", "1,1.6")):
        rc, err = refused(*args)
        line = err[0] if err else ""
        if rc != 2 or len(err) != 1 or not line.startswith("foldray: %s %s lies outside the grid"
                                                          % args) or "0 to 3" not in line:
            bad.append("%s: exit %d; stderr %s" % (" ".join(args), rc, err))
    return not bad, "\n".join(bad) or "3 cases refused"


def t_geometry_too_small():
    rc, err = refused("--geometry", "10x10")
    line = err[0] if err else ""
    ok = rc == 2 and len(err) == 1 and "200" in line and "150" in line and "WxH" not in line
    return ok, "exit %d; stderr: %s" % (rc, err)


def bad_file_dialog(name, content, shot):
    """foldray FILE with a corrupt FILE: the window opens on the example,
    a second window (the error dialog) shows text, stderr has the line."""
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(content)
    a = App(path, name=shot)
    try:
        if not a.find_window(name="Foldray"):
            return False, "no window"
        title = a.title()
        dialog = None
        end = time.time() + 15
        while dialog is None and time.time() < end:
            ids = run("xdotool", "search", "--onlyvisible", "--pid", str(a.proc.pid), check=False).stdout.split()
            others = [w for w in ids if w != a.win]
            dialog = others[0] if others else None
            time.sleep(0.2)
        if dialog is None:
            return False, "no dialog; title %r" % title
        time.sleep(1.0)
        img = screenshot(shot)
        geo = dict(l.split("=") for l in run("xdotool", "getwindowgeometry", "--shell", dialog).stdout.split())
        x, y, w, h = (int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
        text = int((img[y:y + h, x:x + w].astype(int).max(axis=-1) < 90).sum())
        running = a.proc.poll() is None
    finally:
        a.quit()
    with open(a.stderr_path) as f:
        lines = [l for l in f.read().splitlines() if l.startswith("foldray: ")]
    # The user's error is said once, not also logged as a warning.
    with open(a.stderr_path) as f:
        warned = [l for l in f.read().splitlines() if "-WARNING" in l or "-CRITICAL" in l]
    said = any(path in l for l in lines)
    bad = a.bad_stderr()
    ok = running and "three-layer" in title and text > 200 and said and not bad and not warned
    return ok, ("title %r; dialog %dx%d with %d text pixels; still running: %s; stderr line: %s; "
                "%d bad stderr lines; warnings: %s" % (title, w, h, text, running, lines, len(bad), warned))


check("--example=nope is refused with the known examples on stderr, exit 2", t_unknown_example)
check("an app outside its build folder says its examples are not installed; the build's reads the source tree",
      t_installed_data)
check("numeric options out of range are refused naming the option and its range, exit 2",
      t_numbers_out_of_range)
check("--geometry 10x10 says which sizes are allowed, exit 2", t_geometry_too_small)
check("--source and --receiver outside the grid are refused, exit 2", t_points_outside)
check("a corrupt SCENE.json opens the example with the error in a dialog and once on stderr, no warning",
      lambda: bad_file_dialog("corrupt.json", b'{"format": "foldray-scene", "layers": [',
                              "17-corrupt-scene"))
check("a corrupt FILE.npy opens the example with the error in a dialog and once on stderr, no warning",
      lambda: bad_file_dialog("corrupt.npy", b"\x93NUMPY\x01\x00garbage", "18-corrupt-npy"))

# ------------------------------------------------------------------ session 5
# The layer and obstacle fields show what they edit, or nothing (a dash)
# while nothing is selected: never a value left from before.  Pixel
# positions as in session 2 (the panel at its top).
LAYER_ROWS = {1: (1027, 446), 2: (1027, 472), 3: (1027, 498)}
REMOVE_BUTTON = (1108, 534)
UNDO_BUTTON = (241, 27)
REDO_BUTTON = (275, 27)
# The text of each field (inside its frame, left of its − + buttons).
# The obstacle's field is cut by the window's fold: its upper part.
# The obstacle's kind: the drop-down's text, left of its arrow ("(None)",
# GTK's own, untranslated in nb, had about 150 ink pixels).
FIELDS = {"velocity": (982, 562, 1110, 587), "dv/dz": (982, 602, 1110, 627),
          "dv/dx": (982, 642, 1110, 667), "obstacle velocity": (1054, 712, 1110, 729),
          "obstacle kind": (876, 712, 1008, 729)}
QUIET = (700, 700)                  # the pointer out of the way, over the canvas


ROW_HEIGHT = 26                     # with a layer fewer, the fields move up by this


def fields(img, dy=0):
    return {k: img[y0 + dy:y1 + dy, x0:x1].copy() for k, (x0, y0, x1, y1) in FIELDS.items()}


def ink(crop):
    """Pixels that stand out from the field's background: text."""
    p = crop.astype(int)
    bg = np.median(p.reshape(-1, 3), axis=0)
    return int((np.abs(p - bg).max(axis=-1) > 40).sum())


def blank(crops, names=FIELDS):
    """Those of the fields named that show text (a dash has about 11 ink
    pixels, a value such as 1.000 well over 60), with their ink: none when
    all are blank."""
    return {k: ink(crops[k]) for k in names if ink(crops[k]) > 25}


def filled(crops, names):
    return len(blank(crops, names)) == len(names)


def quiet_shot(name, dy=0):
    xdo("mousemove", *QUIET)
    time.sleep(0.6)
    return fields(screenshot(name), dy)


model_scene = os.path.join(OUT, "fields.json")
shutil.copy(SCENE, model_scene)
fapp = App(model_scene, name="fields")
seen = {}


def t_fields_window():
    ok = fapp.find_window()
    if ok:
        fapp.settle_all()
    return ok, "" if ok else "no window named Foldray"


def t_fields_blank_at_start():
    """Nothing selected at start: every layer and obstacle field is blank
    (it showed 1.000, 0.000, 0.000 and 0.500, values of no layer)."""
    seen["start"] = c = quiet_shot("20-fields-nothing-selected")
    bad = blank(c)
    return not bad, "fields with text (ink pixels): %s" % bad if bad else "all blank"


def t_fields_show_layer():
    """Selecting a layer shows its values; another layer, its own."""
    click(*LAYER_ROWS[1])
    one = quiet_shot("21-fields-layer1")
    click(*LAYER_ROWS[2])
    seen["layer2"] = two = quiet_shot("22-fields-layer2")
    layer = ("velocity", "dv/dz", "dv/dx")
    shown = filled(one, layer) and filled(two, layer)
    # 1.500 against 2.500; both gradients 0.000.
    other = not np.array_equal(one["velocity"], two["velocity"])
    same_gradient = np.array_equal(one["dv/dz"], two["dv/dz"])
    no_obstacle = not blank(two, ("obstacle velocity",))
    return (shown and other and same_gradient and no_obstacle,
            "layer fields filled: %s; velocity differs between layers 1 and 2: %s; "
            "dv/dz alike: %s; obstacle field blank: %s; ink %s / %s" %
            (shown, other, same_gradient, no_obstacle,
             {k: ink(v) for k, v in one.items()}, {k: ink(v) for k, v in two.items()}))


def t_fields_deselect():
    """Ctrl+Space on the selected row unselects it: the fields go blank,
    exactly as at the start."""
    xdo("key", "ctrl+space")        # the focus is on layer 2's row (clicked)
    time.sleep(0.5)
    c = quiet_shot("23-fields-deselected")
    bad = blank(c)
    as_start = all(np.array_equal(c[k], seen["start"][k]) for k in FIELDS)
    return not bad and as_start, "text left in %s; as at the start: %s" % (bad, as_start)


def ctrl_click(x, y):
    xdo("mousemove", x, y)
    time.sleep(0.2)
    xdo("keydown", "ctrl")
    xdo("click", 1)
    xdo("keyup", "ctrl")
    time.sleep(0.4)


def t_fields_mouse_unselect():
    """Ctrl+click on the selected row unselects it, as in GTK's other
    lists (the list activated rows on a single click, which ignored
    Ctrl): the fields go blank as at the start; a plain click selects the
    row again, and a plain click on the selected row keeps it."""
    click(*LAYER_ROWS[2])
    again = quiet_shot("23b-fields-layer2-clicked")
    click(*LAYER_ROWS[2])
    kept = quiet_shot("23c-fields-layer2-clicked-again")
    ctrl_click(*LAYER_ROWS[2])
    none = quiet_shot("23d-fields-layer2-ctrl-clicked")
    layer = ("velocity", "dv/dz", "dv/dx")
    bad = blank(none)
    as_start = all(np.array_equal(none[k], seen["start"][k]) for k in FIELDS)
    return (filled(again, layer) and filled(kept, layer) and not bad and as_start,
            "layer 2 shown after a click: %s, after a second click: %s; after Ctrl+click "
            "text left in %s, as at the start: %s" %
            (filled(again, layer), filled(kept, layer), bad, as_start))


def t_fields_undo_redo():
    """An edit, its undo and its redo (header buttons) keep the selected
    layer's fields in step with the model."""
    click(*LAYER_ROWS[2])
    job = fapp.last_job()
    type_into(*VELOCITY_ENTRY, "3.25")
    click(*LAYER_ROWS[2])           # the focus off the entry (no caret)
    fapp.settle_all()
    edited = quiet_shot("24-fields-velocity-3.25")
    click(*UNDO_BUTTON)
    fapp.settle_all()
    undone = quiet_shot("25-fields-undone")
    click(*REDO_BUTTON)
    fapp.settle_all()
    redone = quiet_shot("26-fields-redone")
    solved = fapp.last_job() != job
    changed = not np.array_equal(edited["velocity"], seen["layer2"]["velocity"])
    back = np.array_equal(undone["velocity"], seen["layer2"]["velocity"])
    again = np.array_equal(redone["velocity"], edited["velocity"])
    return (solved and changed and back and again,
            "solved: %s; 3.25 shown: %s; undo shows 2.500 again: %s; redo shows 3.25: %s" %
            (solved, changed, back, again))


def t_fields_canvas_select():
    """A layer picked on the canvas (a node of its interface, while
    editing the model) fills the fields with that layer's values, as
    picking it in the list does; unpicked again in the list, they blank."""
    click(*LAYER_ROWS[3])
    listed = quiet_shot("26b-fields-layer3-listed")
    xdo("key", "ctrl+space")        # nothing selected
    time.sleep(0.4)
    none = quiet_shot("26c-fields-layer3-unselected")
    xdo("key", "ctrl+m")            # edit the model
    time.sleep(0.4)
    # The anticline's node at x = 1.5: layer 3's interface.
    click(*fapp.to_screen(1.5, 1.05 - 0.25 * np.exp(-((1.5 - 1.8) / 0.7) ** 2)))
    picked = quiet_shot("26d-fields-layer3-picked")
    xdo("key", "Escape")            # stop editing
    time.sleep(0.4)
    same = all(np.array_equal(picked[k], listed[k]) for k in ("velocity", "dv/dz", "dv/dx"))
    cleared = not blank(none)
    return (filled(listed, ("velocity",)) and cleared and same,
            "blank in between: %s; the fields after picking layer 3 on the canvas are those "
            "after picking it in the list: %s" % (cleared, same))


def t_fields_remove():
    """Removing the selected layer leaves nothing selected: blank fields
    (not the values of the layer that took its place); its undo brings
    the layer back and nothing selected."""
    click(*LAYER_ROWS[3])
    chosen = quiet_shot("27-fields-layer3")
    click(*REMOVE_BUTTON)
    fapp.settle_all()
    removed = quiet_shot("28-fields-layer-removed", -ROW_HEIGHT)
    click(*UNDO_BUTTON)
    fapp.settle_all()
    back = quiet_shot("29-fields-remove-undone")
    shown = filled(chosen, ("velocity",))
    bad_removed, bad_back = blank(removed), blank(back)
    return (shown and not bad_removed and not bad_back,
            "layer 3 shown: %s; text after Remove: %s; after its undo: %s" %
            (shown, bad_removed, bad_back))


for name, fn in [
    ("fields: the window opens on a copy of the three-layer scene", t_fields_window),
    ("fields: with nothing selected the layer and obstacle fields are blank", t_fields_blank_at_start),
    ("fields: a selected layer's fields show its values", t_fields_show_layer),
    ("fields: unselecting the layer blanks its fields", t_fields_deselect),
    ("fields: Ctrl+click on the selected layer unselects it", t_fields_mouse_unselect),
    ("fields: edit, undo and redo keep the fields in step", t_fields_undo_redo),
    ("fields: a layer picked on the canvas shows its values in the fields", t_fields_canvas_select),
    ("fields: removing the selected layer blanks its fields, also after undo", t_fields_remove),
]:
    if not check(name, fn) and fn is t_fields_window:
        break


def t_fields_no_warnings():
    fapp.quit()
    bad = fapp.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


check("no GTK warning or critical on stderr during the field checks", t_fields_no_warnings)

# ------------------------------------------------------------------ session 6
# The display settings are saved with the scene: a change modifies it
# (but is no undo step), Ctrl+S writes "display", and the scene reopens
# looking the same.  The panel scrolled to its end (see 30-display.png).
INTERVAL_ENTRY = (1050, 502)
COLORMAP_DROPDOWN = (1085, 542)
MAGMA_ROW = (1020, 654)
UNDO_BOX = (226, 12, 258, 42)
PANEL_QUIET = (930, 470)            # the Display heading

display_scene = os.path.join(OUT, "display.json")
shutil.copy(SCENE, display_scene)
dapp = App(display_scene, name="display")
look = {}


def t_display_window():
    ok = dapp.find_window()
    if ok:
        dapp.settle_all()
    return ok, "" if ok else "no window named Foldray"


def canvas_shot(a, name):
    xdo("mousemove", *PANEL_QUIET)
    time.sleep(0.6)
    return a.canvas(a.stable_shot(name)).copy()


def t_display_modifies():
    """A new colour map marks the scene modified (• in the title) and is
    no undo step (Undo stays greyed out)."""
    title0 = dapp.title()
    xdo("mousemove", 1000, 377)
    for _ in range(30):             # to the panel's end
        xdo("click", 5)
        time.sleep(0.05)
    look["before"] = canvas_shot(dapp, "30-display")
    undo0 = screenshot()[UNDO_BOX[1]:UNDO_BOX[3], UNDO_BOX[0]:UNDO_BOX[2]].copy()
    click(*COLORMAP_DROPDOWN)
    time.sleep(0.4)
    click(*MAGMA_ROW)
    title1 = dapp.wait_title(lambda t: t.startswith("•"))
    xdo("mousemove", *PANEL_QUIET)
    time.sleep(0.6)
    undo1 = screenshot("31-display-magma")[UNDO_BOX[1]:UNDO_BOX[3], UNDO_BOX[0]:UNDO_BOX[2]]
    no_undo = bool(np.array_equal(undo0, undo1))
    ok = not title0.startswith("•") and title1.startswith("•") and no_undo
    return ok, "titles %r then %r; Undo unchanged (still greyed out): %s" % (title0, title1, no_undo)


def t_display_saved():
    """Ctrl+S writes the settings as "display" in the scene."""
    type_into(*INTERVAL_ENTRY, "0.1")
    look["changed"] = canvas_shot(dapp, "32-display-magma-0.1")
    xdo("key", "ctrl+s")
    title = dapp.wait_title(lambda t: not t.startswith("•"))
    with open(display_scene) as f:
        saved = json.load(f).get("display")
    want = {"interval": 0.1, "colormap": "magma", "wavefront": False}
    ok = (saved is not None and all(saved.get(k) == v for k, v in want.items()) and
          not title.startswith("•"))
    return ok, "title %r; saved display %r" % (title, saved)


def t_display_reopened():
    """Reopened, the scene is drawn as it was saved (magma, isochrons
    every 0.1), not in the defaults it opened with before."""
    dapp.quit()
    again = App(display_scene, name="display-again")
    try:
        if not again.find_window():
            return False, "no window"
        again.settle_all()
        img = canvas_shot(again, "33-display-reopened")
        title = again.title()
    finally:
        again.quit()
    bad = again.bad_stderr()
    if img.shape != look["changed"].shape:
        return False, "canvas %s, before %s" % (img.shape, look["changed"].shape)
    n = img.shape[0] * img.shape[1]
    like_saved = np.any(img != look["changed"], axis=-1).sum() / n
    like_default = np.any(img != look["before"], axis=-1).sum() / n
    ok = like_saved < 0.01 and like_default > 0.2 and not title.startswith("•") and not bad
    return ok, ("%.2f%% of the canvas differs from the saved look, %.1f%% from the default "
                "look; title %r; %d bad stderr lines" %
                (100 * like_saved, 100 * like_default, title, len(bad)))


def t_display_options_win():
    """Options on the command line win over the scene's saved settings:
    the magma scene opened with --colormap viridis --interval 0.05 is
    drawn in the default look, and is not modified."""
    opt = App("--colormap", "viridis", "--interval", "0.05", display_scene, name="display-options")
    try:
        if not opt.find_window():
            return False, "no window"
        opt.settle_all()
        img = canvas_shot(opt, "34-display-options")
        title = opt.title()
    finally:
        opt.quit()
    if img.shape != look["before"].shape:
        return False, "canvas %s, before %s" % (img.shape, look["before"].shape)
    n = img.shape[0] * img.shape[1]
    like_default = np.any(img != look["before"], axis=-1).sum() / n
    like_saved = np.any(img != look["changed"], axis=-1).sum() / n
    ok = like_default < 0.01 and like_saved > 0.2 and not title.startswith("•")
    return ok, ("%.2f%% of the canvas differs from the default look, %.1f%% from the saved one; "
                "title %r" % (100 * like_default, 100 * like_saved, title))


for name, fn in [
    ("display: the window opens on a copy of the three-layer scene", t_display_window),
    ("display: a new colour map marks the scene modified and is no undo step", t_display_modifies),
    ("display: Ctrl+S saves the colour map and isochron interval in the scene", t_display_saved),
    ("display: the reopened scene is drawn with its saved display settings", t_display_reopened),
    ("display: --colormap and --interval win over the scene's saved settings", t_display_options_win),
]:
    if not check(name, fn) and fn is t_display_window:
        dapp.quit()
        break


def t_display_no_warnings():
    dapp.quit()
    bad = dapp.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


check("no GTK warning or critical on stderr during the display checks", t_display_no_warnings)

# ------------------------------------------------------------------ session 7
# The solver settings saved with a scene come back when it opens, which is
# no edit; a change of radius, back end or a fold setting modifies the
# scene (the title's •), as the display settings do.
BACKEND_ROWS = {"auto": (1020, 232), "dijkstra": (1020, 264), "cpu": (1020, 296)}
FOLDS_BUTTON = (183, 27)
RAYS_BUTTON = (117, 27)
BANDS_SWITCH = (1044, 420)         # the switch's middle: it spans x 1019..1068
NOTICE_BOX = (866, 200, 1190, 260)      # between Back end and the Model heading


def scene_with(path, **solver):
    with open(SCENE) as f:
        doc = json.load(f)
    doc["solver"].update(solver)
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)


def saved(path, key):
    with open(path) as f:
        return json.load(f).get(key)


solver_scene = os.path.join(OUT, "solver.json")
scene_with(solver_scene, radius=[3, 6], backend="dijkstra")
sapp = App(solver_scene, name="solver")


def t_solver_window():
    ok = sapp.find_window()
    if ok:
        sapp.settle_all()
    return ok, "" if ok else "no window named Foldray"


def t_solver_restored():
    """Opened, the scene solves with its saved radius, 3 along x and 6
    along z, and back end (the panel's drop-down shows Dijkstra, see
    40-solver-opened.png), and it is not modified."""
    xdo("mousemove", *QUIET)
    time.sleep(0.5)
    screenshot("40-solver-opened")
    spr, title = sapp.last("spr"), sapp.title()
    ok = (spr.get("radius") == 3 and spr.get("radius_z") == 6 and spr.get("backend") == "dijkstra"
          and not title.startswith("•"))
    return ok, "job %s; title %r" % (spr, title)


def t_radius_modifies():
    """A new radius along x modifies the scene, is solved with z's kept,
    and Ctrl+S saves both; then z's made the same is saved as one number,
    as earlier versions read it."""
    notes, ok = [], True
    for entry, text, want_x, want_z, want_saved in ((RADIUS_ENTRY, "4", 4, 6, [4, 6]),
                                                     (RADIUS_Z_ENTRY, "4", 4, 4, 4)):
        job = sapp.last_job()
        type_into(*entry, text)
        sapp.wait_job(job)
        title = sapp.wait_title(lambda t: t.startswith("•"))
        spr = sapp.last("spr")
        xdo("key", "ctrl+s")
        clean = sapp.wait_title(lambda t: not t.startswith("•"))
        solver = saved(solver_scene, "solver")
        ok = ok and (title.startswith("•") and spr.get("radius") == want_x and
                     spr.get("radius_z") == want_z and not clean.startswith("•") and
                     solver == {"radius": want_saved, "backend": "dijkstra"})
        notes.append("title %r, job %s; after Ctrl+S title %r, saved %s" % (title, spr, clean, solver))
    return ok, "\n".join(notes)


def t_backend_modifies():
    """Another back end modifies the scene; Ctrl+S saves it."""
    job = sapp.last_job()
    click(*BACKEND_DROPDOWN)
    time.sleep(0.4)
    click(*BACKEND_ROWS["cpu"])
    sapp.wait_job(job)
    title = sapp.wait_title(lambda t: t.startswith("•"))
    xdo("mousemove", *QUIET)
    time.sleep(0.4)
    screenshot("41-solver-cpu")
    spr = sapp.last("spr")
    xdo("key", "ctrl+s")
    clean = sapp.wait_title(lambda t: not t.startswith("•"))
    solver = saved(solver_scene, "solver")
    ok = (title.startswith("•") and spr.get("backend") == "cpu" and not clean.startswith("•") and
          solver == {"radius": 4, "backend": "cpu"})
    return ok, "title %r, job %s; after Ctrl+S title %r, saved %s" % (title, spr, clean, solver)


def t_fold_setting_modifies():
    """In Folds mode, a fold setting (Bands) modifies the scene too."""
    click(*FOLDS_BUTTON)
    sapp.settle_all()
    time.sleep(0.5)
    before = sapp.title()
    click(*BANDS_SWITCH)
    title = sapp.wait_title(lambda t: t.startswith("•"))
    screenshot("42-solver-fold-bands")
    xdo("key", "ctrl+s")
    clean = sapp.wait_title(lambda t: not t.startswith("•"))
    fold = saved(solver_scene, "fold") or {}
    click(*RAYS_BUTTON)
    sapp.settle_all()
    ok = not before.startswith("•") and title.startswith("•") and fold.get("bands") is True
    return ok, "title %r before, %r after Bands; saved fold bands %r" % (before, title, fold.get("bands"))


for name, fn in [
    ("solver: the window opens on a scene saved with radius 3,6 and Dijkstra", t_solver_window),
    ("solver: the saved radii and back end come back, the scene unmodified", t_solver_restored),
    ("solver: a new radius along x, then z, marks the scene modified and is saved", t_radius_modifies),
    ("solver: a new back end marks the scene modified and is saved", t_backend_modifies),
    ("solver: a fold setting marks the scene modified and is saved", t_fold_setting_modifies),
]:
    if not check(name, fn) and fn is t_solver_window:
        break


def t_solver_no_warnings():
    sapp.quit()
    bad = sapp.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


check("no GTK warning or critical on stderr during the solver checks", t_solver_no_warnings)


def t_cuda_scene():
    """A scene saved with CUDA: in a build without it, Automatic solves it,
    a notice under the back end says so (43-cuda-scene.png), the scene is
    not modified, and a save keeps "cuda"; with CUDA, CUDA is chosen and
    there is no notice."""
    path = os.path.join(OUT, "cuda.json")
    plain = os.path.join(OUT, "plain.json")
    scene_with(path, backend="cuda")
    scene_with(plain, backend="auto")
    shots = {}
    for name, p in (("plain", plain), ("cuda", path)):
        a = App(p, name="cuda-" + name)
        try:
            if not a.find_window():
                return False, "no window for %s" % name
            a.settle_all()
            xdo("mousemove", *QUIET)
            time.sleep(0.6)
            img = screenshot("43-%s-scene" % name)
            x0, y0, x1, y1 = NOTICE_BOX
            shots[name] = (img[y0:y1, x0:x1].copy(), a.last("spr"), a.title())
            if name == "cuda":
                job = a.last_job()
                type_into(*RADIUS_ENTRY, "4")
                a.wait_job(job)
                xdo("key", "ctrl+s")
                a.wait_title(lambda t: not t.startswith("•"))
                kept = saved(path, "solver")
        finally:
            a.quit()
        if a.bad_stderr():
            return False, "bad stderr: %s" % a.bad_stderr()[:3]
    notice = differs(shots["plain"][0], shots["cuda"][0], (0, 0, NOTICE_BOX[2] - NOTICE_BOX[0],
                                                              NOTICE_BOX[3] - NOTICE_BOX[1]))
    spr, title = shots["cuda"][1], shots["cuda"][2]
    want = "cuda" if CUDA_BUILT else "auto"
    ok = (spr.get("backend") == want and not title.startswith("•") and
          (notice > 300) != CUDA_BUILT and kept == {"radius": [4, 5], "backend": "cuda"})
    return ok, ("job %s (want %s); title %r; %d pixels differ under Back end from a scene "
                "with Automatic; saved after a radius edit: %s" % (spr, want, title, notice, kept))


check("solver: a scene's CUDA back end falls back visibly where the build lacks it, and is kept",
      t_cuda_scene)

# ------------------------------------------------------------------ session 7b
# The view: a scene saved while fitted keeps none (it opens fitted to its
# new window); one saved after a zoom keeps it, and opens at it.


def t_view_saved_and_restored():
    """solver.json was saved above from a view never zoomed: no "view".
    Zoomed with Ctrl+plus, edited and saved, it keeps that view; opened
    again, the canvas shows it (centre and scale), unmodified."""
    fitted_view = saved(solver_scene, "view")
    a = App(solver_scene, name="view-save")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("key", "ctrl+plus")
        xdo("key", "ctrl+plus")
        time.sleep(0.6)
        zoomed = a.view()
        job = a.last_job()
        # The scene was last saved in Folds mode (Bands, above), and opens
        # in it: the edit is the fold panel's F.
        type_into(*F_ENTRY, "5")
        a.wait_job(job)
        a.wait_title(lambda t: t.startswith("•"))
        xdo("key", "ctrl+s")
        a.wait_title(lambda t: not t.startswith("•"))
    finally:
        a.quit()
    kept = saved(solver_scene, "view") or {}
    b = App(solver_scene, name="view-open")
    try:
        if not b.find_window():
            return False, "no window on reopening"
        b.settle_all()
        xdo("mousemove", *QUIET)
        time.sleep(0.6)
        screenshot("44-view-restored")
        back, title = b.view(), b.title()
    finally:
        b.quit()
    same = all(abs(kept.get(k, 0) - zoomed[z]) <= 1e-6 * max(1.0, abs(zoomed[z]))
               for k, z in (("cx", "cx"), ("cz", "cz"), ("scale", "scale")))
    shown = all(abs(back[k] - zoomed[k]) <= 1e-6 * max(1.0, abs(zoomed[k]))
                for k in ("cx", "cz", "scale"))
    ok = fitted_view is None and same and shown and not title.startswith("•")
    return ok, ("view saved while fitted: %r; zoomed view %s, saved %s, reopened %s, title %r"
                % (fitted_view, zoomed, kept, back, title))


check("view: a fitted view is not saved; a zoomed one is, and the scene opens at it",
      t_view_saved_and_restored)

# ------------------------------------------------------------------ session 8
# Extent, Nodes and Spacing: Nodes refines the same model, Extent resizes
# it at the same spacing, Spacing keeps the extent to whole cells; each
# edit is one undo step (the header's Undo).
grid_scene = os.path.join(OUT, "grid.json")
shutil.copy(SCENE, grid_scene)
gapp = App(grid_scene, name="grid")
grids = {}


def t_grid_window():
    ok = gapp.find_window()
    if ok:
        gapp.settle_all()
        xdo("mousemove", *QUIET)
        time.sleep(0.5)
        grids["start"] = (gapp.last("job"), gapp.view())
    return ok, "" if ok else "no window named Foldray"


def grid_of(job):
    return (int(job.get("nx", 0)), int(job.get("nz", 0)), job.get("dx"), job.get("dz"))


def about(a, b):
    return a is not None and abs(a - b) < 1e-9


def grid_edit(entry, text, shot):
    job = gapp.last_job()
    type_into(*entry, text)
    gapp.wait_job(job)
    xdo("mousemove", *QUIET)
    time.sleep(0.5)
    screenshot(shot)
    return gapp.last("job"), gapp.view()


def grid_undo(shot):
    job = gapp.last_job()
    click(*UNDO_BUTTON)
    gapp.wait_job(job)
    xdo("mousemove", *QUIET)
    time.sleep(0.5)
    screenshot(shot)
    return gapp.last("job"), gapp.view()


def t_grid_nodes():
    """Nodes 601 (was 301): the spacing halves, the extent stays 3 km, so
    the canvas shows the model as large as before; Undo restores 301 at
    0.01."""
    job, view = grid_edit(NODES_ENTRY, "601", "50-grid-nodes-601")
    nodes = grid_of(job)
    same_size = abs(view["scale"] / grids["start"][1]["scale"] - 1) < 0.01
    title = gapp.title()
    ujob, _ = grid_undo("51-grid-nodes-undone")
    back = grid_of(ujob)
    ok = (nodes[:2] == (601, 151) and about(nodes[2], 0.005) and about(nodes[3], 0.01) and
          same_size and title.startswith("•") and back == grid_of(grids["start"][0]))
    return ok, ("nodes 601: grid %s, view scale %.3f (was %.3f), title %r; undone: %s" %
                (nodes, view["scale"], grids["start"][1]["scale"], title, back))


def t_grid_extent():
    """Extent 4 (was 3): 401 nodes at the same 0.01, the model drawn
    smaller to fit; Undo restores 301."""
    job, view = grid_edit(EXTENT_X_ENTRY, "4", "52-grid-extent-4")
    got = grid_of(job)
    smaller = view["scale"] < 0.9 * grids["start"][1]["scale"]
    ujob, _ = grid_undo("53-grid-extent-undone")
    back = grid_of(ujob)
    ok = got[:2] == (401, 151) and about(got[2], 0.01) and smaller and back == grid_of(grids["start"][0])
    return ok, "extent 4: grid %s, view scale %.3f; undone: %s" % (got, view["scale"], back)


def t_grid_spacing():
    """Spacing 0.007: 3.0 / 0.007 = 428.6 cells, so 430 nodes and an
    extent of 3.003, shown in the Extent field (54-grid-spacing.png);
    Undo restores 301 at 0.01."""
    job, view = grid_edit(SPACING_X_ENTRY, "0.007", "54-grid-spacing-0.007")
    got = grid_of(job)
    ujob, _ = grid_undo("55-grid-spacing-undone")
    back = grid_of(ujob)
    ok = got[:2] == (430, 151) and about(got[2], 0.007) and back == grid_of(grids["start"][0])
    return ok, "spacing 0.007: grid %s; undone: %s" % (got, back)


NODES_Z_ENTRY = (1085, 340)
NODES_Z_MINUS = (1130, 340)
NODES_Z_TEXT = (1062, 328, 1112, 352)


def t_grid_nodes_floor():
    """Nodes z 2, the least a grid may have: its − button is then
    insensitive, so a click changes nothing (before, it offered 1 and the
    panel said it was refused); Undo restores 151."""
    job, _ = grid_edit(NODES_Z_ENTRY, "2", "56-grid-nodes-z-2")
    two = grid_of(job)
    before = screenshot("57-grid-nodes-z-2-before-minus")
    posted = gapp.last_job()
    click(*NODES_Z_MINUS)
    xdo("mousemove", *QUIET)
    time.sleep(1.0)
    after = screenshot("58-grid-nodes-z-2-after-minus")
    # The field keeps the focus, and its caret blinks: leave its text out.
    after[NODES_Z_TEXT[1]:NODES_Z_TEXT[3], NODES_Z_TEXT[0]:NODES_Z_TEXT[2]] = \
        before[NODES_Z_TEXT[1]:NODES_Z_TEXT[3], NODES_Z_TEXT[0]:NODES_Z_TEXT[2]]
    changed = differs(before, after, PANEL_BOX)
    quiet = gapp.last_job() == posted
    ujob, _ = grid_undo("59-grid-nodes-z-undone")
    back = grid_of(ujob)
    ok = two[:2] == (301, 2) and changed == 0 and quiet and back == grid_of(grids["start"][0])
    return ok, ("nodes z 2: grid %s; − changed %d panel pixels, no new job: %s; undone: %s" %
                (two, changed, quiet, back))


for name, fn in [
    ("grid: the window opens on a copy of the three-layer scene", t_grid_window),
    ("grid: Nodes 601 halves the spacing over the same extent; Undo restores it", t_grid_nodes),
    ("grid: Extent 4 adds nodes at the same spacing; Undo restores it", t_grid_extent),
    ("grid: Spacing 0.007 keeps the extent to whole cells; Undo restores it", t_grid_spacing),
    ("grid: Nodes stops at 2; its − button then does nothing", t_grid_nodes_floor),
]:
    if not check(name, fn) and fn is t_grid_window:
        break


def t_grid_no_warnings():
    gapp.quit()
    bad = gapp.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


check("no GTK warning or critical on stderr during the grid checks", t_grid_no_warnings)

# ------------------------------------------------------------------ session 9
# A scene opened and saved untouched keeps what it asked for: a wavefront
# time past the latest arrival (a solve set the slider's range and cut the
# time down to it, and Ctrl+S saved that), and a radius past the spin
# button's old range (16; the solver takes up to 100).  A small scene:
# 51 × 31 nodes at 0.01, v = 2, the source at (0.25, 0), so the latest
# arrival is |(0.25, 0.3)| / 2 = 0.195.
FRONT_QUIET = (930, 715)            # the Markers heading, panel at its top
# The wavefront slider and its value, the panel scrolled to its end.
FRONT_SLIDER_BOX = (866, 600, 1190, 652)


def front_scene(path, nx=51, time_=0.3, wavefront=False, radius=5, interval=0.02):
    doc = {"format": "foldray-scene", "version": 1, "title": "Wavefront",
           "grid": {"nx": nx, "nz": 31, "spacing": [0.01, 0.01], "origin": [0, 0]},
           "default_velocity": 1.0,
           "layers": [{"velocity": 2.0, "dvdz": 0.0, "dvdx": 0.0,
                       "interface": [[0, 0], [0.5, 0]]}],
           "obstacles": [], "sources": [[0.25, 0]], "receivers": [],
           "solver": {"radius": radius, "backend": "auto"},
           "display": {"interval": interval, "colormap": "magma", "wavefront": wavefront,
                       "wavefront_time": time_}}
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
    return doc


def save_now(a, path, timeout=10.0):
    """Ctrl+S; waits for the file to be written again (a save is a rename)."""
    before = os.stat(path).st_mtime_ns
    xdo("key", "ctrl+s")
    end = time.time() + timeout
    while os.stat(path).st_mtime_ns == before and time.time() < end:
        time.sleep(0.1)
    return os.stat(path).st_mtime_ns != before


def scroll_panel_down(clicks=30):
    """Scrolls the side panel down by wheel clicks: 30 reach its end, past
    the traveltime curve; 10 bring the marker list up."""
    xdo("mousemove", 1000, 377)
    for _ in range(clicks):
        xdo("click", 5)
        time.sleep(0.05)
    xdo("mousemove", *FRONT_QUIET)
    time.sleep(0.8)


kept = {}


def open_and_save(name, **kw):
    """Opens a new scene, solves it, saves it untouched: the job, the
    canvas, the titles before and after Ctrl+S, what was written and what
    was saved."""
    path = os.path.join(OUT, name + ".json")
    doc = front_scene(path, **kw)
    a = App(path, name=name)
    try:
        if not a.find_window():
            raise RuntimeError("no window for %s" % name)
        a.settle_all()
        xdo("mousemove", *FRONT_QUIET)
        time.sleep(0.6)
        canvas = a.canvas(a.stable_shot("60-" + name)).copy()
        spr, title = a.last("spr"), a.title()
        wrote = save_now(a, path)
        after = a.title()
    finally:
        a.quit()
    bad = a.bad_stderr()
    if bad:
        raise RuntimeError("bad stderr: %s" % bad[:3])
    with open(path) as f:
        back = json.load(f)
    return {"spr": spr, "canvas": canvas, "titles": (title, after), "wrote": wrote,
            "doc": doc, "saved": back}


def display_kept(name, **kw):
    r = kept[name] = open_and_save(name, **kw)
    want, got = r["doc"]["display"], r["saved"].get("display") or {}
    same = (set(want) == set(got) and all(abs(got[k] - v) <= 1e-12 if isinstance(v, float)
                                          else got[k] == v for k, v in want.items()))
    clean = not any(t.startswith("•") for t in r["titles"])
    return (r["wrote"] and same and clean,
            "saved: %s; display written %s, saved %s; titles %r" %
            (r["wrote"], want, got, r["titles"]))


def t_front_time_kept():
    """wavefront_time 0.3, wavefront off: saved as 0.3, not as the latest
    arrival (0.195), and the title shows no unsaved mark."""
    return display_kept("front-0.3", time_=0.3)


def t_front_time_kept_far():
    """wavefront_time 5.0 with the wavefront on: saved as 5.0."""
    return display_kept("front-5", time_=5.0, wavefront=True)


def t_front_past_arrivals_drawn():
    """A wavefront at 5.0, past every arrival, shades nothing and draws
    no front line: the canvas is that of the wavefront off (it drew the
    front at the latest arrival, in the far corners)."""
    if "front-0.3" not in kept or "front-5" not in kept:
        return False, "the scenes above did not open"
    off, far = kept["front-0.3"]["canvas"], kept["front-5"]["canvas"]
    if off.shape != far.shape:
        return False, "canvas %s, before %s" % (far.shape, off.shape)
    n = int(np.any(off != far, axis=-1).sum())
    return n == 0, "%d canvas pixels differ from the wavefront off" % n


def t_front_shown_again():
    """The time a solve clamped on the slider comes back when a later
    solve reaches further: Extent 1 (the latest arrival 0.404) shows the
    wavefront at 0.3 on the canvas and the slider, as a scene opened that
    wide does; Ctrl+S saves 0.3."""
    path = os.path.join(OUT, "front-grow.json")
    front_scene(path, wavefront=True, interval=0.0)
    a = App(path, name="front-grow")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        job = a.last_job()
        type_into(*EXTENT_X_ENTRY, "1")
        a.wait_job(job)
        scroll_panel_down()
        grown, grid = a.stable_shot("61-front-grown"), a.last("job")
        saved_ok = save_now(a, path)
    finally:
        a.quit()
    wide_path = os.path.join(OUT, "front-wide.json")
    front_scene(wide_path, nx=101, wavefront=True, interval=0.0)
    b = App(wide_path, name="front-wide")
    try:
        if not b.find_window():
            return False, "no window for the wide scene"
        b.settle_all()
        scroll_panel_down()
        wide = b.stable_shot("62-front-wide")
    finally:
        b.quit()
    bad = a.bad_stderr() + b.bad_stderr()
    with open(path) as f:
        t = (json.load(f).get("display") or {}).get("wavefront_time")
    ga, wa = a.canvas(grown), b.canvas(wide)
    canvas = int(np.any(ga != wa, axis=-1).sum()) if ga.shape == wa.shape else -1
    x0, y0, x1, y1 = FRONT_SLIDER_BOX
    slider = int(np.any(grown[y0:y1, x0:x1] != wide[y0:y1, x0:x1], axis=-1).sum())
    ok = (int(grid.get("nx", 0)) == 101 and canvas == 0 and slider == 0 and saved_ok and
          t is not None and abs(t - 0.3) <= 1e-12 and not bad)
    return ok, ("grid after Extent 1: %s; pixels differing from the wide scene: canvas %d, "
                "slider %d; saved: %s, wavefront_time %s; %d bad stderr lines" %
                (grid, canvas, slider, saved_ok, t, len(bad)))


def t_radius_20_kept():
    """A scene with radius 20 is solved with 20 and saved as 20 (the spin
    button stopped at 16)."""
    r = open_and_save("radius-20", radius=20)
    solver = r["saved"].get("solver")
    clean = not any(t.startswith("•") for t in r["titles"])
    ok = r["spr"].get("radius") == 20 and r["wrote"] and solver == r["doc"]["solver"] and clean
    return ok, "job %s; saved: %s, solver %s; titles %r" % (r["spr"], r["wrote"], solver, r["titles"])


for name, fn in [
    ("kept: wavefront_time 0.3 past the latest arrival is saved back as 0.3, unmodified",
     t_front_time_kept),
    ("kept: wavefront_time 5.0 is saved back as 5.0, unmodified", t_front_time_kept_far),
    ("kept: a wavefront past every arrival shades nothing and draws no front", t_front_past_arrivals_drawn),
    ("kept: a later solve reaching further shows the kept wavefront time again", t_front_shown_again),
    ("kept: a scene with radius 20 is solved with 20 and saved as 20", t_radius_20_kept),
]:
    check(name, fn)

# ------------------------------------------------------------------ session 10
# The length unit: picked in the Display section's drop-down (the panel
# scrolled to its end, see 70-units-dropdown.png), it modifies the scene
# as the colour map does, is saved as "units", and the cursor readout
# names it.  A copy of the three-layer scene without "units".
UNIT_DROPDOWN = (1085, 462)
UNIT_M_ROW = (1020, 542)
UNIT_POINT = (1.2, 0.7)             # in the second layer, v = 2.5


def readouts(a):
    """The cursor readouts the window wrote, oldest first (frame log)."""
    return [l.split(" readout ", 1)[1] for l in a.lines() if " readout " in l]


def t_units_picked():
    path = os.path.join(OUT, "units.json")
    with open(SCENE) as f:
        doc = json.load(f)
    doc.pop("units", None)
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
    a = App(path, name="units")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        title0 = a.title()
        point = a.to_screen(*UNIT_POINT)
        xdo("mousemove", *point)
        time.sleep(0.8)
        before = screenshot("70-units-none")
        read0 = (readouts(a) or [""])[-1]
        scroll_panel_down()
        click(*UNIT_DROPDOWN)
        time.sleep(0.4)
        screenshot("70-units-dropdown")
        click(*UNIT_M_ROW)
        title1 = a.wait_title(lambda t: t.startswith("•"))
        n = len(readouts(a))
        xdo("mousemove", *point)
        end = time.time() + 5
        while len(readouts(a)) == n and time.time() < end:
            time.sleep(0.1)
        time.sleep(0.6)
        after = screenshot("71-units-m")
        read1 = (readouts(a) or [""])[-1]
        wrote = save_now(a, path)
        title2 = a.wait_title(lambda t: not t.startswith("•"))
    finally:
        a.quit()
    bad = a.bad_stderr()
    with open(path) as f:
        saved = json.load(f).get("units")
    changed = differs(before, after, CURSOR_LABEL)
    # x and z in m, v in m/s, T in s; before, no unit at all.
    named = (read1.count(" m ") == 2 and " m/s " in read1 and read1.endswith(" s") and
             " m" not in read0 and "/s" not in read0)
    ok = (not title0.startswith("•") and title1.startswith("•") and wrote and
          not title2.startswith("•") and saved == {"length": "m"} and named and changed > 20 and
          not bad)
    return ok, ("titles %r, %r after picking m, %r after Ctrl+S; saved units %r; readout %r then "
                "%r (%d pixels changed); %d bad stderr lines" %
                (title0, title1, title2, saved, read0, read1, changed, len(bad)))


check("units: picking m in Length unit modifies the scene, is saved as \"units\" and shown in "
      "the cursor readout", t_units_picked)

# ------------------------------------------------------------------ fields
# A layer velocity of 2.54171 shows as 2.542: visiting its field without
# typing wrote the rounded text back, changed the model and solved again.


def t_layer_field_left_as_shown():
    path = scene_variant(os.path.join(OUT, "layer-digits.json"),
                         lambda scene: scene["layers"][1].update(velocity=2.54171))
    a = App(path, name="layer-digits")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        click(*LAYER2_ROW)
        time.sleep(0.5)
        job = a.last_job()
        click(*VELOCITY_ENTRY)
        click(*LAYER2_ROW)                # the focus leaves the field
        xdo("mousemove", 400, 650)
        time.sleep(1.5)
        after, title = a.last_job(), a.title()
    finally:
        a.quit()
    return (after == job and not title.startswith("•"),
            "jobs before and after visiting the field: %d, %d; title %r" % (job, after, title))


check("fields: visiting a layer's velocity field without typing changes nothing",
      t_layer_field_left_as_shown)


def t_interval_field_left_as_shown():
    """Isochrons every 0.0125 shows as 0.013: visiting the field without
    typing leaves the scene unmodified and saves 0.0125 again."""
    path = scene_variant(os.path.join(OUT, "interval-digits.json"),
                         lambda scene: scene.update(display={"interval": 0.0125}))
    a = App(path, name="interval-digits")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        scroll_panel_down()
        click(*INTERVAL_ENTRY)
        click(*COLORMAP_DROPDOWN)          # the focus leaves the field
        xdo("key", "Escape")
        xdo("mousemove", 400, 650)
        time.sleep(1.0)
        title = a.title()
        xdo("key", "ctrl+s")              # nothing to save: written as it was
        time.sleep(1.0)
    finally:
        a.quit()
    with open(path) as f:
        saved = json.load(f).get("display", {}).get("interval")
    return (not title.startswith("•") and saved == 0.0125,
            "title %r; interval in the file %r" % (title, saved))


check("fields: visiting Isochrons every without typing changes nothing",
      t_interval_field_left_as_shown)

# ------------------------------------------------------------------ units
# With a length unit the model and fold panels name each field's unit in a
# caption under its row's label (Extent and Spacing in km, velocities in
# km/s, gradients in 1/s, Δ in s; the obstacle's over its field) and the
# status bar ends the grid's spacing with it; picking m renames them,
# picking None takes them away, back to the look of a scene without one.
# The same scene with and without "units", the panel at its top.
MODEL_UNIT_BOXES = [(866, 283, 925, 397),      # Extent, Nodes, Spacing labels
                    (866, 557, 975, 671),      # the layer's labels
                    (1000, 682, 1190, 702)]    # the obstacle heading's row
FOLD_UNIT_BOXES = [(930, 125, 995, 245),       # F, ψa x, ψa z labels
                   (930, 325, 1040, 363)]      # Horizons every
STATUS_ROW = (0, 736, 1200, 752)
UNIT_NONE_ROW = (1020, 510)                    # the drop-down's rows (70-units-dropdown.png)
units_seen = {}


def status_segments(img):
    """The status bar's labels as (first, last) ink columns: back end,
    grid, solve message (18 px apart, words 4 px)."""
    x0, y0, x1, y1 = STATUS_ROW
    p = img[y0:y1, x0:x1].astype(int)
    bg = np.median(p.reshape(-1, 3), axis=0)
    cols = np.nonzero((np.abs(p - bg).max(axis=-1) > 60).any(axis=0))[0]
    segs = []
    for c in cols:
        if segs and c - segs[-1][1] < 12:
            segs[-1][1] = c
        else:
            segs.append([c, c])
    return [(a + x0, b + x0) for a, b in segs]


def crops(img, boxes):
    return [img[y0:y1, x0:x1].copy() for x0, y0, x1, y1 in boxes]


def scroll_panel_up():
    xdo("mousemove", 1000, 377)
    for _ in range(30):
        xdo("click", 4)
        time.sleep(0.05)
    xdo("mousemove", *FRONT_QUIET)
    time.sleep(0.8)


def units_look(a, name):
    """The panels' label columns in Rays and in Folds mode, and the status
    bar's grid text (its first and last column)."""
    xdo("mousemove", *FRONT_QUIET)
    time.sleep(0.8)
    rays = screenshot("80-units-%s-rays" % name)
    click(*FOLDS_BUTTON)
    a.settle_all()
    xdo("mousemove", *FRONT_QUIET)
    time.sleep(1.0)
    folds = screenshot("81-units-%s-folds" % name)
    click(*RAYS_BUTTON)
    a.settle_all()
    segs = status_segments(rays)
    return {"model": crops(rays, MODEL_UNIT_BOXES), "fold": crops(folds, FOLD_UNIT_BOXES),
            "grid": segs[1] if len(segs) > 1 else None}


def pick_unit(a, row):
    scroll_panel_down()
    click(*UNIT_DROPDOWN)
    time.sleep(0.4)
    click(*row)
    time.sleep(0.6)
    scroll_panel_up()


def t_units_session():
    plain = os.path.join(OUT, "units-plain.json")
    with open(SCENE) as f:
        doc = json.load(f)
    doc.pop("units", None)
    with open(plain, "w") as f:
        json.dump(doc, f, indent=2)
    doc["units"] = {"length": "km"}
    km = os.path.join(OUT, "units-km.json")
    with open(km, "w") as f:
        json.dump(doc, f, indent=2)
    a = App(plain, name="units-plain")
    try:
        if not a.find_window():
            return False, "no window for the scene without units"
        a.settle_all()
        units_seen["plain"] = units_look(a, "plain")
    finally:
        a.quit()
    b = App(km, name="units-km")
    try:
        if not b.find_window():
            return False, "no window for the km scene"
        b.settle_all()
        units_seen["km"] = units_look(b, "km")
        pick_unit(b, UNIT_M_ROW)
        units_seen["m"] = units_look(b, "m")
        pick_unit(b, UNIT_NONE_ROW)
        units_seen["none"] = units_look(b, "none")
    finally:
        b.quit()
    bad = a.bad_stderr() + b.bad_stderr()
    return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))


def unit_diffs(x, y):
    """Pixels that differ between two looks, box by box."""
    return ([int(np.any(p != q, axis=-1).sum()) for p, q in zip(x["model"], y["model"])],
            [int(np.any(p != q, axis=-1).sum()) for p, q in zip(x["fold"], y["fold"])])


def grid_width(look):
    return look["grid"][1] - look["grid"][0] if look["grid"] else -1


def t_units_km():
    """A km scene: every caption box differs from the scene without units,
    and the grid text is longer by " km"."""
    if not {"plain", "km"} <= set(units_seen):
        return False, "the scenes above did not open"
    model, fold = unit_diffs(units_seen["plain"], units_seen["km"])
    wider = grid_width(units_seen["km"]) - grid_width(units_seen["plain"])
    ok = min(model) > 20 and min(fold) > 20 and 12 <= wider <= 40
    return ok, ("pixels differing from no unit: model %s, fold %s; grid text %d px wider "
                "(%s, was %s)" % (model, fold, wider, units_seen["km"]["grid"],
                                  units_seen["plain"]["grid"]))


def t_units_m():
    """Picking m: the captions change again (m, m/s; Δ stays in s) and
    the grid text ends in " m", shorter than " km", longer than none."""
    if not {"plain", "km", "m"} <= set(units_seen):
        return False, "the session above did not get this far"
    model, fold = unit_diffs(units_seen["km"], units_seen["m"])
    model0, fold0 = unit_diffs(units_seen["plain"], units_seen["m"])
    w0, wkm, wm = (grid_width(units_seen[k]) for k in ("plain", "km", "m"))
    # Δ is in s with either unit.
    ok = (min(model) > 20 and fold[0] > 20 and min(model0) > 20 and min(fold0) > 20 and
          w0 + 6 <= wm < wkm)
    return ok, ("pixels differing from km: model %s, fold %s; from no unit: model %s, fold %s; "
                "grid text %d px (none %d, km %d)" % (model, fold, model0, fold0, wm, w0, wkm))


def t_units_none():
    """Picking None: the panels and the grid text look exactly as in the
    scene without units."""
    if not {"plain", "none"} <= set(units_seen):
        return False, "the session above did not get this far"
    model, fold = unit_diffs(units_seen["plain"], units_seen["none"])
    w0, wn = grid_width(units_seen["plain"]), grid_width(units_seen["none"])
    ok = not any(model) and not any(fold) and wn == w0
    return ok, ("pixels differing from no unit: model %s, fold %s; grid text %d px, without "
                "units %d" % (model, fold, wn, w0))


for name, fn in [
    ("units: a scene with and without \"units\" opens, Length unit picked m, then None",
     t_units_session),
    ("units: a km scene names km, km/s, 1/s and s under the panels' labels and ends the status "
     "bar's spacing with km", t_units_km),
    ("units: picking m in Length unit renames the panels' units and the spacing's", t_units_m),
    ("units: picking None takes the panels' units and the spacing's away", t_units_none),
]:
    check(name, fn)

# ------------------------------------------------------------------ session 9
# A scene's fold values beyond the fields' old ranges (helper-58): Count
# 300 showed as 200, and the next edit of Δ saved 200; F 1500 and ψa 1200
# (a scene in metres) showed as 1000, and Δ 0.0005 as 0.001, which was
# also the least Δ one could type.  The positions are those of 11-folds.png
# (a scene without units).
DELTA_ENTRY = (1055, 344)
DELTA_PLUS = (1165, 344)


def folds_scene(name, fold):
    """OUT/name: the bundled scene without units, opening in Folds mode
    with the "fold" members given; returns its path."""
    path = os.path.join(OUT, name)
    with open(SCENE) as f:
        doc = json.load(f)
    doc.pop("units", None)
    doc["fold"] = fold
    doc["mode"] = "folds"
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def t_fold_values_kept():
    path = folds_scene("fold-ranges.json", {"speed": 1500.0, "psi_a": [1200.0, 0.0], "method": "las",
                                            "backend": "cpu", "delta": 0.0005, "count": 300})
    a = App(path, name="fold-ranges")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        screenshot("50-fold-ranges")
        type_into(*DELTA_ENTRY, "0.0004")
        a.settle_all()
        # + steps by a tenth of Δ's decade: 0.00041 (a fixed 0.01 took
        # 1e-9 to 0.010000001; helper-62).
        click(*DELTA_PLUS)
        a.settle_all()
        xdo("key", "ctrl+s")
        a.wait_title(lambda t: not t.startswith("•"))
        fold = saved(path, "fold") or {}
        job = a.last("fold")
    finally:
        a.quit()
    ok = (fold.get("count") == 300 and abs(fold.get("delta", 0) - 0.00041) < 1e-12
          and fold.get("speed") == 1500.0
          and fold.get("psi_a") == [1200.0, 0.0] and job.get("psi_x") == 1200.0)
    return ok, "saved fold %s; last fold job %s" % (
        {k: fold.get(k) for k in ("count", "delta", "speed", "psi_a")}, job)


check("folds: Count 300, Δ 0.0005, F 1500 and ψa 1200 are kept; Δ 0.0004 can be typed, and + "
      "steps it to 0.00041",
      t_fold_values_kept)

F_PLUS = (1165, 144)


def t_fold_small_speed_shown():
    """A scene's F 0.0005 and ψa 0.0002 show as they are: F showed as
    0.001, the field's least, and ψa as 0.000, while the folds were
    solved, and sheared, with both.  Each field's text changes when 0.001
    and 0 are typed (it did not: it showed them already, and a 0 typed
    into ψa x, the field "left as shown", kept 0.0002), and F's + steps by
    a tenth of its decade, 0.001 to 0.0011 (a fixed 0.1 took it to
    0.101)."""
    path = folds_scene("fold-small.json", {"speed": 0.0005, "psi_a": [0.0002, 0.0], "method": "las",
                                           "backend": "cpu"})
    fx, fy = F_ENTRY
    px, py = PSI_X_ENTRY
    f_box = (fx - 50, fy - 12, fx + 50, fy + 12)
    psi_box = (px - 50, py - 12, px + 50, py + 12)
    a = App(path, name="fold-small")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("mousemove", 400, 650)
        time.sleep(0.8)
        before = screenshot("51-fold-small")
        job = a.last("fold")
        type_into(*PSI_X_ENTRY, "0")
        type_into(*F_ENTRY, "0.001")
        a.settle_all()
        xdo("mousemove", 400, 650)
        time.sleep(0.8)
        typed = screenshot("52-fold-small-typed")
        click(*F_PLUS)
        a.settle_all()
        xdo("key", "ctrl+s")
        a.wait_title(lambda t: not t.startswith("•"))
        fold = saved(path, "fold") or {}
    finally:
        a.quit()
    f_changed = differs(before, typed, f_box)
    psi_changed = differs(before, typed, psi_box)
    # The focused field's ring alone changes about 16 pixels.
    ok = (job.get("psi_x") == 0.0002 and f_changed > 50 and psi_changed > 0
          and abs(fold.get("speed", 0) - 0.0011) < 1e-12 and fold.get("psi_a") == [0.0, 0.0])
    return ok, ("first fold job %s; pixels changed by typing F 0.001: %d, ψa x 0: %d; saved %s"
                % (job, f_changed, psi_changed,
                   {k: fold.get(k) for k in ("speed", "psi_a")}))


check("folds: F 0.0005 and ψa 0.0002 show as they are, and F's + steps by a tenth of its decade",
      t_fold_small_speed_shown)


def t_fold_psi_near_f_noted():
    """A scene's |ψa| above 0.95 F, which the app solves as given (as
    foldray-cli does), is said under the ψa fields, as foldray-cli notes
    it: 0.97 F makes the times about 33 times less accurate.  It was
    silent.  Typed down to 0.9 F, the note goes, and the Method row below
    it moves back up."""
    path = folds_scene("fold-near-f.json", {"speed": 1.0, "psi_a": [0.97, 0.0], "method": "las",
                                            "backend": "cpu"})
    note_box = (905, 242, 1185, 300)        # below ψa z: the note, else the Method row
    a = App(path, name="fold-near-f")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("mousemove", 400, 650)
        time.sleep(0.8)
        noted = screenshot("53-fold-psi-near-f")
        job = a.last("fold")
        type_into(*PSI_X_ENTRY, "0.9")
        a.settle_all()
        xdo("mousemove", 400, 650)
        time.sleep(0.8)
        quiet = screenshot("54-fold-psi-below-margin")
    finally:
        a.quit()
    changed = differs(noted, quiet, note_box)
    ok = job.get("psi_x") == 0.97 and changed > 200
    return ok, "first fold job %s; pixels under ψa z that changed at 0.9 F: %d" % (job, changed)


check("folds: a scene's |ψa| above 0.95 F is said under the ψa fields, as foldray-cli notes it",
      t_fold_psi_near_f_noted)

# ------------------------------------------------------------------ session 10
# A survey in UTM coordinates (helper-60): the cursor readout wrote x as
# "5.14e+05 m", to the nearest kilometre.  It now gives x and z to a tenth
# of the spacing, and the saved scene writes 512000, not 5.12e+05.


def t_utm_readout():
    path = os.path.join(OUT, "utm.json")
    doc = {"format": "foldray-scene", "version": 1, "title": "UTM",
           "grid": {"nx": 301, "nz": 151, "spacing": [10.0, 10.0], "origin": [512000.0, 0.0]},
           "default_velocity": 1500.0,
           "layers": [{"velocity": 2000.0, "dvdz": 0.6, "dvdx": 0.0,
                       "interface": [[512000.0, 0.0], [515000.0, 0.0]]}],
           "obstacles": [], "sources": [[513000.0, 0.0]], "receivers": [],
           "solver": {"radius": 5, "backend": "cpu"}, "units": {"length": "m"}}
    with open(path, "w") as f:
        json.dump(doc, f)
    a = App(path, name="utm")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        n = len(readouts(a))
        x_screen, z_screen = a.to_screen(514000.0, 1000.0)
        xdo("mousemove", x_screen, z_screen)
        end = time.time() + 5
        while len(readouts(a)) == n and time.time() < end:
            time.sleep(0.1)
        time.sleep(0.4)
        screenshot("80-utm-readout")
        read = (readouts(a) or [""])[-1]
        # A click places a source there; the scene, modified, is saved.
        xdo("click", 1)
        a.wait_title(lambda t: t.startswith("•"))
        wrote = save_now(a, path)
        with open(path) as f:
            text = f.read()
    finally:
        a.quit()
    m = re.match(r"x (\S+) m  z (\S+) m  v (\S+) m/s", read)
    x = float(m.group(1)) if m else None
    z = float(m.group(2)) if m else None
    ok = (m is not None and "e+" not in read and abs(x - 514000.0) < 20 and abs(z - 1000.0) < 20
          and wrote and "512000" in text and "e+0" not in text)
    return ok, "readout %r; saved %s, with e+0: %s" % (read, wrote, "e+0" in text)


check("UTM: the cursor readout gives x to the metre, and the saved scene writes 512000",
      t_utm_readout)

# ------------------------------------------------------------------ markers typed
# The Markers fields between Model and Display: Alt+S (Add Source) adds a source at the
# top of the model's middle column and gives the focus to its x; x and z
# typed there move it to the nearest node, one undo step each.  No mouse
# places the source.


def source_drawn(a, img, x, z):
    """Whether the source's red shows within 2 pixels of model point (x, z)."""
    sx, sy = a.to_screen(x, z)
    return bool(np.any(np.abs(img[sy - 2: sy + 3, sx - 2: sx + 3].astype(int)
                              - (255, 77, 20)).max(axis=-1) < 40))


def t_markers_typed():
    path = scene_variant(os.path.join(OUT, "markers", "markers.json"),
                         lambda scene: scene.update(sources=[], receivers=[[2.5, 0.0]]))
    a = App(path, name="markers")
    notes = []
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        job = a.last_job()
        xdo("key", "alt+s")
        a.wait_settled(a.last_settled())
        added = a.last("job").get("sources")
        notes.append("Alt+S: a job with %s sources, title %r" % (added, a.title()))
        xdo("key", "ctrl+a")
        xdo("type", "0.734")
        xdo("key", "Tab")
        xdo("key", "ctrl+a")
        xdo("type", "0.42")
        xdo("key", "Return")
        time.sleep(1.0)
        a.settle_all()
        xdo("mousemove", *FRONT_QUIET)
        img = a.stable_shot("80-markers-typed")
        drawn = source_drawn(a, img, 0.73, 0.42)
        wrote = save_now(a, path)
        with open(path) as f:
            doc = json.load(f)
        sources = doc.get("sources")
        notes.append("typed 0.734 and 0.42: source drawn at (0.73, 0.42) %s; saved %s with "
                     "sources %s" % (drawn, wrote, sources))
        ok = (added == 1 and job < a.last_job() and drawn and wrote and sources is not None
              and len(sources) == 1 and abs(sources[0][0] - 0.73) < 1e-9
              and abs(sources[0][1] - 0.42) < 1e-9)

        click(240, 27)                 # Undo: the z typed
        click(240, 27)                 # Undo: the x typed
        a.settle_all()
        xdo("mousemove", *FRONT_QUIET)
        img = a.stable_shot("82-markers-undone")
        back = source_drawn(a, img, 1.5, 0.0)
        notes.append("two undos: the source back at (1.5, 0) %s" % back)
        ok = ok and back
        bad = a.bad_stderr()
    finally:
        a.quit()
    notes.append("bad stderr lines: %s" % bad[:4])
    return ok and not bad, "\n".join(notes)


check("markers: Alt+S adds a source whose x and z are typed under Markers; undo takes them back",
      t_markers_typed)

# ------------------------------------------------------------------ marker list
# Under Markers, below Add Source and Add Receiver: a row a marker, the
# sources first, with x, z and, at each receiver, T of the newest solve
# ("—" while none is the scene's).  The panel writes the rows it shows to
# stderr under G_MESSAGES_DEBUG=fr-marker-panel; the screen is checked by
# pixels: the rows' text, the selected row's blue, the canvas's yellow ring.

LIST_RECEIVERS = [[0.45, 0.0], [1.05, 0.3], [2.25, 0.6]]
HIGHLIGHT = (255, 235, 51)            # the selected marker's ring on the canvas
LIST_DEBUG = {"G_MESSAGES_DEBUG": "fr-marker-panel"}


def list_rows(a, history=None):
    """The marker list's rows as the panel last wrote them: (name, x, z,
    T) each, and the selected row's index (-1: none).  Every list written
    before is appended to history, when given."""
    with open(a.stderr_path) as f:
        text = f.read()
    rows, selected = None, -1
    for line in text.splitlines():
        m = re.search(r"fr-marker-panel-DEBUG: [\d:.]+: list (.*)", line)
        if not m:
            continue
        body = m.group(1)
        sel = re.match(r"(?:rows=\d+ )?selected=(-?\d+)", body)
        if sel:
            selected = int(sel.group(1))
        if body.startswith("rows="):
            rows = [tuple((cell.split(" ") + [""] * 4)[:4]) for cell in body.split(" | ")[1:]]
            if history is not None:
                history.append(rows)
    return rows, selected


def list_box(img):
    """The marker list's inside, (x0, y0, x1, y1): the longest run of its
    white (or the selected row's blue) down column 1040 of the side panel."""
    col = img[55:730, 1040].astype(int)
    inside = (col == 255).all(axis=-1) | ((col[:, 2] > 180) & (col[:, 0] < 100))
    best, start = (0, 0), None
    for i, v in enumerate(list(inside) + [False]):
        if v and start is None:
            start = i
        elif not v and start is not None:
            if i - start > best[1] - best[0]:
                best = (start, i)
            start = None
    return 876, 55 + best[0], 1178, 55 + best[1]


def list_bands(img, box):
    """The lines of text in box: runs of pixel rows that are not one
    colour (a row's padding is its background alone)."""
    x0, y0, x1, y1 = box
    crop = img[y0:y1, x0 + 4:x1 - 4].astype(int)
    busy = [bool(np.any(np.abs(r - r[0]).max(axis=-1) > 60)) for r in crop]
    bands, prev = [], False
    for i, b in enumerate(busy):
        if b and not prev:
            bands.append([i, i])
        if b:
            bands[-1][1] = i
        prev = b
    return [(y0 + b0 + y0 + b1) // 2 for b0, b1 in bands]


def row_blue(img, y):
    p = img[y, 1040].astype(int)
    return p[2] > 180 and p[0] < 100


def ringed(a, img, x, z):
    """Whether the selected marker's yellow ring shows around model (x, z)."""
    sx, sy = a.to_screen(x, z)
    patch = img[sy - 12: sy + 13, sx - 12: sx + 13].astype(int)
    return int((np.abs(patch - HIGHLIGHT).max(axis=-1) < 30).sum()) > 20


def list_scene(name):
    return scene_variant(os.path.join(OUT, "marker-list", name + ".json"),
                         lambda scene: scene.update(sources=[[1.0, 0.0]], receivers=LIST_RECEIVERS))


mlist = {}


def t_list_rows():
    path = list_scene("list")
    a = mlist["app"] = App(path, name="marker-list", env=LIST_DEBUG)
    mlist["path"] = path
    if not a.find_window():
        return False, "no window"
    a.settle_all()
    scroll_panel_down(10)
    img = a.stable_shot("90-marker-list")
    rows, selected = list_rows(a)
    box = list_box(img)
    bands = list_bands(img, box)
    mlist["box"], mlist["bands"] = box, bands
    names = [r[0] for r in rows or []]
    # With no marker selected, the x and z fields above the list show their
    # placeholder "—" (a row or two of ink each), not a "0" (nine rows each),
    # which they showed until a selection was first cleared.
    # Ink: pixels much darker than their row's median (the fields' frames
    # are level, so they are not).
    zone = img[box[1] - 140:box[1] - 70, 906:928].astype(int).sum(axis=-1)
    ink_rows = int((zone < np.median(zone, axis=1, keepdims=True) - 100).any(axis=1).sum())
    ok = (names == ["S1", "R1", "R2", "R3"] and len(bands) == 4 and selected == -1
          and [r[1:3] for r in rows] == [("1", "0"), ("0.45", "0"), ("1.05", "0.3"), ("2.25", "0.6")]
          and rows[0][3] == "" and all(r[3] not in ("", "—") for r in rows[1:])
          and ink_rows <= 6)
    return ok, ("rows %s; list box %s, text lines at %s; selected %d; rows of ink in the blank "
                "x and z fields %d" % (rows, box, bands, selected, ink_rows))


check("marker list: a row a marker, S1 then R1-R3, with x and z as the fields show them and T "
      "at each receiver", t_list_rows)


def t_list_row_selects():
    a, bands = mlist["app"], mlist["bands"]
    click(1000, bands[2])             # R2's row
    time.sleep(0.5)
    img = a.stable_shot("91-marker-list-row-clicked")
    on_r2 = ringed(a, img, 1.05, 0.3)
    on_others = ringed(a, img, 0.45, 0.0) or ringed(a, img, 2.25, 0.6) or ringed(a, img, 1.0, 0.0)
    blue = [row_blue(img, y) for y in bands]
    # The canvas: a click on R3 selects its row.
    sx, sy = a.to_screen(2.25, 0.6)
    click(sx, sy)
    xdo("mousemove", *FRONT_QUIET)
    time.sleep(0.5)
    img = a.stable_shot("92-marker-list-canvas-click")
    blue_after = [row_blue(img, y) for y in bands]
    _, selected = list_rows(a)
    ok = (on_r2 and not on_others and blue == [False, False, True, False]
          and blue_after == [False, False, False, True] and selected == 3 and ringed(a, img, 2.25, 0.6))
    return ok, ("row R2 clicked: ring on R2 %s, on another %s, blue rows %s; R3 clicked on the "
                "canvas: blue rows %s, selected row %d" % (on_r2, on_others, blue, blue_after, selected))


check("marker list: a row clicked selects its marker (the canvas rings it); a marker clicked on "
      "the canvas selects its row", t_list_row_selects)


def t_list_enter_types():
    """Enter on a row gives its marker's x field the focus: the fields are
    that marker's."""
    a, bands, path = mlist["app"], mlist["bands"], mlist["path"]
    click(1000, bands[2])             # R2 again
    xdo("key", "Return")
    time.sleep(0.3)
    xdo("key", "ctrl+a")
    xdo("type", "1.2")
    xdo("key", "Return")
    time.sleep(0.8)
    a.settle_all()
    rows, _ = list_rows(a)
    wrote = save_now(a, path)
    with open(path) as f:
        receivers = json.load(f).get("receivers")
    ok = wrote and receivers == [[0.45, 0.0], [1.2, 0.3], [2.25, 0.6]] and rows[2][:3] == ("R2", "1.2", "0.3")
    return ok, "saved %s: receivers %s; rows %s" % (wrote, receivers, rows)


check("marker list: Enter on R2's row, then 1.2 typed, moves R2 to x = 1.2", t_list_enter_types)


def t_list_delete_add():
    a = mlist["app"]
    notes = []
    # The rows where they are now: typing R2's x took the focus to the x
    # field, and the side panel may have scrolled to show it.  (The
    # pointer below the model, off the list, whose rows light up under it.)
    xdo("mousemove", 400, 650)
    time.sleep(0.3)
    img = a.stable_shot()
    bands = list_bands(img, list_box(img))
    click(1000, bands[1])             # R1
    xdo("key", "Delete")
    time.sleep(0.6)
    after_delete, _ = list_rows(a)
    notes.append("Delete on R1's row: %s" % (after_delete,))
    xdo("key", "ctrl+z")
    time.sleep(0.6)
    after_undo, _ = list_rows(a)
    notes.append("Ctrl+Z: %s" % (after_undo,))
    a.settle_all()
    sx, sy = a.to_screen(2.0, 1.2)
    xdo("mousemove", sx, sy)
    xdo("keydown", "shift")
    xdo("click", 1)
    xdo("keyup", "shift")
    xdo("mousemove", *FRONT_QUIET)
    a.settle_all()
    time.sleep(0.5)
    img = a.stable_shot("93-marker-list-shift-click")
    added, selected = list_rows(a)
    bands_now = list_bands(img, list_box(img))
    blue = [row_blue(img, y) for y in bands_now]
    notes.append("Shift+click at (2, 1.2): %s, selected %d; text lines %s, blue %s"
                 % (added, selected, bands_now, blue))
    # R4 lies in the 4 km/s layer, viridis's yellow, as yellow as the
    # selection's halo: the halo's dark rim (1.5 px past its 15 px diamond)
    # shows it.  Pixels between 15.4 and 16.3 px (|dx| + |dy|) from R4.
    cx, cy = a.to_screen(2.0, 1.2)
    yy, xx = np.mgrid[cy - 20:cy + 21, cx - 20:cx + 21]
    l1 = np.abs(xx - cx) + np.abs(yy - cy)
    rim = (l1 >= 15.4) & (l1 <= 16.3)
    dark = int((img[cy - 20:cy + 21, cx - 20:cx + 21].astype(int).sum(axis=-1)[rim] < 250).sum())
    notes.append("R4's halo over the yellow layer: %d of %d rim pixels dark" % (dark, int(rim.sum())))
    ok = (after_delete is not None and [r[:3] for r in after_delete] ==
          [("S1", "1", "0"), ("R1", "1.2", "0.3"), ("R2", "2.25", "0.6")]
          and after_undo is not None and len(after_undo) == 4 and after_undo[1][1] == "0.45"
          and added is not None and len(added) == 5 and added[4][:3] == ("R4", "2", "1.2")
          and added[4][3] not in ("", "—") and selected == 4
          and len(bands_now) == 5 and blue == [False] * 4 + [True]
          and dark >= rim.sum() // 4)
    return ok, "\n".join(notes)


check("marker list: Delete on a row removes its marker, Ctrl+Z brings it back; Shift+click on "
      "the canvas adds a row, selected, its halo rimmed over the yellow layer", t_list_delete_add)


def t_list_keyboard():
    """Tab reaches the list from the fields above it (x, z, Add Source, Add
    Receiver, the list); the arrow keys then choose rows, Space keeps one."""
    a = mlist["app"]
    # The list has grown by a row since: where its rows are now.
    img = a.stable_shot()
    bands = list_bands(img, list_box(img))
    click(1000, bands[1])             # R1, then Enter: the focus in x
    xdo("key", "Return")
    time.sleep(0.3)
    for _ in range(4):
        xdo("key", "Tab")
        time.sleep(0.2)
    xdo("key", "Down")
    time.sleep(0.5)
    img = a.stable_shot("94-marker-list-tab-down")
    down = ([row_blue(img, y) for y in bands[:4]], ringed(a, img, 1.2, 0.3), ringed(a, img, 0.45, 0.0))
    xdo("key", "Up")
    xdo("key", "space")
    time.sleep(0.5)
    img = a.stable_shot("95-marker-list-up-space")
    up = ([row_blue(img, y) for y in bands[:4]], ringed(a, img, 0.45, 0.0))
    ok = (down == ([False, False, True, False], True, False) and up == ([False, True, False, False], True))
    return ok, ("4 Tabs from x, then Down: blue rows %s, R2 ringed %s, R1 ringed %s; Up and "
                "Space: blue rows %s, R1 ringed %s" % (down + up))


check("marker list: Tab reaches the list, Down and Up choose rows (the canvas follows), Space "
      "keeps the row chosen", t_list_keyboard)


def t_list_time_stale():
    """A new source makes every T stale ("—") until its solve lands; the
    cursor readout over a receiver reads the T its row shows."""
    a = mlist["app"]
    notes = []
    before = []
    list_rows(a, before)
    xdo("key", "alt+s")
    a.settle_all()

    def all_timed():
        rows, _ = list_rows(a)
        return rows is not None and len(rows) == 6 and all(
            r[3] not in ("", "—") for r in rows if not r[0].startswith("S"))

    # The list is written again once the two sources' solve lands, which
    # on a loaded machine may follow the canvas's settling (in one CI run
    # the rows still read — half a second after it).
    wait_for(all_timed, 10.0)
    time.sleep(0.5)
    history = []
    solved, _ = list_rows(a, history)
    # The list written at once, before the solve of two sources landed.
    pending = history[len(before)] if len(history) > len(before) else None
    notes.append("Alt+S: %s\nsolved: %s" % (pending, solved))
    n = len(readouts(a))
    sx, sy = a.to_screen(2.25, 0.6)
    xdo("mousemove", sx, sy)
    wait_for(lambda: len(readouts(a)) > n, 5.0)
    time.sleep(0.3)
    read = (readouts(a) or [""])[-1]
    m = re.search(r"T ([\d.e+-]+) s", read)
    row = [r for r in solved or [] if r[1:3] == ("2.25", "0.6")]
    # The pointer sits within half a pixel of the node, where T changes
    # by at most half a pixel over the slowest velocity.
    v = a.view()
    slack = 0.5 / v["scale"] / 1.5 + 1e-4
    agree = bool(m and row and abs(float(m.group(1)) - float(row[0][3])) <= slack)
    notes.append("readout over R3 %r; its row %s; slack %.4f s" % (read, row, slack))
    ok = (pending is not None and [r[0] for r in pending] == ["S1", "S2", "R1", "R2", "R3", "R4"]
          and all(r[3] == "—" for r in pending if r[0].startswith("R"))
          and solved is not None and all(r[3] not in ("", "—") for r in solved if not r[0].startswith("S"))
          and agree)
    bad = a.bad_stderr()
    a.quit()
    notes.append("bad stderr lines: %s" % bad[:4])
    return ok and not bad, "\n".join(notes)


check("marker list: T reads — at every receiver while a new source's solve is pending, then the "
      "new T, which the cursor readout over a receiver agrees with", t_list_time_stale)


def decimals(t):
    return len(t.split(".")[1]) if "." in t else 0


def t_list_time_exported():
    """The T a receiver's row shows is the exported T.npy at its node."""
    path = list_scene("export")
    d = os.path.join(OUT, "marker-list", "export")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    a = App(path, "--export-on-idle", d, name="marker-list-export", env=LIST_DEBUG)
    rc = a.wait_exit()
    rows, _ = list_rows(a)
    T = np.load(os.path.join(d, "T.npy"))
    pairs = []
    for name, x, z, t in rows or []:
        if name.startswith("R"):
            ix, iz = int(round(float(x) / 0.01)), int(round(float(z) / 0.01))
            pairs.append((name, t, float(T[iz, ix])))
    # Within half a unit of the last decimal shown (every row has the
    # decimals of five significant digits of the field's largest T).
    agree = len(pairs) == 3 and all(t not in ("", "—") and abs(float(t) - npy) <= 0.5 * 10 ** -decimals(t) + 1e-7
                                    for _, t, npy in pairs)
    return rc == 0 and agree, "exit %s; row T against T.npy: %s" % (rc, pairs)


check("marker list: the T each receiver's row shows is the exported T.npy at its node",
      t_list_time_exported)




def t_list_time_aligned_and_pending():
    """Every receiver's T has the same decimals (R1 by the source, 0.03 s,
    and R3, 0.8 s, were 0.033333 and 0.82917 with %.5g), five significant
    digits of the field's largest T; and a new radius or back end makes
    every T "—" until its solve lands (each solve held back 3 s), as a
    moved source does."""
    path = scene_variant(os.path.join(OUT, "marker-list", "aligned.json"),
                         lambda scene: scene.update(sources=[[1.0, 0.0]],
                                                    receivers=[[1.0, 0.05], [0.45, 0.0], [2.25, 0.6]]))
    a = App(path, name="marker-list-aligned",
            env=dict(LIST_DEBUG, FOLDRAY_DEBUG_SOLVE_DELAY_MS="3000"))
    notes, ok = [], True
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        rows, _ = list_rows(a)
        ts = [r[3] for r in rows or [] if r[0].startswith("R")]
        good = len(ts) == 3 and len({decimals(t) for t in ts}) == 1 and decimals(ts[0]) >= 4
        ok &= good
        notes.append("solved: T %s" % ts)
        for what, act in (("radius 4", lambda: type_into(*RADIUS_ENTRY, "4")),
                          ("back end Dijkstra", lambda: (click(*BACKEND_DROPDOWN),
                                                         click(*BACKEND_ROWS["dijkstra"])))):
            job = a.last_job()
            history = []
            list_rows(a, history)
            t0 = time.time()
            act()
            wait_for(lambda: a.last_job() > job, 2.0)
            pending, _ = list_rows(a)
            early = time.time() - t0 < 2.5
            a.wait_job(job)
            solved, _ = list_rows(a)
            p = [r[3] for r in pending or [] if r[0].startswith("R")]
            d = [r[3] for r in solved or [] if r[0].startswith("R")]
            good = (early and p == ["—"] * 3 and len(d) == 3 and "—" not in d
                    and len({decimals(t) for t in d}) == 1)
            ok &= good
            notes.append("%s: T while its solve is pending %s (read %s), then %s; spr %s"
                         % (what, p, "in time" if early else "too late", d, a.last("spr")))
    finally:
        a.quit()
    bad = a.bad_stderr()
    notes.append("bad stderr lines: %s" % bad[:4])
    return ok and not bad, "\n".join(notes)


check("marker list: T in one number of decimals at every receiver, and — while a new radius's "
      "or back end's solve is pending", t_list_time_aligned_and_pending)


def t_stencil_note():
    """On cells five times taller than wide, radius 5 leaves the stencil
    nothing between the horizontal and 45 degrees: the status line says
    that paths come out up to 8.2 % long, and that 25 along x and 5 along
    z give 0.5 % (79-stencil-note.png).  With 25 typed into Radius x the
    note is gone."""
    path = os.path.join(OUT, "tall-cells.npy")
    np.save(path, np.full((31, 121), 2.0, dtype=np.float32))
    a = App(path, "--spacing", "0.01,0.05", "--source", "0.6,0", "--radius", "5", name="stencil")
    notes = []
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("mousemove", *QUIET)
        time.sleep(0.5)
        screenshot("79-stencil-note")
        before = a.rays_status()
        job = a.last_job()
        type_into(*RADIUS_ENTRY, "25")
        a.wait_job(job)
        a.settle_all()
        after = a.rays_status()
        spr = a.last("spr")
    finally:
        a.quit()
    want = "on these cells the radius lengthens paths by up to 8.2 %; 25 along x and 5 along z give 0.5 %"
    ok = (before.endswith("— " + want) and spr.get("radius") == 25 and spr.get("radius_z") == 5
          and after.startswith("Solved in") and "—" not in after and not a.bad_stderr())
    notes.append("radius 5: %r\nradius 25,5 (%s): %r" % (before, spr, after))
    return ok, "\n".join(notes)


check("status: on cells of unlike spacings the stencil's error and a radius of even reach are "
      "named, and the note goes with that radius", t_stencil_note)

print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
