#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of the model editor's tools and the model panel's messages,
under a real X server (run it inside xvfb-run): the Select, Rectangle and
Polygon buttons show the editor's tool however it was switched (the
buttons, Ctrl+M, Ctrl+R, Ctrl+G, Escape); one rectangle or polygon drawn,
the tool is Select again, so the next drag on a handle moves the handle;
and a message about a value typed into a layer field (red field, red
text under the fields) goes once the panel shows other values (undo,
another layer, a new layer, leaving edit mode); a selected obstacle's
outline stops at the model's edge, its handles off the model still
shown.  Real input through
xdotool, the screen read with ImageMagick's `import`, checks by pixels
and by the scene file saved.  Speaks TAP.

Usage: gui-editor-test.py FOLDRAY_EXE OUT_DIR

The harness is guilib.py.  The panel positions are those of the window
at GEOMETRY with the bundled three-layer scene, as in
gui-panels-test.py; the window sits at the screen's top-left corner."""

import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

from guilib import App, check, click, configure, drag, near, results, save_png, screenshot, type_into, xdo

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-editor-")
GEOMETRY = "1200x760"
configure(EXE, OUT, GEOMETRY)
ROOT = os.environ.get("FOLDRAY_SOURCE_ROOT",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCENE = os.path.join(ROOT, "data", "scenes", "three-layer.json")

# Where things are in the window (see 01-tools-off.png, 20-messages.png).
TOOL_BUTTONS = {"select": (878, 250, 970, 270), "rectangle": (982, 250, 1075, 270),
                "polygon": (1086, 250, 1178, 270)}
RECTANGLE_BUTTON = (1028, 260)
LAYER_ROWS = {1: (1027, 446), 2: (1027, 472), 3: (1027, 498)}
ADD_LAYER_BUTTON = (950, 534)
VELOCITY_ENTRY = (1045, 574)
UNDO_BUTTON = (241, 27)
PANEL_BOX = (862, 55, 1190, 728)
# The model panel's message, below the layer's fields.
MESSAGE_BOX = (866, 674, 1190, 728)
QUIET = (700, 700)                  # the pointer out of the way, over the canvas
# A pressed (checked) button is filled darker than a released one:
# about 214 against 247 in Adwaita.
PRESSED_DARKER = 15


def quiet_shot(name):
    xdo("mousemove", *QUIET)
    time.sleep(0.6)
    return screenshot(name)


def reddish(img, box):
    x0, y0, x1, y1 = box
    p = img[y0:y1, x0:x1].astype(int)
    return int(((p[..., 0] > 170) & (p[..., 1] < 90) & (p[..., 2] < 90)).sum())


def orangeish(img, box):
    """The warning style's pixels (see gui-panels-test.py)."""
    x0, y0, x1, y1 = box
    p = img[y0:y1, x0:x1].astype(int)
    return int(((p[..., 0] > 180) & (p[..., 1] > 80) & (p[..., 1] < 175) & (p[..., 2] < 110)).sum())


def button_fill(img):
    """Each tool button's fill: the median brightness of its face (its
    label is a few pixels of it)."""
    out = {}
    for k, (x0, y0, x1, y1) in TOOL_BUTTONS.items():
        out[k] = float(np.median(img[y0:y1, x0:x1].reshape(-1, 3).astype(int).mean(axis=1)))
    return out


def pressed(img):
    """The tool buttons that look pressed: darker than the lightest."""
    fill = button_fill(img)
    light = max(fill.values())
    return sorted(k for k, v in fill.items() if v < light - PRESSED_DARKER), fill


def saved_scene(a, path, timeout=10.0):
    """Ctrl+S (the window's own file: no dialog) and the file read back."""
    before = os.stat(path).st_mtime_ns
    xdo("key", "ctrl+s")
    end = time.time() + timeout
    while time.time() < end and os.stat(path).st_mtime_ns == before:
        time.sleep(0.05)
    time.sleep(0.2)
    with open(path) as f:
        return json.load(f)


def edited_scene(name, edit, base=SCENE):
    """A copy of base in OUT as name, with edit(scene) applied to its JSON;
    returns its path and the edited scene."""
    with open(base) as f:
        scene = json.load(f)
    edit(scene)
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(scene, f)
    return path, scene


def no_warnings(a):
    def t():
        a.quit()
        bad = a.bad_stderr()
        return not bad, "%d bad stderr lines\n%s" % (len(bad), "\n".join(bad[:6]))
    return t


# ------------------------------------------------------------------ session 1
# The tools: the buttons show the tool; one obstacle drawn, back to Select.
tools_scene = os.path.join(OUT, "tools.json")
shutil.copy(SCENE, tools_scene)
tapp = App(tools_scene, name="tools")
# The interface node at the anticline's crest (layer 3), dragged up and
# a little to the right: with the Rectangle tool still on, that drag
# drew a second rectangle instead.
NODE, NODE_TO = (1.8, 0.8), (1.83, 0.55)
RECT = ((0.3, 0.35), (0.8, 0.6))            # in the second layer, away from nodes
TRIANGLE = ((0.3, 1.2), (0.7, 1.2), (0.5, 1.4))


def t_tools_window():
    ok = tapp.find_window()
    if ok:
        tapp.settle_all()
    return ok, "" if ok else "no window named Foldray"


def t_tool_buttons():
    """Whatever switches the tool, its button alone looks pressed: none
    while editing is off, Select after Ctrl+M, Rectangle after Ctrl+R,
    Polygon after Ctrl+G, none after Escape, Rectangle after a click on
    its button, Select after Ctrl+M again."""
    steps = [("01-tools-off", None, []),
             ("02-tools-ctrl-m", ("key", "ctrl+m"), ["select"]),
             ("03-tools-ctrl-r", ("key", "ctrl+r"), ["rectangle"]),
             ("04-tools-ctrl-g", ("key", "ctrl+g"), ["polygon"]),
             ("05-tools-escape", ("key", "Escape"), []),
             ("06-tools-rectangle-clicked", ("click",) + RECTANGLE_BUTTON, ["rectangle"]),
             ("07-tools-ctrl-m-again", ("key", "ctrl+m"), ["select"])]
    ok, notes, crops = True, [], []
    for name, action, want in steps:
        if action is not None and action[0] == "click":
            click(*action[1:])
        elif action is not None:
            xdo(*action)
            time.sleep(0.3)
        img = quiet_shot(name)
        got, fill = pressed(img)
        ok = ok and got == want
        notes.append("%s: pressed %s, want %s; fills %s" %
                     (name, got, want, {k: round(v) for k, v in fill.items()}))
        crops.append(img[240:280, 866:1190])
    save_png(np.concatenate(crops), os.path.join(OUT, "08-tools-buttons.png"))
    return ok, "\n".join(notes)


state = {}


def t_rectangle_back_to_select():
    """Ctrl+R and one rectangle dragged out: Select is pressed again."""
    xdo("key", "ctrl+r")
    time.sleep(0.3)
    (x0, z0), (x1, z1) = RECT
    job = tapp.last_job()
    drag(*tapp.to_screen(x0, z0), *tapp.to_screen(x1, z1))
    tapp.wait_job(job)
    img = quiet_shot("10-rectangle-drawn")
    got, fill = pressed(img)
    return got == ["select"], "pressed after the rectangle: %s; fills %s" % (got, fill)


def t_handle_drag_moves():
    """The next drag on an interface node moves the node; it draws no
    second obstacle (the saved scene has one obstacle and the node at its
    new place)."""
    job = tapp.last_job()
    drag(*tapp.to_screen(*NODE), *tapp.to_screen(*NODE_TO))
    tapp.wait_job(job)
    tapp.stable_shot("11-node-dragged")
    scene = saved_scene(tapp, tools_scene)
    state["scene"] = scene
    obstacles = [(o.get("shape"), len(o.get("vertices", []))) for o in scene.get("obstacles", [])]
    nodes = scene["layers"][2]["interface"]
    moved = [p for p in nodes if abs(p[0] - NODE_TO[0]) < 0.02 and abs(p[1] - NODE_TO[1]) < 0.02]
    still = [p for p in nodes if abs(p[0] - NODE[0]) < 1e-6 and abs(p[1] - NODE[1]) < 0.01]
    ok = len(obstacles) == 1 and obstacles[0][0] == "rectangle" and len(moved) == 1 and not still
    return ok, ("saved obstacles %s; a node of layer 3 near %s: %s; one left at %s: %s" %
                (obstacles, NODE_TO, moved, NODE, still))


def t_polygon_back_to_select():
    """Ctrl+G, three vertices and Enter: the polygon is made and Select
    is pressed again; a click then adds no vertex (the saved scene has the
    two obstacles)."""
    xdo("key", "ctrl+g")
    time.sleep(0.3)
    for x, z in TRIANGLE:
        xdo("mousemove", *tapp.to_screen(x, z))
        xdo("click", 1)
        time.sleep(0.3)
    job = tapp.last_job()
    xdo("key", "Return")
    tapp.wait_job(job)
    img = quiet_shot("12-polygon-drawn")
    got, fill = pressed(img)
    # A click on the plot and Enter: with the Polygon tool still on, that
    # started a second polygon (closed by nothing, but drawn dashed).
    xdo("mousemove", *tapp.to_screen(2.5, 1.3))
    xdo("click", 1)
    time.sleep(0.3)
    xdo("key", "Return")
    time.sleep(0.5)
    scene = saved_scene(tapp, tools_scene)
    shapes = [(o.get("shape"), len(o.get("vertices", []))) for o in scene.get("obstacles", [])]
    ok = got == ["select"] and shapes == [("rectangle", 4), ("polygon", 3)]
    return ok, "pressed after the polygon: %s; fills %s; saved obstacles %s" % (got, fill, shapes)


for name, fn in [
    ("tools: the window opens on a copy of the three-layer scene", t_tools_window),
    ("tools: the active tool's button alone looks pressed, however the tool was switched",
     t_tool_buttons),
    ("tools: Ctrl+R and one rectangle return the tool to Select", t_rectangle_back_to_select),
    ("tools: a drag on an interface node then moves the node, no second rectangle",
     t_handle_drag_moves),
    ("tools: one polygon closed with Enter returns the tool to Select", t_polygon_back_to_select),
]:
    if not check(name, fn) and fn is t_tools_window:
        break
check("no GTK warning or critical on stderr during the tool checks", no_warnings(tapp))

# ------------------------------------------------------------------ session 2
# The model panel's messages: a refused value's red goes once the panel
# shows other values.
msg_scene = os.path.join(OUT, "messages.json")
shutil.copy(SCENE, msg_scene)
mapp = App(msg_scene, name="messages")


def red(img):
    """Red pixels in the model panel: the refused field's and the
    message's text."""
    return reddish(img, PANEL_BOX)


def refuse(name):
    """Types "abc" into Velocity at top and Tab: refused, the panel turns
    red.  The focus goes on to dv/dz: Velocity is not read again when the
    focus leaves it later (which took the red back before the fix too)."""
    type_into(*VELOCITY_ENTRY, "abc", key="Tab")
    img = quiet_shot(name)
    x, y = VELOCITY_ENTRY
    return (reddish(img, (x - 80, y - 20, x + 145, y + 20)), reddish(img, MESSAGE_BOX))


def t_messages_window():
    ok = mapp.find_window()
    if ok:
        mapp.settle_all()
        screenshot("20-messages")
    return ok, "" if ok else "no window named Foldray"


def t_message_after_undo():
    """An edit (3.25), then "abc" refused; Undo brings back 2.5: the red
    field and the message go."""
    click(*LAYER_ROWS[2])
    job = mapp.last_job()
    type_into(*VELOCITY_ENTRY, "3.25")
    mapp.wait_job(job)
    field, message = refuse("21-abc-before-undo")
    job = mapp.last_job()
    click(*UNDO_BUTTON)
    mapp.wait_job(job)
    left = red(quiet_shot("22-abc-after-undo"))
    return (field > 40 and message > 40 and left == 0,
            "red before Undo: field %d, message %d; red in the panel after: %d" % (field, message, left))


def t_message_other_layer():
    """"abc" refused on layer 2, then layer 3 picked: no red left."""
    click(*LAYER_ROWS[2])
    field, message = refuse("23-abc-layer2")
    click(*LAYER_ROWS[3])
    left = red(quiet_shot("24-abc-then-layer3"))
    return (field > 40 and message > 40 and left == 0,
            "red on layer 2: field %d, message %d; red in the panel with layer 3: %d" %
            (field, message, left))


def t_message_add_layer():
    """"abc" refused on layer 3, then Add Layer: the new layer's fields
    and the panel have no red (Undo takes the layer away again)."""
    click(*LAYER_ROWS[3])
    field, message = refuse("25-abc-layer3")
    job = mapp.last_job()
    click(*ADD_LAYER_BUTTON)
    mapp.wait_job(job)
    left = red(quiet_shot("26-abc-then-add-layer"))
    job = mapp.last_job()
    click(*UNDO_BUTTON)
    mapp.wait_job(job)
    return (field > 40 and message > 40 and left == 0,
            "red on layer 3: field %d, message %d; red in the panel after Add Layer: %d" %
            (field, message, left))


def t_message_leave_edit():
    """Editing the model (Ctrl+M), "abc" refused, Escape stops editing:
    no red left."""
    xdo("key", "ctrl+m")
    time.sleep(0.3)
    click(*LAYER_ROWS[2])
    field, message = refuse("27-abc-editing")
    xdo("key", "Escape")
    time.sleep(0.3)
    img = quiet_shot("28-abc-then-escape")
    left = red(img)
    got, _ = pressed(img)
    return (field > 40 and message > 40 and left == 0 and got == [],
            "red while editing: field %d, message %d; red in the panel after Escape: %d; "
            "tool buttons pressed: %s" % (field, message, left, got))


def t_message_valid_value():
    """"abc" refused, then 2.75 typed: the field holds a valid value, no
    red left (as before the fix: a guard)."""
    click(*LAYER_ROWS[2])
    field, message = refuse("29-abc-again")
    job = mapp.last_job()
    type_into(*VELOCITY_ENTRY, "2.75")
    mapp.wait_job(job)
    state["valid"] = img = quiet_shot("30-abc-then-2.75")
    left = red(img)
    return (field > 40 and message > 40 and left == 0,
            "red after abc: field %d, message %d; after 2.75: %d" % (field, message, left))


def t_clamp_warning_kept():
    """-5 is clamped to 0.001: the panel's own edit (a re-solve) keeps
    its warning, the orange field and the message under the fields (text
    where 30-abc-then-2.75.png has none), which the fix must not take
    back (as before the fix: a guard)."""
    job = mapp.last_job()
    type_into(*VELOCITY_ENTRY, "-5")
    mapp.wait_job(job)
    img = quiet_shot("31-clamped")
    x, y = VELOCITY_ENTRY
    field = orangeish(img, (x - 80, y - 20, x + 145, y + 20))
    x0, y0, x1, y1 = MESSAGE_BOX
    message = int(np.any(np.abs(img[y0:y1, x0:x1].astype(int) -
                                state["valid"][y0:y1, x0:x1].astype(int)) > 60, axis=-1).sum())
    return (field > 40 and message > 200,
            "orange in the field %d; message pixels %d" % (field, message))


for name, fn in [
    ("messages: the window opens on a copy of the three-layer scene", t_messages_window),
    ("messages: a refused value's red field and message go after Undo", t_message_after_undo),
    ("messages: ... and after another layer is selected", t_message_other_layer),
    ("messages: ... and after Add Layer, whose fields show no red", t_message_add_layer),
    ("messages: ... and after leaving edit mode with Escape", t_message_leave_edit),
    ("messages: ... and once a valid value is typed", t_message_valid_value),
    ("messages: a clamped value keeps its warning after its own edit", t_clamp_warning_kept),
]:
    if not check(name, fn) and fn is t_messages_window:
        break
check("no GTK warning or critical on stderr during the message checks", no_warnings(mapp))


# ------------------------------------------------------------------ session 3
# A double-click beside a steep interface segment adds a node on it,
# between its ends along x: the pointer's own x lay outside them, the
# interface stopped being a function of x, the scene stopped solving and
# its saved file could not be opened again.
STEEP = [[0.0, 0.12], [1.5, 0.2], [1.5005, 0.9], [3.0, 0.95]]


def t_insert_beside_steep_segment():
    path, _ = edited_scene("steep.json", lambda s: s["layers"][1].update(interface=STEEP))
    a = App(path, name="steep")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("key", "ctrl+m")
        time.sleep(0.5)
        sx, sy = a.to_screen(1.50025, 0.55)
        job = a.last_job()
        xdo("mousemove", sx - 4, sy)
        xdo("click", "--repeat", "2", "--delay", "80", "1")
        a.wait_job(job)
        solved = a.last_job() > job
        quiet_shot("30-steep-node-added")
        xdo("key", "Escape")
        time.sleep(0.3)
        saved = saved_scene(a, path)
    finally:
        a.quit()
    nodes = saved["layers"][1]["interface"]
    xs = [n[0] for n in nodes]
    increasing = all(p < q for p, q in zip(xs, xs[1:]))
    new = [n for n in nodes if n not in STEEP]
    on = len(new) == 1 and 1.5 < new[0][0] < 1.5005 and abs(new[0][1] - 0.55) < 0.03
    reopened = run_cli_check(path)
    return (len(nodes) == 5 and increasing and on and solved and reopened,
            "saved interface %s; x increasing %s; the new node on the segment %s; solved after it %s; "
            "the saved file opens again %s" % (nodes, increasing, on, solved, reopened))


def run_cli_check(path):
    """Whether foldray-cli reads the saved scene (its check of the model)."""
    import subprocess
    # BUILD/app/foldray beside BUILD/solver/tools/foldray-cli.
    cli = os.path.join(os.path.dirname(os.path.dirname(EXE)), "solver", "tools", "foldray-cli")
    out = os.path.join(OUT, "steep-T.npy")
    r = subprocess.run([cli, "spr", "--scene", path, "--out", out], capture_output=True, text=True)
    return r.returncode == 0


check("editor: a double-click beside a steep segment adds a node on it, between its ends",
      t_insert_beside_steep_segment)

DVDZ_ENTRY = (1045, 614)


def t_gradient_to_zero_warned():
    """A layer whose gradient takes its velocity to 0 (dv/dz = −20 under
    an interface at about 0.1–0.5 km) is said in a bar over the canvas's
    foot (its cells were clamped to 1e-6 without a word); a dv/dz of 0
    typed into the field takes the bar away."""
    path, _ = edited_scene("negative-gradient.json", lambda s: s["layers"][1].update(dvdz=-20))
    a = App(path, name="negative-gradient")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        x0, y0, x1, y1 = a.canvas_box()
        foot = (slice(y1 - 40, y1 - 16), slice(x0 + 20, x1 - 20))
        warned = quiet_shot("40-gradient-warned").astype(int)[foot].mean()
        said = [l for l in a.lines() if " model warning " in l]
        click(*LAYER_ROWS[2])
        job = a.last_job()
        type_into(*DVDZ_ENTRY, "0")
        a.wait_job(job)
        fixed = quiet_shot("41-gradient-fixed").astype(int)[foot].mean()
    finally:
        a.quit()
    ok = (warned > 150 and fixed < 80 and len(said) == 1 and
          "Layer 2’s gradient takes its velocity to 0 or below" in said[0])
    return ok, ("mean brightness of the canvas's foot: %.0f warned, %.0f after dv/dz 0; log %s"
                % (warned, fixed, said))


check("editor: a gradient taking a layer's velocity to 0 is said in a bar, gone once fixed",
      t_gradient_to_zero_warned)


def t_ctrl_z_after_field():
    """Ctrl+Z with the focus still in a field whose value was taken
    (Enter) undoes the edit: the field's own text history took it and
    showed "-" while the model kept dv/dz −2."""
    path = os.path.join(OUT, "field-undo.json")
    shutil.copy(SCENE, path)
    with open(SCENE) as f:
        before = json.load(f)["layers"][1]["dvdz"]
    a = App(path, name="field-undo")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        click(*LAYER_ROWS[2])
        job = a.last_job()
        type_into(*DVDZ_ENTRY, "-2")
        a.wait_job(job)
        job = a.last_job()
        xdo("key", "ctrl+z")                  # the focus is still in dv/dz
        a.wait_job(job)
        undone = a.title()
        saved = saved_scene(a, path)
    finally:
        a.quit()
    got = saved["layers"][1]["dvdz"]
    return (got == before and not undone.startswith("• "),
            "dv/dz saved after Ctrl+Z: %r (was %r); title after Ctrl+Z %r" % (got, before, undone))


check("editor: Ctrl+Z in a field after Enter undoes the field's edit", t_ctrl_z_after_field)



def drag_pressing(a, frm, to, keys, steps=16, settle=0.0):
    """A drag from model point frm to to with keys pressed halfway, the
    button still held (settle seconds after the drag's last move, and as
    long, or 0.2 s, after the keys); then the button let go."""
    fx, fy = a.to_screen(*frm)
    tx, ty = a.to_screen(*to)
    xdo("mousemove", fx, fy)
    xdo("mousedown", 1)
    for i in range(1, steps + 1):
        xdo("mousemove", int(round(fx + (tx - fx) * i / steps)), int(round(fy + (ty - fy) * i / steps)))
        time.sleep(0.04)
        if i == steps // 2:
            time.sleep(settle)
            for k in keys:
                xdo("key", k)
            time.sleep(settle or 0.2)
    xdo("mouseup", 1)
    time.sleep(0.5)


def t_keys_mid_drag():
    """Delete and Ctrl+Z pressed while the pointer holds something wait
    until it lets go.  The salt obstacle dragged by (-0.3, -0.3) with both
    pressed midway is still there, moved by the drag (Delete freed it
    under the drag: the app crashed); a source dragged likewise lands
    where it was let go, and the other source stays where it was (it
    followed the pointer instead); no GTK critical on the way."""
    path, scene = edited_scene("mid-drag.json", lambda s: s["sources"].append([2.5, 0.0]),
                               base=os.path.join(ROOT, "data", "scenes", "syncline-salt.json"))
    salt = np.array(scene["obstacles"][0]["vertices"])
    a = App(path, name="mid-drag")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("key", "ctrl+m")
        time.sleep(0.3)
        drag_pressing(a, (1.5, 1.5), (1.2, 1.2), ["Delete", "ctrl+z"])
        if a.proc.poll() is not None:
            return False, "foldray exited with %d during the obstacle drag" % a.proc.returncode
        a.settle_all()
        obstacles = saved_scene(a, path)["obstacles"]
        shift = (np.array(obstacles[0]["vertices"]) - salt).mean(axis=0) if len(obstacles) == 1 else None
        xdo("key", "Escape")
        time.sleep(0.3)
        drag_pressing(a, (0.3, 0.0), (1.0, 0.5), ["Delete", "ctrl+z"])
        if a.proc.poll() is not None:
            return False, "foldray exited with %d during the source drag" % a.proc.returncode
        a.settle_all()
        sources = saved_scene(a, path)["sources"]
        bad = a.bad_stderr()
    finally:
        a.quit()
    moved_obstacle = shift is not None and abs(shift[0] + 0.3) < 0.03 and abs(shift[1] + 0.3) < 0.03
    landed = [p for p in sources if abs(p[0] - 1.0) < 0.02 and abs(p[1] - 0.5) < 0.02]
    ok = moved_obstacle and len(sources) == 2 and [2.5, 0.0] in sources and len(landed) == 1 and not bad
    return ok, ("obstacles after the drag: %d, moved by %s; sources after: %s; bad stderr: %s"
                % (len(obstacles), shift, sources, bad[:3]))


check("editor: Delete and Ctrl+Z in the middle of a drag wait until the pointer lets go",
      t_keys_mid_drag)

DVDX_ENTRY = (1045, 654)


def interface_z(nodes, x):
    for (x0, z0), (x1, z1) in zip(nodes, nodes[1:]):
        if x0 <= x <= x1:
            return z0 + (z1 - z0) * (x - x0) / (x1 - x0)
    raise ValueError("x outside the interface")


def t_model_stays_valid_and_selection_honest():
    """Four ways the model or the selection went wrong (helper-55):
    a node inserted and undone left its neighbour selected, and Delete
    removed that; typing dv/dx wrote the panel's clamped v_top (100000)
    over a layer's 250000; 500 wheel steps took a layer's velocity below
    the least one, kept in the model and saved unreadable; Ctrl+M in Folds
    mode edited the model where Undo could not take it back."""
    path, scene = edited_scene("honest.json", lambda s: s["layers"][1].update(velocity=250000.0))
    iface = scene["layers"][2]["interface"]
    notes, ok = [], True
    a = App(path, name="honest")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        # 1. Insert, undo, Delete: nothing is deleted.
        xdo("key", "ctrl+m")
        time.sleep(0.3)
        x = 0.5 * (iface[5][0] + iface[6][0])
        xdo("mousemove", *a.to_screen(x, interface_z(iface, x)))
        xdo("click", "--repeat", "2", "--delay", "80", 1)
        time.sleep(0.8)
        xdo("key", "ctrl+z")
        time.sleep(0.5)
        xdo("key", "Delete")
        time.sleep(0.5)
        got = saved_scene(a, path)["layers"][2]["interface"]
        good = got == iface
        ok &= good
        notes.append("1. after insert, undo, Delete: layer 3 has %d nodes (had %d), same %s"
                     % (len(got), len(iface), good))
        # 2. dv/dx typed: v_top stays 250000.
        click(*LAYER_ROWS[2])
        type_into(*DVDX_ENTRY, "0.5")
        layer = saved_scene(a, path)["layers"][1]
        good = layer["velocity"] == 250000.0 and layer.get("dvdx") == 0.5
        ok &= good
        notes.append("2. layer 2 after dv/dx 0.5: velocity %r, dvdx %r" % (layer["velocity"], layer.get("dvdx")))
        # 3. 500 wheel steps down over layer 1: it stops at the least velocity.
        xdo("mousemove", *a.to_screen(1.5, 0.03))
        time.sleep(0.3)
        xdo("click", "--repeat", "500", "--delay", "2", 5)
        time.sleep(1.5)
        v = saved_scene(a, path)["layers"][0]["velocity"]
        good = 1e-6 <= v < 1.1e-6
        ok &= good
        notes.append("3. layer 1 after 500 wheel steps: %r" % v)
        # 4. Folds mode: Ctrl+M does not edit the model.
        xdo("key", "Escape")
        xdo("key", "ctrl+2")
        time.sleep(1.0)
        xdo("key", "ctrl+m")
        time.sleep(0.3)
        drag(*a.to_screen(*NODE), *a.to_screen(*NODE_TO))
        time.sleep(0.8)
        xdo("key", "ctrl+1")
        time.sleep(0.8)
        got = saved_scene(a, path)["layers"][2]["interface"]
        good = got == iface
        ok &= good
        notes.append("4. after Ctrl+M and a drag in Folds mode, layer 3 unchanged %s" % good)
        bad = a.bad_stderr()
        ok &= not bad
        notes.append("bad stderr %s" % bad[:2])
    finally:
        a.quit()
    return ok, "; ".join(notes)


check("editor: undo cannot pass the selection on, clamped fields write nothing, the wheel and "
      "Folds mode cannot make the model invalid or unundoable", t_model_stays_valid_and_selection_honest)


def t_fold_limit_follows_velocity_edit():
    """With Speed F on the velocity grid, |ψa| stays below the grid's
    least speed after a layer's velocity is lowered in Rays mode
    (helper-58): on layers of 3, 4 and 5, ψa 2.5 was kept when layer 1
    went to 2, and the fold failed ("|psi_a| = 2.5 is not below the speed
    F = 2").  It is shortened to 0.95 of the new least speed."""
    def edit(s):
        for layer, v in zip(s["layers"], (3.0, 4.0, 5.0)):
            layer.update(velocity=v, dvdz=0.0, dvdx=0.0)
        s["fold"] = {"speed": "grid", "psi_a": [2.5, 0.0], "method": "las", "backend": "cpu",
                     "delta": 0.05, "count": 8}
        s["mode"] = "rays"
    path, _ = edited_scene("fold-limit.json", edit)
    a = App(path, name="fold-limit")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        click(*LAYER_ROWS[1])
        job = a.last_job()
        type_into(*VELOCITY_ENTRY, "2")
        a.wait_job(job)
        job = a.last_job()
        xdo("mousemove", *QUIET)
        xdo("key", "ctrl+2")
        a.wait_job(job)
        fold, status = a.last("fold"), a.last("status")
        quiet_shot("40-fold-after-velocity-edit")
    finally:
        a.quit()
    psi = fold.get("psi_x")
    return (psi is not None and abs(psi - 1.9) < 1e-6 and status.get("serial") == fold.get("serial"),
            "ψa x solved %r (want 0.95 × 2); fold serial %r, folded status serial %r"
            % (psi, fold.get("serial"), status.get("serial")))


check("editor: a lowered layer velocity shortens ψa when the fold's speed is the grid",
      t_fold_limit_follows_velocity_edit)


# A selected obstacle's yellow outline stops at the model's edge, as the
# canvas's outline it highlights does: a slow obstacle from x = -0.3 to
# 0.4, selected in edit mode and zoomed out (Ctrl+wheel) so that the plot
# shows room left of the model.  No yellow lies off the model farther than
# half the outline's width, but for its handles at the two left vertices,
# which stay drawn there to be grabbed (the outline ran on to them).
SELECT_YELLOW = lambda img: (img[..., 0] > 200) & (img[..., 1] > 200) & (img[..., 2] < 120)
EDGE_OBSTACLE = [(-0.3, 0.6), (0.4, 0.6), (0.4, 0.9), (-0.3, 0.9)]


def t_selection_clipped():
    def edit(s):
        s["sources"], s["receivers"] = [], []
        s["obstacles"] = [{"shape": "polygon", "velocity": 1.0,
                           "vertices": [list(v) for v in EDGE_OBSTACLE]}]
    path, _ = edited_scene("selection-edge.json", edit)
    a = App(path, name="selection-edge")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("key", "ctrl+m")
        time.sleep(0.4)
        x0, y0, x1, y1 = a.canvas_box()
        xdo("mousemove", (x0 + x1) // 2, (y0 + y1) // 2)
        scale = a.view()["scale"]
        xdo("keydown", "ctrl")
        for _ in range(3):                    # zoom out: room round the model
            xdo("click", 5)
            time.sleep(0.15)
        xdo("keyup", "ctrl")
        end = time.time() + 10
        while a.view()["scale"] > 0.7 * scale and time.time() < end:
            time.sleep(0.05)
        a.settle_all()
        click(*a.to_screen(0.2, 0.75))        # selects the obstacle
        xdo("mousemove", x1 - 5, y1 - 5)      # off the model: no readout over the picture
        img = a.stable_shot("45-selection-at-edge")
        edge = a.to_screen(-0.005, 0.0)[0]    # the model's left edge (the cells' outer edge)
        yellow = SELECT_YELLOW(img)
        ys, xs = np.nonzero(yellow[y0:y1, x0:x1])
        xs, ys = xs + x0, ys + y0
        handles = [a.to_screen(*v) for v in EDGE_OBSTACLE[::3]]
        near = np.zeros(len(xs), bool)
        for hx, hy in handles:
            near |= np.hypot(xs - hx, ys - hy) <= 6
        off = int(((xs < edge - 3) & ~near).sum())
        # On the model, the outline over the second layer (the third's
        # colour is yellow too).
        (bx0, by0), (bx1, by1) = a.to_screen(*EDGE_OBSTACLE[0]), a.to_screen(*EDGE_OBSTACLE[2])
        on = int(((xs >= edge) & (xs <= bx1 + 3) & (ys >= by0 - 3) & (ys <= by1 + 3)).sum())
        shown = [int(yellow[hy - 3:hy + 4, hx - 3:hx + 4].sum()) for hx, hy in handles]
        bad = a.bad_stderr()
    finally:
        a.quit()
    ok = off == 0 and on > 200 and all(n > 10 for n in shown) and not bad
    return ok, ("zoomed out to scale %.0f from %.0f; the model's left edge at column %d; yellow "
                "pixels: %d on the model, %d off it (past 3 px, away from the handles); the left "
                "handles' yellow pixels %s; %d bad stderr lines"
                % (a.view()["scale"], scale, edge, on, off, shown, len(bad)))


check("editor: a selected obstacle's outline stops at the model's edge, its handles off it shown",
      t_selection_clipped)


# Zoomed in 100 000 times on a slow obstacle's sloping side, its selected
# outline is drawn along that side: cairo keeps a path's points in fixed
# point, and the outline's far vertices, 1e7 pixels away, drew it at the
# wrong slope and place (app/fr-clip.c cuts it to the plot first).  The
# side runs from (1.2, 0.45) to (1.8, 0.75), slope 0.5, through (1.5, 0.6).
DEEP_SIDE = [(1.2, 0.45), (1.8, 0.75), (1.2, 0.75)]


def t_selection_deep_zoom():
    def edit(s):
        s["sources"], s["receivers"] = [], []
        s["obstacles"] = [{"shape": "polygon", "velocity": 1.0,
                           "vertices": [list(v) for v in DEEP_SIDE]}]
        s["view"] = {"cx": 1.5, "cz": 0.6, "scale": 2.0e7}
    path, _ = edited_scene("selection-deep.json", edit)
    a = App(path, name="selection-deep")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("key", "ctrl+m")
        time.sleep(0.4)
        scale = a.view()["scale"]
        # 20 pixels inside, below and left of the side.
        click(*a.to_screen(1.5 - 20 / scale, 0.6 + 20 / scale))
        x0, y0, x1, y1 = a.canvas_box()
        xdo("mousemove", x1 - 5, y1 - 5)
        img = a.stable_shot("46-selection-deep-zoom")
        yellow = SELECT_YELLOW(img)
        cx, cy = a.to_screen(1.5, 0.6)
        hits, misses = 0, []
        for dx in range(-200, 201, 50):
            col, row = cx + dx, cy + 0.5 * dx
            if not (x0 + 10 < col < x1 - 10 and y0 + 10 < row < y1 - 10):
                continue
            if yellow[int(row) - 3:int(row) + 4, col].any():
                hits += 1
            else:
                misses.append((col, round(row)))
        stray = int(yellow[y0:y1, x0:x1].sum())
        bad = a.bad_stderr()
    finally:
        a.quit()
    ok = scale > 1e7 and hits >= 7 and not misses and not bad
    return ok, ("scale %.3g; the side's yellow found at %d columns, missing at %s; %d yellow "
                "pixels in all; %d bad stderr lines" % (scale, hits, misses, stray, len(bad)))


check("editor: zoomed in 100 000 times, a selected obstacle's outline lies along its side",
      t_selection_deep_zoom)


# Escape while a source is dragged puts it back where the drag found it
# (win.edit-model('off') asks the canvas first, fr_canvas_cancel_drag); the
# rest of the drag moves nothing and no undo step is left.  It went on
# moving the source to where the button was released.  The title then has
# no modified mark, nor after a drag back by hand (it kept the "•").
def source_red(img, box):
    """The source marker's orange-red fill, (255, 76, 20) on screen."""
    x0, y0, x1, y1 = box
    p = img[y0:y1, x0:x1].astype(int)
    return int(((p[..., 0] > 200) & (p[..., 1] < 110) & (p[..., 2] < 80)).sum())


def t_escape_cancels_marker_drag():
    a = App(SCENE, name="escape-drag")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        sx, sy = a.to_screen(1.5, 0.0)            # the scene's source
        tx, ty = a.to_screen(2.0, 0.8)
        xdo("mousemove", sx, sy)
        xdo("mousedown", 1)
        for i in range(1, 11):
            xdo("mousemove", int(sx + (tx - sx) * i / 10), int(sy + (ty - sy) * i / 10))
            time.sleep(0.03)
        time.sleep(0.3)
        xdo("key", "Escape")
        time.sleep(0.3)
        xdo("mousemove", tx + 20, ty + 20)
        time.sleep(0.1)
        xdo("mouseup", 1)
        xdo("mousemove", *QUIET)
        time.sleep(0.5)
        a.settle_all()
        img = a.stable_shot("47-escape-drag")
        at_start = source_red(img, (sx - 12, sy - 12, sx + 13, sy + 13))
        at_end = source_red(img, (tx - 30, ty - 30, tx + 51, ty + 51))
        # Nothing changed: no modified mark (the drag's moves had set it).
        escaped_title = a.wait_title(lambda t: not t.startswith("•"), timeout=3)
        # Dragged away and back by hand: no step, and no mark either.
        xdo("mousemove", sx, sy)
        xdo("mousedown", 1)
        for i in list(range(1, 6)) + list(range(4, -1, -1)):
            xdo("mousemove", int(sx + (tx - sx) * i / 10), int(sy + (ty - sy) * i / 10))
            time.sleep(0.03)
        time.sleep(0.3)
        xdo("mouseup", 1)
        xdo("mousemove", *QUIET)
        a.settle_all()
        back_title = a.wait_title(lambda t: not t.startswith("•"), timeout=3)
        bad = a.bad_stderr()
    finally:
        a.quit()
    ok = (at_start > 50 and at_end == 0 and not escaped_title.startswith("•") and
          not back_title.startswith("•") and not bad)
    return ok, ("source red pixels at its place %d, where the drag was released %d; title after "
                "Escape %r, after a drag back by hand %r; bad stderr %s"
                % (at_start, at_end, escaped_title, back_title, bad))


check("editor: Escape during a source's drag puts it back, the scene unmodified",
      t_escape_cancels_marker_drag)


# The same in the model editor: Escape while a node of an interface is
# dragged puts it back (fr_editor_cancel_drag, fr_scene_cancel_edit), and
# the editor stays on.  It turned the editor off and the drag went on
# moving the node; saved, the interface ended where the button was
# released.  Layer 2's interface runs from (0, 0.12) to (3, 0.48).
def t_escape_cancels_node_drag():
    path, _ = edited_scene("escape-node.json", lambda s: None)
    a = App(path, name="escape-node")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        xdo("key", "ctrl+m")
        time.sleep(0.5)
        nx, ny = a.to_screen(3.0, 0.48)
        tx, ty = a.to_screen(3.0, 0.9)
        xdo("mousemove", nx, ny)
        xdo("mousedown", 1)
        for i in range(1, 11):
            xdo("mousemove", nx, int(ny + (ty - ny) * i / 10))
            time.sleep(0.03)
        time.sleep(0.3)
        xdo("key", "Escape")
        time.sleep(0.3)
        xdo("mousemove", nx, ty + 30)
        time.sleep(0.1)
        xdo("mouseup", 1)
        time.sleep(0.5)
        a.settle_all()
        shot = quiet_shot("48-escape-node")
        # The editor's Select button still pressed: the editor is on.
        tools, _ = pressed(shot)
        # Nothing changed: no modified mark.
        title = a.wait_title(lambda t: not t.startswith("•"), timeout=3)
        # Ctrl+S writes it all the same (Save does not ask whether it
        # was modified).
        scene = saved_scene(a, path)
        bad = a.bad_stderr()
    finally:
        a.quit()
    end = scene["layers"][1]["interface"][-1]
    ok = (abs(end[0] - 3.0) < 1e-9 and abs(end[1] - 0.48) < 1e-9 and tools == ["select"] and
          not title.startswith("•") and not bad)
    return ok, ("layer 2's interface ends at %s; tools pressed %s; title %r; bad stderr %s"
                % (end, tools, title, bad))


check("editor: Escape during a node's drag puts it back, the editor staying on",
      t_escape_cancels_node_drag)


FOLD_H = [[0.5 * i, 0.75] for i in range(7)]    # a flat horizon across the model
ARROW_YELLOW = (255, 235, 51)                    # the ψa arrow's tip (fr-fold-tool.c)
HORIZON_ORANGE = (255, 140, 0)                   # the starting horizon and its nodes


def drag_escape(a, frm, to):
    """Presses at model point frm, drags towards to, presses Escape
    halfway, goes on to to and lets go."""
    drag_pressing(a, frm, to, ["Escape"], steps=12, settle=0.3)


def t_escape_cancels_fold_drag():
    """In Folds mode, Escape during a drag of the ψa arrow's tip, of its
    base or of a horizon node puts it back, as it does a marker or a
    model node (the Keyboard Shortcuts window says so): it did nothing
    there, where win.edit-model is off, and each drag went on to its end,
    changing ψa, the arrow's place and the horizon, with undo steps.
    After the three, the tip and the node are where they were, the newest
    fold job has ψa as opened, and the scene is not modified."""
    def edit(s):
        s["mode"] = "folds"
        s["fold"] = {"psi_a": [0.4, 0.0], "horizon": FOLD_H}
    path, _ = edited_scene("escape-fold.json", edit)
    a = App(path, name="escape-fold")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        # The arrow's base is the model's top centre, 0.2 of its depth
        # down; |ψa| = F spans a quarter of its smaller side (1.5 km).
        base = (1.5, 0.3)
        tip = (1.5 + 0.4 * 0.375, 0.3)
        node = tuple(FOLD_H[3])
        drag_escape(a, tip, (1.9, 0.05))
        drag_escape(a, base, (2.2, 0.9))
        drag_escape(a, node, (node[0], 1.25))
        a.settle_all()
        psi = a.last("fold")
        xdo("mousemove", *QUIET)
        time.sleep(0.6)
        img = a.stable_shot("49-escape-fold")
        title = a.title()
        bad = a.bad_stderr()
    finally:
        a.quit()
    tip_home = near(img, *a.to_screen(*tip), ARROW_YELLOW, radius=3, tol=40)
    node_home = near(img, *a.to_screen(*node), HORIZON_ORANGE, radius=3, tol=40)
    node_away = near(img, *a.to_screen(node[0], 1.25), HORIZON_ORANGE, radius=4, tol=40)
    ok = (psi.get("psi_x") == 0.4 and psi.get("psi_z") == 0.0 and tip_home
          and node_home and not node_away and not title.startswith("•") and not bad)
    return ok, ("newest fold job %s; tip where it was %s; node where it was %s, where the drag "
                "ended %s; title %r; bad stderr %s"
                % (psi, tip_home, node_home, node_away, title, bad[:3]))


check("folds: Escape during a drag of ψa's tip or a horizon node puts it back, no edit left",
      t_escape_cancels_fold_drag)

EXTENT_X_ENTRY = (955, 300)                      # the model panel's Extent, x
POINT_CYAN = (51, 217, 255)                      # a characteristic's point (fr-fold-tool.c)


def t_characteristics_follow_smaller_grid():
    """The fold's characteristics' points stay on the grid when it is made
    smaller: with the three-layer model 2 wide instead of 3 (Extent, in
    Rays mode), the point at (2.9, 1.4) was left beyond it, and the scene
    saved then was refused when opened ("Characteristic point 1 at (2.9,
    1.4) lies outside the grid"), by the app and `foldray-cli fold
    --scene --rays-out`.  It moves onto the grid's edge, (2, 1.4): the
    saved scene opens again, in Folds mode with the point drawn there."""
    path, _ = edited_scene("smaller-grid.json", lambda s: s.update(
        fold={"psi_a": [0.2, 0.0], "characteristics": [[2.9, 1.4], [1.0, 0.5]]}))
    a = App(path, name="smaller-grid")
    try:
        if not a.find_window():
            return False, "no window"
        job = a.settle_all()
        type_into(*EXTENT_X_ENTRY, "2")
        a.wait_job(job)
        saved = saved_scene(a, path)
    finally:
        a.quit()
    points = saved.get("fold", {}).get("characteristics")
    b = App(path, "--mode", "folds", name="smaller-grid-reopened")
    try:
        if not b.find_window():
            return False, "no window on reopening"
        b.settle_all()
        title = b.wait_title(lambda t: t.startswith("smaller-grid.json"), timeout=5.0)
        xdo("mousemove", *QUIET)
        time.sleep(0.6)
        img = b.stable_shot("50-smaller-grid-reopened")
        drawn = near(img, *b.to_screen(2.0, 1.4), POINT_CYAN, radius=3, tol=40)
        bad = b.bad_stderr()
    finally:
        b.quit()
    ok = (points == [[2.0, 1.4], [1.0, 0.5]] and title.startswith("smaller-grid.json") and drawn
          and not bad)
    return ok, ("saved grid nx %s, characteristics %s; reopened, title %r, the point drawn at "
                "(2, 1.4) %s; bad stderr %s"
                % (saved["grid"]["nx"], points, title, drawn, bad[:3]))


check("folds: the characteristics' points move onto a smaller grid's edge; its scene opens again",
      t_characteristics_follow_smaller_grid)


print("1..%d" % len(results), flush=True)
sys.exit(0 if all(results) else 1)
