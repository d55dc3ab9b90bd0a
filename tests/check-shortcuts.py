#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Keyboard Shortcuts window (ui/fr-shortcuts.ui) lists every key the
application binds: the application's accelerators (app/fr-application.c)
and the window's own bindings (app/fr-window.c).  A key added to the code
but not to the window is a shortcut nobody finds.  Speaks TAP.

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

# accelerators the window shows
shown = set()
for prop in ET.fromstring(read("ui", "fr-shortcuts.ui")).iter("property"):
    if prop.get("name") == "accelerator":
        shown.update(norm(a) for a in prop.text.split())

n = 0
ok_all = True
for action in sorted(bound):
    n += 1
    keys = bound[action]
    ok = any(k in shown for k in keys)
    ok_all &= ok
    print("%s %d - %s (%s) is in the Keyboard Shortcuts window" %
          ("ok" if ok else "not ok", n, action, ", ".join(keys)))
print("1..%d" % n)
sys.exit(0 if ok_all and n > 10 else 1)
