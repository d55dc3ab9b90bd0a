# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes .npy fixtures with numpy's own writer, so that the reader's tests
check against files (and values) that do not come from our code.

    npy-fixtures.py OUTDIR            fixtures for tests/test-npy.c
    npy-fixtures.py --corpus OUTDIR   tiny seeds for tests/fuzz/corpus

Every float fixture holds v = 1 + 0.5*ix + 0.25*iz + 0.125*iy at node
(ix, iy, iz) (shape (nz, nx) or (nz, ny, nx)), exactly representable in
float32.  Exits 77 (the "skip" status) when numpy is missing."""

import os
import sys

try:
    import numpy as np
    from numpy.lib import format as npformat
except ImportError:
    sys.exit(77)


def grid(shape, dtype):
    """The formula on a 1D (nx,), 2D (nz, nx) or 3D (nz, ny, nx) shape."""
    idx = np.indices(shape, dtype=np.float64)
    if len(shape) == 1:
        v = 1 + 0.5 * idx[0]
    elif len(shape) == 2:
        v = 1 + 0.5 * idx[1] + 0.25 * idx[0]
    else:
        v = 1 + 0.5 * idx[2] + 0.25 * idx[0] + 0.125 * idx[1]
    return v.astype(dtype)


def save(outdir, name, arr, version=(1, 0)):
    with open(os.path.join(outdir, name), "wb") as f:
        npformat.write_array(f, arr, version=version, allow_pickle=False)


def fixtures(outdir):
    for major in (1, 2, 3):
        for dt in ("f4", "f8"):
            save(outdir, f"v{major}-{dt}-2d.npy", grid((3, 5), "<" + dt), (major, 0))
            save(outdir, f"v{major}-{dt}-3d.npy", grid((3, 2, 4), "<" + dt), (major, 0))
    save(outdir, "v1-f8-1d.npy", grid((7,), "<f8"))
    save(outdir, "empty-2d.npy", np.zeros((0, 5), "<f4"))
    save(outdir, "fortran.npy", np.asfortranarray(grid((3, 5), "<f4")))
    save(outdir, "be-f4.npy", grid((3, 5), ">f4"))
    save(outdir, "be-f8.npy", grid((3, 5), ">f8"))
    save(outdir, "int32.npy", np.arange(6, dtype="<i4").reshape(2, 3))
    save(outdir, "complex.npy", np.ones((2, 3), "<c8"))
    save(outdir, "float16.npy", np.ones((2, 3), "<f2"))
    save(outdir, "scalar.npy", np.array(1.5, "<f8"))
    save(outdir, "4d.npy", np.ones((1, 2, 1, 2), "<f4"))


def corpus(outdir):
    """Seeds: 'ok-' files must parse, 'bad-' files must be refused."""
    save(outdir, "ok-v1-f4-1d.npy", grid((3,), "<f4"))
    save(outdir, "ok-v2-f8-2d.npy", grid((2, 3), "<f8"), (2, 0))
    save(outdir, "ok-v3-f4-3d.npy", grid((2, 2, 2), "<f4"), (3, 0))
    save(outdir, "ok-empty.npy", np.zeros((0,), "<f8"))
    save(outdir, "bad-fortran.npy", np.asfortranarray(grid((2, 2), "<f4")))
    save(outdir, "bad-be.npy", grid((2,), ">f4"))
    save(outdir, "bad-i4.npy", np.arange(2, dtype="<i4"))


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--corpus":
        os.makedirs(args[1], exist_ok=True)
        corpus(args[1])
    elif len(args) == 1:
        fixtures(args[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
