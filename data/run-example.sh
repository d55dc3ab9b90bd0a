#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Traces rays through the bundled three-layer model (data/examples) from a
# source at the top centre to ten surface receivers, then draws the result.
# Usage: sh data/run-example.sh BUILD_DIR   (writes into the current folder)
set -eu

if [ $# -ne 1 ]; then
  echo "usage: sh data/run-example.sh BUILD_DIR" >&2
  exit 2
fi
build=$1
examples=$(cd "$(dirname "$0")/examples" && pwd)
cli=$build/solver/tools/foldray-cli
picture=$build/solver/tools/foldray-picture
for tool in "$cli" "$picture"; do
  if [ ! -x "$tool" ]; then
    echo "run-example.sh: $tool not found; build first (meson compile -C $build)" >&2
    exit 1
  fi
done

# Units are km and km/s (data/examples/README.md): nodes are 0.01 km apart,
# the model is 3 km wide, and T comes out in seconds.
"$cli" spr --velocity "$examples/three-layer.npy" --spacing 0.01 \
  --source 1.5,0 --radius 5 \
  --receivers "$examples/three-layer-receivers.csv" --rays-out example-rays.csv \
  --out example-T.npy --stats
"$picture" --velocity "$examples/three-layer.npy" --time example-T.npy --spacing 0.01 \
  --rays example-rays.csv --isochron-interval 0.05 --scale 3 --out example-T.png

here=$(pwd)
echo "traveltimes: $here/example-T.npy (float32, shape (151, 301), seconds)"
echo "rays:        $here/example-rays.csv"
echo "picture:     $here/example-T.png"
