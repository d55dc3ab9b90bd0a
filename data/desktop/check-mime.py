#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that a file manager would type Foldray scenes as
application/x-foldray-scene and leave other JSON as application/json.

    check-mime.py MIME_XML DESKTOP_IN XMLLINT UPDATE_MIME_DATABASE GIO SCENE...

Builds a private MIME database from the system's freedesktop.org.xml and
MIME_XML (update-mime-database must not complain: Debian ships no schema
for these files, and update-mime-database reports a bad element on stderr
but still exits 0), then asks GIO, as Nautilus would, for the type of each
bundled SCENE and of JSON files that are not scenes."""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SCENE_TYPE = "application/x-foldray-scene"
NS = "{http://www.freedesktop.org/standards/shared-mime-info}"

# Not scenes, though .json: plain JSON, a scene's "format" that is not the
# first member, and one inside another object.
NOT_SCENES = {
    "plain.json": '{"a": [1, 2], "b": "text"}\n',
    "format-later.json": '{\n  "title": "not a scene",\n  "format": "foldray-scene"\n}\n',
    "format-nested.json": '{"scene": {"format": "foldray-scene", "version": 1}}\n',
}
# Scenes written otherwise than by the app: without white space, with tabs.
OTHER_SCENES = {
    "minified.json": '{"format":"foldray-scene","version":1}',
    "tabs.json": '{\n\t"format": "foldray-scene",\n\t"version": 1\n}\n',
}

XMLLINT = GIO = None
errors = []


def check(ok, message):
    if not ok:
        errors.append(message)


def run(argv, env=None):
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def check_xml(path):
    r = run([XMLLINT, "--noout", path])
    check(r.returncode == 0 and not r.stderr.strip(), f"xmllint: {r.stderr.strip()}")
    root = ET.parse(path).getroot()
    check(root.tag == NS + "mime-info", f"the root is {root.tag}, not mime-info in the "
          "shared-mime-info namespace")
    types = root.findall(NS + "mime-type")
    check([t.get("type") for t in types] == [SCENE_TYPE], f"expected one mime-type, {SCENE_TYPE}")
    for t in types:
        check([s.get("type") for s in t.findall(NS + "sub-class-of")] == ["application/json"],
              "the scene type must be a sub-class-of application/json")
        check([g.get("pattern") for g in t.findall(NS + "glob")] == ["*.json"],
              "the scene type must claim *.json (see the comment in the XML)")
        check(t.find(NS + "comment") is not None, "no <comment>")
        for m in t.findall(NS + "magic"):
            check(80 <= int(m.get("priority", "50")) <= 100,
                  "the magic needs a priority of 80 or more, or GLib keeps the glob's type")


def check_desktop(path):
    with open(path, encoding="utf-8") as f:
        lines = [l.strip() for l in f if l.startswith("MimeType=")]
    check(len(lines) == 1 and SCENE_TYPE in lines[0].split("=", 1)[1].split(";"),
          f"{os.path.basename(path)} must list {SCENE_TYPE} in MimeType=")


def system_freedesktop_xml():
    dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    for d in dirs.split(":") + ["/usr/share"]:
        p = os.path.join(d, "mime", "packages", "freedesktop.org.xml")
        if d and os.path.isfile(p):
            return p
    sys.exit("check-mime: no mime/packages/freedesktop.org.xml (install shared-mime-info)")


def content_type(path, env):
    r = run([GIO, "info", "-a", "standard::content-type", path], env)
    for line in r.stdout.splitlines():
        if line.strip().startswith("standard::content-type:"):
            return line.split(":", 3)[-1].strip()
    return f"(gio failed: {r.returncode} {r.stderr.strip()})"


def main():
    global XMLLINT, GIO
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    mime_xml, desktop_in, XMLLINT, update_mime_database, GIO = sys.argv[1:6]
    scenes = sys.argv[6:]

    check_xml(mime_xml)
    check_desktop(desktop_in)

    with tempfile.TemporaryDirectory(prefix="foldray-mime-") as tmp:
        data, home, files = (os.path.join(tmp, d) for d in ("share", "home", "files"))
        packages = os.path.join(data, "mime", "packages")
        for d in (packages, home, files):
            os.makedirs(d)
        shutil.copy(system_freedesktop_xml(), packages)
        shutil.copy(mime_xml, os.path.join(packages, "org.foldray.Foldray.xml"))
        env = dict(os.environ, XDG_DATA_DIRS=data, XDG_DATA_HOME=home,
                   PKGSYSTEM_ENABLE_FSYNC="0", GIO_USE_VFS="local")
        r = run([update_mime_database, os.path.join(data, "mime")], env)
        check(r.returncode == 0 and not r.stderr.strip(),
              f"update-mime-database (exit {r.returncode}): {r.stderr.strip()}")

        expect = {s: SCENE_TYPE for s in scenes}
        for table, wanted in ((NOT_SCENES, "application/json"), (OTHER_SCENES, SCENE_TYPE)):
            for name, text in table.items():
                path = os.path.join(files, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                expect[path] = wanted
        for path, wanted in expect.items():
            got = content_type(path, env)
            print(f"{os.path.basename(path)}: {got}")
            check(got == wanted, f"{path}: {got}, expected {wanted}")

    if errors:
        print("check-mime:\n  " + "\n  ".join(errors), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
