#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks a hand-written man page against the program it documents.

    check-man.py lint GROFF PAGE
        groff must format PAGE without a single warning (-ww).

    check-man.py options PAGE PROGRAM [--help-flag FLAG] [--subcommand NAME ...]
        Every option that `PROGRAM FLAG` prints (FLAG: --help by default) must
        be documented in PAGE's OPTIONS section.  With subcommands, every
        option of `PROGRAM NAME --help` must be in the OPTIONS subsection
        (.SS) named after NAME, and every subcommand the main help lists must
        be checked, so that a new option or subcommand without documentation
        fails.  PAGE must also have the sections a user looks for.
"""
import os
import re
import subprocess
import sys

SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES",
            "SEE ALSO"]

# --long-option or -x, not the inside of a word ("input-to-frame", "6e-8").
OPTION_RE = re.compile(r"(?<![\w-])(--[A-Za-z][A-Za-z0-9-]*|-[A-Za-z])(?![\w-])")


def fail(message):
    print("check-man: " + message, file=sys.stderr)
    sys.exit(1)


def lint(groff, page):
    run = subprocess.run([groff, "-man", "-ww", "-z", "-Tutf8", page],
                         capture_output=True, text=True)
    if run.returncode != 0 or run.stderr.strip():
        fail(f"{page}: groff reports (exit {run.returncode}):\n{run.stderr}")
    print(f"{page}: no groff warnings")


def plain(line):
    """A roff source line as the reader sees its words: font changes and
    zero-width escapes dropped, \\- as a hyphen, quotes of macro arguments
    removed."""
    line = re.sub(r"\\f(\(..|\[[^]]*\]|.)", "", line)
    line = line.replace("\\-", "-").replace("\\&", "").replace("\\%", "")
    line = line.replace("\\~", " ").replace("\\ ", " ")
    if line.startswith("."):
        line = line.replace('"', "")
    return line


def sections(page):
    """{SECTION: [lines]} and, for OPTIONS, {SUBSECTION: [lines]}."""
    with open(page, encoding="utf-8") as f:
        lines = f.read().splitlines()
    secs, subs = {}, {}
    sec = sub = None
    for raw in lines:
        if raw.startswith('.\\"'):
            continue
        if raw.startswith(".SH "):
            sec, sub = plain(raw[4:]).replace('"', "").strip(), None
            secs[sec] = []
            continue
        if raw.startswith(".SS ") and sec == "OPTIONS":
            sub = plain(raw[4:]).replace('"', "").strip()
            subs[sub] = []
            continue
        text = plain(raw)
        if sec is not None:
            secs[sec].append(text)
        if sub is not None:
            subs[sub].append(text)
    return secs, subs


def help_text(program, args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", GTK_A11Y="none")
    run = subprocess.run([program] + args, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        fail(f"{' '.join([program] + args)} exited {run.returncode}:\n{run.stderr}")
    return run.stdout


def options_in(text):
    return sorted(set(OPTION_RE.findall(text)))


def documented(option, lines):
    return any(option in OPTION_RE.findall(line) for line in lines)


def listed_subcommands(text):
    """The names under a `Subcommands:` heading of the main help."""
    names, inside = [], False
    for line in text.splitlines():
        if line.strip() == "Subcommands:":
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            names.append(line.split()[0])
        elif inside:
            inside = False
    return names


def check_options(page, program, help_flag, subcommands):
    secs, subs = sections(page)
    errors = []
    for name in SECTIONS:
        if name not in secs:
            errors.append(f"no {name} section")
    prog = os.path.basename(page).rsplit(".", 1)[0]
    name_text = " ".join(secs.get("NAME", []))
    if not re.match(rf"^{re.escape(prog)} - \S", name_text.strip()):
        errors.append(f"the NAME section must read `{prog} \\- summary` (whatis reads it)")
    opts_lines = secs.get("OPTIONS", [])

    main_help = help_text(program, [help_flag])
    for opt in options_in(main_help):
        if not documented(opt, opts_lines):
            errors.append(f"`{os.path.basename(program)} {help_flag}` prints {opt}, "
                          "which the OPTIONS section does not document")

    for name in listed_subcommands(main_help):
        if name not in subcommands:
            errors.append(f"the help lists subcommand `{name}`, which this test does not check "
                          "(add --subcommand to its test in data/man/meson.build)")
    for name in subcommands:
        if not any(name in line.split() for line in secs.get("SYNOPSIS", [])):
            errors.append(f"subcommand `{name}` is missing from the SYNOPSIS")
        sub = next((lines for title, lines in subs.items() if name in title.split()), None)
        if sub is None:
            errors.append(f"no OPTIONS subsection (.SS) for subcommand `{name}`")
            continue
        for opt in options_in(help_text(program, [name, "--help"])):
            if not documented(opt, sub):
                errors.append(f"`{os.path.basename(program)} {name} --help` prints {opt}, "
                              f"which the OPTIONS subsection `{name}` does not document")
    if errors:
        fail(f"{page}:\n  " + "\n  ".join(errors))
    print(f"{page}: every option of {os.path.basename(program)} is documented")


def main(argv):
    if len(argv) == 4 and argv[1] == "lint":
        lint(argv[2], argv[3])
        return
    if len(argv) >= 4 and argv[1] == "options":
        page, program, rest = argv[2], argv[3], argv[4:]
        help_flag, subcommands = "--help", []
        while rest:
            if rest[0] == "--help-flag" and len(rest) > 1:
                help_flag, rest = rest[1], rest[2:]
            elif rest[0] == "--subcommand" and len(rest) > 1:
                subcommands.append(rest[1])
                rest = rest[2:]
            else:
                fail(f"unknown argument {rest[0]}")
        check_options(page, program, help_flag, subcommands)
        return
    fail("usage: check-man.py lint GROFF PAGE | "
         "options PAGE PROGRAM [--help-flag FLAG] [--subcommand NAME ...]")


if __name__ == "__main__":
    main(sys.argv)
