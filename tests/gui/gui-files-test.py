#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of opening files by name and by dialog: a scene named in
capitals (LINE-7.JSON, as Save As accepts it) opens as a scene, and the
Grid Spacing dialog of a .npy without a sidecar refuses what is no number
("2,5") or out of range (0) instead of opening the grid at 2 × 1e-9,
then opens it at the spacing typed, a spacing of 1.25e-5 too.  A 100-byte
scene naming 46000 × 46000 nodes, opened under ulimit -v, is refused with a
dialog and the scene kept, and so is a grid whose spacing (1e-320) gives
times no solve could hold.  Examples → Syncline with a Salt Body opens
the bundled scene as a new document, saved where the user says.  Real input through xdotool, checks by
the window title, the frame log's job line and the screen.  Speaks TAP.

Usage: gui-files-test.py FOLDRAY_EXE OUT_DIR

The harness is guilib.py; the window sits at the screen's top-left corner."""

import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

from guilib import App, check, configure, near, results, run, screenshot, wait_for, xdo

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-files-")
configure(EXE, OUT, "1200x760")
ROOT = os.environ.get("FOLDRAY_SOURCE_ROOT",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCENE = os.path.join(ROOT, "data", "scenes", "three-layer.json")
# viridis at the top of the colour bar: the salt, the fastest rock.
SALT_RGB = (253, 231, 37)


def window_ids(name):
    return run("xdotool", "search", "--onlyvisible", "--name", name, check=False).stdout.split()


def t_scene_in_capitals():
    """The bundled scene copied as LINE-7.JSON opens as that scene: its name
    in the title, no error.  It was read as a .npy grid ("not a .npy file
    (bad magic)") and the window fell back to the example."""
    path = os.path.join(OUT, "LINE-7.JSON")
    shutil.copyfile(SCENE, path)
    a = App(path, name="capitals")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        title = a.wait_title(lambda t: "LINE-7.JSON" in t, timeout=5)
        errors = window_ids("Could not open")
        bad = a.bad_stderr()
    finally:
        a.quit()
    ok = "LINE-7.JSON" in title and not errors and not bad
    return ok, "title %r; error dialogs %s; bad stderr %s" % (title, errors, bad)



def open_by_chooser(a, path, until):
    """Ctrl+O, the file's path typed into the chooser's location, and
    Enter until until() holds; whether it did."""
    xdo("key", "ctrl+o")
    if not wait_for(lambda: window_ids("Open Scene or Velocity Grid"), 10):
        raise RuntimeError("no Open chooser")
    time.sleep(0.5)
    xdo("key", "ctrl+l")
    time.sleep(0.3)
    xdo("type", "--", path)
    time.sleep(0.5)
    # The first Enter may only take the location's completion.
    for _ in range(3):
        xdo("key", "Return")
        if wait_for(until, 3):
            return True
    return False


def grid_without_sidecar(stem, nz, nx):
    """OUT/stem.npy, nz × nx nodes of 2.0, with no stem.json beside it."""
    npy = os.path.join(OUT, stem + ".npy")
    np.save(npy, np.full((nz, nx), 2.0, np.float32))
    sidecar = os.path.join(OUT, stem + ".json")
    if os.path.exists(sidecar):
        os.remove(sidecar)
    return npy


def open_spacing_dialog(a, npy):
    """Opens npy in a, which asks for its spacing; the focus is then in
    Spacing x, its text selected."""
    a.settle_all()
    if not open_by_chooser(a, npy, lambda: window_ids("Grid Spacing")):
        raise RuntimeError("no Grid Spacing dialog")
    time.sleep(0.5)


def red_pixels(img, box):
    x0, y0, x1, y1 = box
    p = img[y0:y1, x0:x1].astype(int)
    return int(((p[..., 0] > 170) & (p[..., 1] < 90) & (p[..., 2] < 90)).sum())


def t_spacing_dialog():
    """80 × 50 nodes without a sidecar.  "2,5" in Spacing x and 0 in
    Spacing z: Open keeps the dialog, which says so in red, and opens
    nothing; 0.5 and 0.25 typed then open the grid at 0.5 × 0.25."""
    npy = grid_without_sidecar("nosidecar", 50, 80)
    a = App(SCENE, name="spacing")
    try:
        if not a.find_window():
            return False, "no window"
        open_spacing_dialog(a, npy)
        xdo("key", "ctrl+a")
        xdo("type", "--", "2,5")
        xdo("key", "Tab")
        xdo("key", "ctrl+a")
        xdo("type", "--", "0")
        xdo("key", "alt+o")
        time.sleep(1.5)
        kept = bool(window_ids("Grid Spacing"))
        opened_early = a.last("job").get("nx") == 80
        red = 0
        if kept:
            did = window_ids("Grid Spacing")[-1]
            geo = dict(l.split("=") for l in run("xdotool", "getwindowgeometry", "--shell", did).stdout.split())
            x, y, w, h = (int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
            red = red_pixels(screenshot("01-spacing-refused"), (x, y, x + w, y + h))
            xdo("key", "shift+Tab")
            xdo("key", "ctrl+a")
            xdo("type", "--", "0.5")
            xdo("key", "Tab")
            xdo("key", "ctrl+a")
            xdo("type", "--", "0.25")
            xdo("key", "alt+o")
        wait_for(lambda: a.last("job").get("nx") == 80, 10)
        a.settle_all()
        job = a.last("job")
        gone = not window_ids("Grid Spacing")
        bad = a.bad_stderr()
    finally:
        a.quit()
    # The refused field shows its value kept, "1", in red: about 15
    # pixels (the dialog holds no other red).
    ok = (kept and not opened_early and red > 8 and gone and job.get("nx") == 80 and
          job.get("nz") == 50 and job.get("dx") == 0.5 and job.get("dz") == 0.25 and not bad)
    return ok, ("dialog kept after 2,5 and 0: %s (a grid opened then: %s; %d red pixels in it); "
                "then job %s, dialog gone: %s; bad stderr %s" % (kept, opened_early, red, job, gone, bad))


def t_spacing_small():
    """A spacing below a thousandth, as the side panel's Spacing fields
    take it: 2e-5 and 0.0000125 typed, the focus moved through Spacing z
    and on, open the grid at 2e-5 × 1.25e-5.  The dialog showed six fixed
    decimals: Spacing z read 0.000013 once left, was read back as 1.3e-5
    when left again, and the grid opened at that (a spacing clamped to
    1e-9 read 0.000000)."""
    npy = grid_without_sidecar("small", 30, 40)
    a = App(SCENE, name="spacing-small")
    try:
        if not a.find_window():
            return False, "no window"
        open_spacing_dialog(a, npy)
        xdo("key", "ctrl+a")
        xdo("type", "--", "2e-5")
        xdo("key", "Tab")
        xdo("key", "ctrl+a")
        xdo("type", "--", "0.0000125")
        xdo("key", "Tab")
        # Back through Spacing z and on again, as one checks what was typed.
        xdo("key", "shift+Tab")
        xdo("key", "Tab")
        time.sleep(0.5)
        screenshot("02-spacing-small")
        xdo("key", "alt+o")
        wait_for(lambda: a.last("job").get("nx") == 40, 10)
        a.settle_all()
        job = a.last("job")
        bad = a.bad_stderr()
    finally:
        a.quit()
    ok = (job.get("nx") == 40 and job.get("nz") == 30 and
          abs(job.get("dx", 0) - 2e-5) < 1e-12 and abs(job.get("dz", 0) - 1.25e-5) < 1e-12 and not bad)
    return ok, "job %s; bad stderr %s" % (job, bad)


def dialogs_of(a):
    """a's visible windows other than its main one, as tall as a dialog
    (not a tooltip)."""
    out = []
    for w in run("xdotool", "search", "--onlyvisible", "--pid", str(a.proc.pid), check=False).stdout.split():
        geo = dict(l.split("=") for l in run("xdotool", "getwindowgeometry", "--shell", w).stdout.split())
        if w != a.win and int(geo["HEIGHT"]) >= 80:
            out.append(w)
    return out


def t_big_scene_refused():
    """The bundled scene open in an app held by ulimit -v to 6 GB (prlimit
    --as), then a 100-byte scene of 46000 × 46000 nodes opened by Ctrl+O: a
    dialog says what it needs and what the limit leaves, the app runs on,
    and the bundled scene stays, its title and its solve.  The app aborted
    (GLib-ERROR: failed to allocate 8464000000 bytes, SIGTRAP)."""
    big = os.path.join(OUT, "big.json")
    with open(big, "w") as f:
        f.write('{"format":"foldray-scene","version":1,"title":"big","grid":{"nx":46000,"nz":46000,'
                '"spacing":[0.01,0.01],"origin":[0,0]},"default_velocity":1.0,"layers":[]}\n')
    limited = os.path.join(OUT, "foldray-as-6g")
    with open(limited, "w") as f:
        f.write("#!/bin/sh\nexec prlimit --as=6000000000 %s \"$@\"\n" % EXE)
    os.chmod(limited, 0o755)
    a = App(SCENE, name="big-scene", exe=limited, env={"G_MESSAGES_DEBUG": "fr-window"})
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        title0, job0 = a.title(), a.last("job")
        open_by_chooser(a, big, lambda: dialogs_of(a) and not window_ids("Open Scene or Velocity Grid"))
        time.sleep(1.0)
        screenshot("03-big-scene-refused")
        dialogs = dialogs_of(a)
        alive = a.proc.poll() is None
        title, job = a.title() if alive else "", a.last("job")
        if dialogs:
            xdo("key", "Escape")
        bad = a.bad_stderr()
    finally:
        a.quit()
    with open(a.stderr_path) as f:
        said = [l for l in f.read().splitlines() if "grid needs about" in l]
    named = any("Could not open the scene" in l and "A 46000 × 46000 grid needs about" in l and
                "(the rest of its address-space limit, ulimit -v)" in l for l in said)
    ok = (dialogs and alive and named and title == title0 and "three-layer" in title
          and job == job0 and not bad)
    return ok, ("dialogs %s; running %s; said %s; title %r (was %r); job %s (was %s); bad stderr %s"
                % (dialogs, alive, said, title, title0, job, job0, bad))


def t_bench_grid_refused():
    """The interaction benchmark asked for more grid than this process may
    hold (8192² nodes under ulimit -v 1.5 GB) says so and exits 1; it
    aborted in GLib's allocator before the model's memory check, and once
    (CI, at 98a171c) when GLib could not start a thread of pango's, the
    limit taken by malloc's reserved arenas (fr_process_fit_address_limit)."""
    env = dict(os.environ, FOLDRAY_STATE_DIR=os.path.join(OUT, "bench-state"))
    r = run("prlimit", "--as=1500000000", EXE, "--geometry", "800x500", "--bench-interaction",
            "--bench-size", "8192", "--bench-csv", os.path.join(OUT, "bench-refused.csv"),
            check=False, timeout=120, env=env)
    said = [l for l in r.stderr.splitlines() if l.startswith("foldray: benchmark: ")]
    return (r.returncode == 1 and any("8192 × 8192" in l for l in said),
            "exit %d; said %s" % (r.returncode, said[:1] or r.stderr.splitlines()[-2:]))


def t_tiny_spacing_refused():
    """A grid whose spacing, from its sidecar or from --spacing, gives
    times below double precision's range at its velocities (1e-320 at 2)
    is refused on opening, in the solver's words, naming the sidecar where
    it gave the spacing: foldray prints it and a run with --export-on-idle
    exits 2.  The grid had opened, and every solve was refused after."""
    notes, ok = [], True
    d = os.path.join(OUT, "tiny-spacing")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    says = "a spacing of 9.99989e-321 with velocities up to 2 gives times below double's range"
    with_sidecar = os.path.join(d, "tiny.npy")
    np.save(with_sidecar, np.full((5, 6), 2.0, np.float32))
    with open(os.path.join(d, "tiny.json"), "w") as f:
        f.write('{"spacing": 1e-320}')
    bare = os.path.join(d, "bare.npy")
    np.save(bare, np.full((5, 6), 2.0, np.float32))
    for name, args, want in (("sidecar", [with_sidecar], "tiny.json: " + says),
                             ("flag", ["--spacing", "1e-320", bare], says)):
        a = App(*args, "--source", "0,0", "--export-on-idle", os.path.join(d, "export-" + name),
                name="tiny-" + name)
        rc = a.wait_exit(timeout=60)
        with open(a.stderr_path) as f:
            err = [l for l in f.read().splitlines() if l.startswith("foldray: ")]
        good = rc == 2 and any(want in l for l in err)
        ok &= good
        notes.append("%s: exit %s, %s" % (name, rc, err[:1]))
    return ok, "\n".join(notes)


def t_latin1_names():
    """A scene named in Latin-1 (café.json's é as the byte 0xE9, not UTF-8)
    opens with its name in the title, the é shown as U+FFFD; a malformed one
    so named is refused with a dialog and a line on stderr, both UTF-8.
    GTK was handed the raw bytes: Pango warned of invalid UTF-8, and the
    stderr line carried the byte as it was."""
    d = os.path.join(OUT, "latin1")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    good = os.path.join(os.fsencode(d), b"caf\xe9.json")
    bad = os.path.join(os.fsencode(d), b"bad\xe9.json")
    shutil.copyfile(SCENE, good)
    with open(bad, "w") as f:
        f.write('{"format": "foldray-scene", "version": 1, "grid": ')
    notes, ok = [], True
    for path, want in ((good, "caf\ufffd.json \u2014 Foldray"), (bad, None)):
        a = App(path, name="latin1-%s" % ("good" if want else "bad"))
        try:
            if not a.find_window():
                return False, "no window"
            a.settle_all()
            title = a.title()
            if want is None:
                wait_for(lambda: dialogs_of(a), 5.0)
                time.sleep(0.5)
                screenshot("06-latin1-refused")
                dialogs = dialogs_of(a)
                if dialogs:
                    xdo("key", "Escape")
        finally:
            a.quit()
        raw = open(a.stderr_path, "rb").read()
        try:
            text = raw.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            text, utf8 = raw.decode("utf-8", "replace"), False
        pango = [l for l in text.splitlines() if "Invalid UTF-8" in l or "WARNING" in l or "CRITICAL" in l]
        if want is not None:
            good_case = title == want and utf8 and not pango
            notes.append("café.json: title %r; stderr UTF-8 %s; warnings %s" % (title, utf8, pango[:2]))
        else:
            said = [l for l in text.splitlines() if l.startswith("foldray: ") and "bad\ufffd.json" in l]
            good_case = bool(dialogs) and utf8 and not pango and len(said) == 1
            notes.append("badé.json: dialog %s; stderr UTF-8 %s, says %s; warnings %s"
                         % (bool(dialogs), utf8, said[:1], pango[:2]))
        ok &= good_case
    return ok, "\n".join(notes)


# Window-relative spots in the header bar of the 1200-pixel window.
MENU_BUTTON = (1045, 27)


def click_at(a, spot):
    xdo("mousemove", a.wx + spot[0], a.wy + spot[1])
    xdo("click", 1)


def t_example_scene():
    """☰ → Examples → Syncline with a Salt Body opens the bundled scene as a
    new document: its title, its salt body drawn, nothing modified; Save
    asks where, proposing syncline-salt.json, and the bundled file is
    never written.  The menu had only the two velocity grids, and the
    bundled scenes could be opened only by finding their folder."""
    bundled = os.path.join(ROOT, "data", "scenes", "syncline-salt.json")
    before = open(bundled, "rb").read()
    d = os.path.join(OUT, "example-scene")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    a = App("--clear", name="example-scene")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        click_at(a, MENU_BUTTON)               # the primary menu, then Examples
        time.sleep(0.5)
        xdo("key", "x")
        time.sleep(0.5)
        screenshot("04-example-scenes-menu")
        job = a.last_job()
        xdo("key", "s")                        # _Syncline with a Salt Body
        title = a.wait_title(lambda t: "Syncline" in t)
        # The new scene's own solve, not the one before it, must settle
        # (on a busy machine the shot caught the three layers still).
        wait_for(lambda: a.last_job() > job, 10.0)
        a.settle_all()
        img = a.stable_shot("05-example-scene")
        salt = near(img, *a.to_screen(1.5, 1.7), SALT_RGB, radius=4, tol=30)
        beside = near(img, *a.to_screen(0.3, 1.7), SALT_RGB, radius=4, tol=30)
        click_at(a, MENU_BUTTON)               # ☰ → Save Scene (what Ctrl+S does)
        time.sleep(0.5)
        xdo("key", "s")
        chooser = wait_for(lambda: window_ids("Save Scene"), 5.0)
        time.sleep(0.8)
        # The proposed name stays: only the folder goes in front of it.
        xdo("key", "Home")
        xdo("type", "--", d + "/")
        xdo("key", "Return")
        saved_path = os.path.join(d, "syncline-salt.json")
        saved = wait_for(lambda: os.path.exists(saved_path), 10.0)
        title2 = a.wait_title(lambda t: "syncline-salt.json" in t)
        bad = a.bad_stderr()
    finally:
        a.quit()
    layers = len(json.load(open(saved_path))["layers"]) if saved else 0
    untouched = open(bundled, "rb").read() == before
    ok = (title == "Syncline with a salt body \u2014 Foldray" and salt and not beside and chooser
          and saved and layers == 3 and title2 == "syncline-salt.json \u2014 Foldray" and untouched
          and not bad and os.listdir(d) == ["syncline-salt.json"])
    return ok, ("title %r; salt drawn %s, not beside it %s; Save asked %s; saved as proposed %s "
                "(%d layers), title then %r; bundled file untouched %s; files %s; bad stderr %s"
                % (title, salt, beside, chooser, saved, layers, title2, untouched, os.listdir(d), bad))



check("files: a scene named LINE-7.JSON opens as a scene", t_scene_in_capitals)
check("files: the Grid Spacing dialog refuses 2,5 and 0, then opens at the spacing typed",
      t_spacing_dialog)
check("files: the Grid Spacing dialog keeps a spacing below a thousandth as typed",
      t_spacing_small)
check("files: a scene too large for ulimit -v is refused with a dialog, the scene kept",
      t_big_scene_refused)
check("files: a grid whose spacing gives times below double's range is refused on opening",
      t_tiny_spacing_refused)
check("files: Examples opens a bundled scene as a new document; Save proposes its name elsewhere",
      t_example_scene)
check("files: a scene named in Latin-1 shows its name in UTF-8 in the title, the dialog and stderr",
      t_latin1_names)
check("files: a benchmark grid past the memory this process may use is refused, not an abort",
      t_bench_grid_refused)

print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
