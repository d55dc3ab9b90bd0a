#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GUI tests of Folds mode's fold panel and arrow, under a real X server
(run it inside xvfb-run): a new spacing Δ or Count of the folded horizons,
typed into the panel, contours the last solve's T again without solving
(every solve made slow with FOLDRAY_DEBUG_SOLVE_DELAY_MS, the new horizons
come without that wait) and draws what a fresh solve at that Δ and Count
draws.  At ψa = 0 the arrow's base is a white ring around its yellow tip:
a drag on the ring moves the arrow, one from the middle gives ψa its
direction.  Folded horizons that cannot be traced (a Δ of 1e308) say why
in the status bar.  Real input through xdotool, the screen read with ImageMagick's
`import`.  Speaks TAP.

Usage: gui-fold-test.py FOLDRAY_EXE OUT_DIR

The harness is guilib.py.  The panel positions are those of the window at
GEOMETRY (see 01-fold-panel.png); the window sits at the screen's top-left
corner."""

import os
import sys
import tempfile
import time

import numpy as np

from guilib import App, check, configure, drag, near, results, scene_variant, type_into, xdo

EXE = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="foldray-gui-fold-")
GEOMETRY = "1200x760"
configure(EXE, OUT, GEOMETRY)

DELTA_ENTRY = (1065, 344)
COUNT_ENTRY = (1065, 384)
QUIET = (700, 700)                 # the pointer out of the way, below the model
SOLVE_DELAY_MS = 4000


def fold_scene(name, delta, count, psi=(0.3, -0.1)):
    """The three-layer model in Folds mode on the bundled anticline (no
    horizon in the scene), F = 1, ψa (0.3, -0.1) unless given, on the CPU."""
    def edit(s):
        s["sources"], s["receivers"] = [], []
        s["mode"] = "folds"
        s["fold"] = {"speed": 1.0, "psi_a": list(psi), "method": "las", "backend": "cpu",
                     "delta": delta, "count": count}
    return scene_variant(os.path.join(OUT, name), edit)


def settled_canvas(app, name):
    xdo("mousemove", *QUIET)
    time.sleep(0.5)
    return app.canvas(app.stable_shot(name)).astype(int)


def t_levels_recontour():
    """Δ 0.1 → 0.07, then Count 6 → 9: each new job reuses the first
    solve's T (reuse= its serial in the frame log) and settles well inside
    the solve delay, and that T is not uploaded to the canvas again; the
    canvas is then that of a fresh solve at Δ 0.07, Count 9."""
    notes, ok = [], True
    a = App(fold_scene("levels.json", 0.1, 6), name="levels",
            env={"FOLDRAY_DEBUG_SOLVE_DELAY_MS": str(SOLVE_DELAY_MS)})
    try:
        if not a.find_window():
            return False, "no window"
        first = a.settle_all()
        settled_canvas(a, "01-fold-panel")
        solved = a.last("fold")
        uploads_solved = a.last("frame").get("uploads")
        for entry, text in ((DELTA_ENTRY, "0.07"), (COUNT_ENTRY, "9")):
            before = a.last_job()
            t0 = time.time()
            type_into(*entry, text)      # waits 0.8 s after Enter
            settled = a.wait_job(before)
            took = time.time() - t0
            fold = a.last("fold")
            good = fold.get("reuse") == solved.get("serial") and took < SOLVE_DELAY_MS / 2000.0
            ok &= good
            notes.append("%s %s: job %s reuse=%s (solve %s), settled %d after %.1f s (solve delay %.1f s)"
                         % ("Δ" if entry == DELTA_ENTRY else "Count", text, fold.get("serial"), fold.get("reuse"),
                            solved.get("serial"), settled, took, SOLVE_DELAY_MS / 1000.0))
        # The status bar says the levels came from the last solve, with its time.
        status = [l for l in a.lines() if " status serial=" in l][-1:]
        said = bool(status) and "levels contoured again from the last solve" in status[0]
        ok &= said
        notes.append("status: %s" % status)
        got = settled_canvas(a, "02-fold-delta-count-recontoured")
        # The T contoured again is the solve's, shared: not uploaded again.
        uploads_after = a.last("frame").get("uploads")
        ok &= uploads_solved is not None and uploads_after == uploads_solved
        notes.append("T uploaded %s times after the solve, %s after Δ and Count" % (uploads_solved, uploads_after))
    finally:
        a.quit()
    bad = a.bad_stderr()
    ok &= not bad
    b = App(fold_scene("levels-fresh.json", 0.07, 9), name="levels-fresh")
    try:
        if not b.find_window():
            return False, "no window for the fresh solve"
        b.settle_all()
        fresh = settled_canvas(b, "03-fold-fresh-solve")
        fresh_fold = b.last("fold")
    finally:
        b.quit()
    white = lambda img: (img > 235).all(axis=-1)
    same = got.shape == fresh.shape
    differ = int((np.abs(got - fresh).max(axis=-1) > 8).sum()) if same else -1
    lines = int(white(fresh).sum()) if same else 0
    good = same and differ == 0 and lines > 1000 and fresh_fold.get("reuse") == 0
    ok &= good
    notes.append("canvas against a fresh solve at Δ 0.07, Count 9: %d pixels differ "
                 "(%d white pixels of folded horizons); first solve serial %d; bad stderr %s"
                 % (differ, lines, first, bad[:2]))
    return ok, "\n".join(notes)


check("folds: a new Δ or Count contours the last solve again, as a fresh solve draws it",
      t_levels_recontour)

def t_point_traced():
    """A characteristic's point Shift+clicked solves nothing: the job
    takes the first solve (reuse= its serial), settles well inside the
    solve delay, and the characteristic is drawn (magenta) to its point;
    every pixel away from that line is as before."""
    notes = []
    a = App(fold_scene("point.json", 0.1, 6), name="point",
            env={"FOLDRAY_DEBUG_SOLVE_DELAY_MS": str(SOLVE_DELAY_MS)})
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        before_img = a.canvas(a.stable_shot()).astype(int)
        solved = a.last("fold")
        before = a.last_job()
        px, py = a.to_screen(2.0, 0.35)
        t0 = time.time()
        xdo("mousemove", px, py)
        xdo("keydown", "shift")
        xdo("click", 1)
        xdo("keyup", "shift")
        settled = a.wait_job(before)
        took = time.time() - t0
        fold = a.last("fold")
        img = a.stable_shot("04-fold-point-traced")
        drawn = near(img, px, py, (255, 0, 255), radius=12, tol=90)
        after_img = a.canvas(img).astype(int)
    finally:
        a.quit()
    bad = a.bad_stderr()
    changed = np.abs(after_img - before_img).max(axis=-1) > 8
    ys, xs = np.nonzero(changed)
    notes.append("job %s reuse=%s (solve %s), rays=%s, settled %d after %.1f s (solve delay %.1f s); "
                 "characteristic at its point %s; %d pixels changed; bad stderr %s"
                 % (fold.get("serial"), fold.get("reuse"), solved.get("serial"), fold.get("rays"), settled,
                    took, SOLVE_DELAY_MS / 1000.0, drawn, len(xs), bad[:2]))
    ok = (fold.get("reuse") == solved.get("serial") and fold.get("rays") == 1
          and took < SOLVE_DELAY_MS / 2000.0 and drawn and 0 < len(xs) < 0.05 * changed.size and not bad)
    return ok, "\n".join(notes)


check("folds: a characteristic's point added is traced from the last solve, solving nothing",
      t_point_traced)


def t_horizons_failed():
    """A scene's Δ of 1e308 makes the second level +inf, which the
    contour tracer refuses: the status bar says the folded horizons could
    not be drawn and why (it said "0 of 2 levels folded", the reason on
    the terminal alone), and the field stays drawn (the solve is kept)."""
    notes, ok = [], True
    a = App(fold_scene("horizons-failed.json", 1e308, 2), name="horizons-failed")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        status = [l for l in a.lines() if " status serial=" in l][-1:]
        said = bool(status) and ("The folded horizons could not be drawn: contour level 2 of 2 is not finite"
                                 in status[0])
        ok &= said
        notes.append("status: %s" % status)
        img = settled_canvas(a, "05-fold-horizons-failed")
        # The colour field of T and the velocities is drawn, not a blank plot.
        colours = len(np.unique(img.reshape(-1, 3) // 16, axis=0))
        ok &= colours > 20
        notes.append("canvas colours (in 16-steps): %d" % colours)
    finally:
        a.quit()
    bad = a.bad_stderr()
    ok &= not bad
    notes.append("bad stderr %s" % bad[:2])
    return ok, "\n".join(notes)


check("folds: folded horizons that cannot be traced say why in the status bar", t_horizons_failed)

ARROW_YELLOW = (255, 235, 51)      # the ψa arrow's tip (fr-fold-tool.c)
HORIZON_ORANGE = (255, 140, 0)     # the starting horizon
RING_PX = 13                       # the base's ring at ψa = 0 (fr-fold-tool.c)
ARROW_BASE = (1.5, 0.3)            # the model's top centre, 0.2 of its depth down


def ring_share(img, sx, sy, r=RING_PX):
    """The share of 48 directions around (sx, sy) with a white pixel
    between r - 2 and r + 2 pixels out: the ring's, where the folded
    horizons (white too) cross it at only a few."""
    hits = 0
    for i in range(48):
        a = 2 * np.pi * i / 48
        hits += any((img[int(round(sy + d * np.sin(a))), int(round(sx + d * np.cos(a)))] > 225).all()
                    for d in np.arange(r - 2, r + 2.01, 0.5))
    return hits / 48.0


def t_psi_zero_handles():
    """ψa = 0: the base is a white ring around the yellow tip.  A drag on
    the ring moves the arrow (ψa still 0, no solve); a drag from the tip
    in the middle then pulls ψa out to the right (ψa x > 0, z ≈ 0), and
    the arrow is drawn from the new base."""
    notes, ok = [], True
    a = App(fold_scene("psi-zero.json", 0.1, 6, psi=(0.0, 0.0)), name="psi-zero")
    try:
        if not a.find_window():
            return False, "no window"
        a.settle_all()
        bx, by = a.to_screen(*ARROW_BASE)
        xdo("mousemove", *QUIET)
        time.sleep(0.5)
        img = a.stable_shot("10-psi-zero")
        share = ring_share(img, bx, by)
        tip = near(img, bx, by, ARROW_YELLOW, radius=2, tol=30)
        good = share > 0.9 and tip
        ok &= good
        notes.append("ψa = 0: ring around the base in %.0f %% of directions, yellow tip in the middle %s"
                     % (100 * share, tip))

        job = a.last_job()
        node = a.to_screen(0.0, 0.8)     # the anticline's first node, which stays
        node_before = near(img, *node, HORIZON_ORANGE, radius=4, tol=40)
        nx, ny = bx + 120, by + 60
        drag(bx + RING_PX, by, nx + RING_PX, ny)
        xdo("mousemove", *QUIET)
        time.sleep(1.5)
        img = a.stable_shot("11-psi-zero-base-moved")
        share = ring_share(img, nx, ny)
        tip = near(img, nx, ny, ARROW_YELLOW, radius=2, tol=30)
        old = ring_share(img, bx, by)
        fold = a.last("fold")
        node_after = near(img, *node, HORIZON_ORANGE, radius=4, tol=40)
        good = (share > 0.9 and tip and old < 0.5 and a.last_job() == job and node_before and node_after and
                fold.get("psi_x") == 0 and fold.get("psi_z") == 0)
        ok &= good
        notes.append("drag on the ring: ring at the new base in %.0f %% of directions (old place %.0f %%), "
                     "tip there %s, jobs %d → %d, ψa %s, %s, the horizon in place %s → %s"
                     % (100 * share, 100 * old, tip, job, a.last_job(), fold.get("psi_x"), fold.get("psi_z"),
                        node_before, node_after))

        drag(nx, ny, nx + 60, ny)
        a.wait_job(job)
        xdo("mousemove", *QUIET)
        img = a.stable_shot("12-psi-pulled-out")
        fold = a.last("fold")
        shaft = near(img, nx + 30, ny, ARROW_YELLOW, radius=2, tol=30)
        head = near(img, nx + 60, ny, ARROW_YELLOW, radius=3, tol=30)
        # Rounded to the decade below a pixel's worth of ψa (0.6766769392 was set).
        px = fold.get("psi_x", 0)
        rounded = abs(px * 1e4 - round(px * 1e4)) < 1e-6
        good = (px > 0.1 and abs(fold.get("psi_z", 1)) < 0.02 and shaft and head and rounded)
        ok &= good
        notes.append("drag from the tip: ψa (%s, %s), to at most 4 decimals %s, shaft %s, tip %s"
                     % (px, fold.get("psi_z"), rounded, shaft, head))
    finally:
        a.quit()
    bad = a.bad_stderr()
    ok &= not bad
    notes.append("bad stderr %s" % bad[:2])
    return ok, "\n".join(notes)


check("folds: at ψa = 0 the arrow's base is a ring around its tip, each of them dragged apart",
      t_psi_zero_handles)

print("1..%d" % len(results))
sys.exit(0 if all(results) else 1)
