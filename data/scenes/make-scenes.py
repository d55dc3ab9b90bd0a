#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the bundled scenes of data/scenes (see README.md there).

Scenes are JSON of format "foldray-scene", version 1.  Units: km, km/s, s,
which each scene names ("units"), so that the app labels its axes with them.
Rerun after editing: python3 make-scenes.py (standard library only).
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def r(v):
    return round(v, 6)


def scene(title, nx, nz, d, layers, obstacles=(), sources=(), receivers=(), radius=5,
          default_velocity=1.0, display=None):
    s = {
        "format": "foldray-scene",
        "version": 1,
        "title": title,
        "grid": {"nx": nx, "nz": nz, "spacing": [d, d], "origin": [0, 0]},
        "default_velocity": default_velocity,
        "layers": list(layers),
        "obstacles": list(obstacles),
        "sources": [list(s) for s in sources],
        "receivers": [list(p) for p in receivers],
        "solver": {"radius": radius, "backend": "auto"},
    }
    # The side panel's display settings; left out, the app's defaults.
    if display is not None:
        s["display"] = display
    # Lengths in km, hence velocities in km/s and times in s.
    s["units"] = {"length": "km"}
    return s


def layer(v, nodes, dvdz=0.0, dvdx=0.0):
    return {"velocity": v, "dvdz": dvdz, "dvdx": dvdx,
            "interface": [[r(x), r(z)] for x, z in nodes]}


def rect(x0, z0, x1, z1, v=0.0):
    return {"shape": "rectangle", "velocity": v,
            "vertices": [[x0, z0], [x1, z0], [x1, z1], [x0, z1]]}


def three_layer():
    """Monsegny & Agudelo's three-layer model, as data/examples/three-layer.npy."""
    xs = [i * 0.1 for i in range(31)]
    anticline = [(x, 1.05 - 0.25 * math.exp(-((x - 1.8) / 0.7) ** 2)) for x in xs]
    receivers = [(r(0.15 + 0.3 * i), 0) for i in range(10)]
    return scene("Three layers (Monsegny & Agudelo)", 301, 151, 0.01,
                 [layer(1.5, [(0, 0), (3, 0)]),
                  layer(2.5, [(0, 0.12), (3, 0.48)]),
                  layer(4.0, anticline)],
                 sources=[(1.5, 0)], receivers=receivers)


def gradient():
    """v = 0.5 + 0.005·z km/s with z in m, i.e. 0.5 + 5·z with z in km.
    Shown as in the README's screenshot: magma, isochrons every 0.02 s."""
    receivers = [(r(0.1 + 0.2 * i), 0) for i in range(10)]
    return scene("Vertical gradient v = 0.5 + 5·z km/s, z in km (Monsegny & Agudelo)", 201, 101, 0.01,
                 [layer(0.5, [(0, 0), (2, 0)], dvdz=5.0)],
                 sources=[(1.0, 0)], receivers=receivers,
                 display={"interval": 0.02, "colormap": "magma"})


def syncline_salt():
    """A syncline (layers sagging to the centre) over which a salt-like body
    (fast, 4.5 km/s) rises."""
    xs = [i * 0.2 for i in range(16)]
    sag = lambda x: math.exp(-((x - 1.5) / 0.9) ** 2)
    salt = [(1.1, 1.95), (1.2, 1.4), (1.35, 1.1), (1.5, 1.0), (1.65, 1.1), (1.8, 1.4),
            (1.9, 1.95)]
    receivers = [(r(0.15 + 0.3 * i), 0) for i in range(10)]
    return scene("Syncline with a salt body", 301, 201, 0.01,
                 [layer(1.8, [(0, 0), (3, 0)], dvdz=0.3),
                  layer(2.6, [(x, 0.35 + 0.3 * sag(x)) for x in xs], dvdz=0.2),
                  layer(3.4, [(x, 0.9 + 0.45 * sag(x)) for x in xs], dvdz=0.1)],
                 obstacles=[{"shape": "polygon", "velocity": 4.5,
                             "vertices": [[x, z] for x, z in salt]}],
                 sources=[(0.3, 0)], receivers=receivers)


def ex_b():
    """Ex_B in 2D: staggered impermeable walls, alternately from the top and
    the bottom, that the wave must wind around."""
    walls = []
    for k in range(5):
        x = 0.35 + 0.35 * k
        walls.append(rect(x, 0.0, x + 0.05, 0.75) if k % 2 == 0 else rect(x, 0.25, x + 0.05, 1.0))
    return scene("Ex_B: wall maze", 201, 101, 0.01, [layer(1.0, [(0, 0), (2, 0)])],
                 obstacles=walls, sources=[(0.1, 0.5)], receivers=[(1.9, 0.5)], radius=3)


def ex_c():
    """Ex_C in 2D: nested rectangular walls, each with a gap on alternate
    sides, around a source at the centre."""
    walls = []
    c, t = 1.0, 0.04
    for k, h in enumerate((0.2, 0.45, 0.7)):
        x0, x1, z0, z1 = c - h, c + h, c - h, c + h
        gap = 0.12
        walls += [rect(x0, z0, x1, z0 + t), rect(x0, z1 - t, x1, z1)]
        if k % 2 == 0:
            walls += [rect(x0, z0, x0 + t, z1), rect(x1 - t, z0, x1, c - gap),
                      rect(x1 - t, c + gap, x1, z1)]
        else:
            walls += [rect(x1 - t, z0, x1, z1), rect(x0, z0, x0 + t, c - gap),
                      rect(x0, c + gap, x0 + t, z1)]
    return scene("Ex_C: nested walls", 201, 201, 0.01, [layer(1.0, [(0, 0), (2, 0)])],
                 obstacles=[{**w, "vertices": [[r(x), r(z)] for x, z in w["vertices"]]}
                            for w in walls],
                 sources=[(1.0, 1.0)], receivers=[(0.05, 0.05), (1.95, 1.0)], radius=3)


def main():
    for name, s in (("three-layer", three_layer()), ("gradient", gradient()),
                    ("syncline-salt", syncline_salt()), ("ex-b-maze", ex_b()),
                    ("ex-c-maze", ex_c())):
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(s, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
