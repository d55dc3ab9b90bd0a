#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the example models of data/examples (see README.md there).

Units: distances in km, velocities in km/s, so traveltimes come out in s.
Grids are float32 .npy of shape (nz, nx), z down, spacing 0.01 km (10 m).
Rerun after editing: python3 make-examples.py (needs numpy).
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
D = 0.01  # km between nodes


def three_layer():
    """Three layers in the spirit of Monsegny & Agudelo's Figure 1: a slow
    top layer over a dipping interface, a middle layer over a curved
    (anticline) interface, and a fast bottom layer."""
    nx, nz = 301, 151                      # 3 km x 1.5 km
    x = np.arange(nx) * D
    z = np.arange(nz)[:, None] * D
    top = 0.12 + 0.12 * x                   # dips from 0.12 to 0.48 km
    bottom = 1.05 - 0.25 * np.exp(-((x - 1.8) / 0.7) ** 2)   # crest 0.80 km at x = 1.8
    v = np.full((nz, nx), 4.0)
    v[z < bottom] = 2.5
    v[z < top] = 1.5
    return v.astype(np.float32)


def gradient():
    """v = 0.5 + 5 z km/s with z in km (0.5 + 0.005 z with z in m)."""
    nx, nz = 201, 101                      # 2 km x 1 km
    z = np.arange(nz)[:, None] * D
    v = 0.5 + 5.0 * z + np.zeros((1, nx))
    return v.astype(np.float32)


def receivers():
    """Ten surface receivers, 0.3 km apart, for three-layer.npy."""
    xs = 0.15 + 0.3 * np.arange(10)
    lines = ["x,z"] + ["%.2f,0" % x for x in xs]
    return "\n".join(lines) + "\n"


def main():
    np.save(os.path.join(HERE, "three-layer.npy"), three_layer())
    np.save(os.path.join(HERE, "gradient.npy"), gradient())
    with open(os.path.join(HERE, "three-layer-receivers.csv"), "w") as f:
        f.write(receivers())


if __name__ == "__main__":
    main()
