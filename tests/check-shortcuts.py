#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Keyboard Shortcuts window (ui/fr-shortcuts.ui) lists every key the
application binds: the application's accelerators (app/fr-application.c)
and the window's own bindings (app/fr-window.c).  A key added to the code
but not to the window is a shortcut nobody finds.  And every row shows
something in its key column: a gesture of type "gesture" (a mouse action)
has no picture of its own, so it needs an icon.  Speaks TAP.

Usage: check-shortcuts.py SOURCE_ROOT"""

import os
import re
import sys
import xml.etree.ElementTree as ET

root = sys.argv[1]


def read(*path):
    with open(os.path.join(root, *path), encoding="utf-8") as f:
        return f.read()


def norm(accel):
    """One spelling for an accelerator: <ctrl><shift>s, lower case."""
    a = accel.strip().lower().replace("<control>", "<ctrl>").replace("<primary>", "<ctrl>")
    mods = sorted(re.findall(r"<[a-z]+>", a))
    return "".join(mods) + re.sub(r"<[a-z]+>", "", a)


# action -> accelerators, from the code
bound = {}
for action, accels in re.findall(r'\{\s*"((?:app|win)\.[^"]+)",\s*\{([^}]*)\}\s*\}',
                                 read("app", "fr-application.c")):
    bound.setdefault(action, []).extend(norm(a) for a in re.findall(r'"([^"]+)"', accels))
MASKS = {"GDK_CONTROL_MASK": "<ctrl>", "GDK_SHIFT_MASK": "<shift>", "0": ""}
for key, mask, action in re.findall(
        r'gtk_widget_class_add_binding_action\s*\(\s*widget_class,\s*GDK_KEY_(\w+),\s*([^,]+),\s*"([^"]+)"',
        read("app", "fr-window.c")):
    mods = "".join(MASKS[m.strip()] for m in mask.split("|"))
    bound.setdefault(action, []).append(norm(mods + key))

# accelerators the window shows, and the rows whose key column is empty
shown = set()
blank = []
for obj in ET.fromstring(read("ui", "fr-shortcuts.ui")).iter("object"):
    if obj.get("class") != "GtkShortcutsShortcut":
        continue
    props = {p.get("name"): p for p in obj.findall("property")}
    if "accelerator" in props:
        shown.update(norm(a) for a in props["accelerator"].text.split())
    kind = props["shortcut-type"].text if "shortcut-type" in props else "accelerator"
    if (kind == "accelerator" and "accelerator" not in props and "action-name" not in props) or \
       (kind == "gesture" and "icon" not in props):
        blank.append(props["title"].text if "title" in props else "?")

n = 0
ok_all = True
for action in sorted(bound):
    n += 1
    keys = bound[action]
    ok = any(k in shown for k in keys)
    ok_all &= ok
    print("%s %d - %s (%s) is in the Keyboard Shortcuts window" %
          ("ok" if ok else "not ok", n, action, ", ".join(keys)))
n += 1
ok_all &= not blank
print("%s %d - every row shows a key or an icon%s" %
      ("ok" if not blank else "not ok", n, " (empty: %s)" % ", ".join(blank) if blank else ""))
print("1..%d" % n)
sys.exit(0 if ok_all and n > 10 else 1)
