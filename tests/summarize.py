#!/usr/bin/env python3
"""Counts test cases in meson's testlog.json files: each TAP `ok` / `not ok`
line is one case; a program that crashed, timed out or failed without
reporting a failing case counts as one more failure.  Prints
`N passed, N failed[, N skipped]` and exits 1 when anything failed."""
import json
import re
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            p = fl = s = 0
            for out in (t.get("stdout") or "").splitlines():
                m = re.match(r"^(not ok|ok)\b(.*)$", out)
                if not m:
                    continue
                directive = m.group(2)
                if re.search(r"#\s*skip", directive, re.I):
                    s += 1
                elif m.group(1) == "ok" or re.search(r"#\s*todo", directive, re.I):
                    p += 1
                else:
                    fl += 1
            result = t.get("result")
            if result not in ("OK", "SKIP", "EXPECTEDFAIL") and fl == 0:
                fl += 1  # crash, timeout or a non-TAP program failing
            if p + fl + s == 0:
                if result == "SKIP":
                    s += 1
                elif result == "OK":
                    p += 1
            if fl:
                print(f"FAILED: {t.get('name')} ({result})", file=sys.stderr)
            passed += p
            failed += fl
            skipped += s
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
