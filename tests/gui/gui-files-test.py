#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of opening files: a scene named in capitals (LINE-7.JSON, as
Save As accepts it) opens as a scene.  Checks by the window title.  Speaks
TAP.

Usage: gui-files-test.py FOLDRAY_EXE OUT_DIR

The harness is guilib.py; the window sits at the screen's top-left corner."""

import os
import shutil
import sys
import tempfile

from guilib import App, check, configure, results, run

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-files-")
configure(EXE, OUT, "1200x760")
ROOT = os.environ.get("FOLDRAY_SOURCE_ROOT",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCENE = os.path.join(ROOT, "data", "scenes", "three-layer.json")


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



check("files: a scene named LINE-7.JSON opens as a scene", t_scene_in_capitals)

print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
