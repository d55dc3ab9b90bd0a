#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# compute-sanitizer on the CUDA fold back end, through `foldray-cli fold
# --backend cuda`: memcheck (with leak check), racecheck and synccheck on
# small 2D and 3D solves (speed constant or a layered grid with obstacles;
# point sources or a horizon polyline; grids that are no multiple of a
# block), single and double precision, LAS and SOLAS.  Prints each run's
# summary lines and exits non-zero if any tool reports an error, if a solve
# fails, or if it did not run on the GPU (a CPU fallback would pass every
# tool without checking anything).
#
#   tests/bench/sanitize-fold-cuda.sh DIR
#
# DIR holds foldray-cli: a build folder (build/solver/tools is looked in
# too) or a folder of carried binaries.  compute-sanitizer is taken from
# $SANITIZER, else PATH, else /usr/local/cuda/bin.  $TOOLS (default
# "memcheck racecheck synccheck"; initcheck works too) and $METHODS
# (default "las solas") narrow or widen the runs.  No python or numpy is
# needed: the speed grids are written as .npy by this script.
set -u

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "usage: $0 DIR   (DIR holds foldray-cli, or DIR/solver/tools does)" >&2
  exit 2
fi

cli=
for c in "$1/foldray-cli" "$1/solver/tools/foldray-cli"; do
  if [ -x "$c" ]; then
    cli=$c
    break
  fi
done
if [ -z "$cli" ]; then
  echo "$0: no foldray-cli in $1 or $1/solver/tools" >&2
  exit 2
fi

san=${SANITIZER:-}
if [ -z "$san" ]; then
  san=$(command -v compute-sanitizer 2>/dev/null || true)
fi
if [ -z "$san" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
  san=/usr/local/cuda/bin/compute-sanitizer
fi
if [ -z "$san" ]; then
  echo "$0: compute-sanitizer is neither on PATH nor in /usr/local/cuda/bin" >&2
  exit 2
fi

tools=${TOOLS:-memcheck racecheck synccheck}
methods=${METHODS:-las solas}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sanitize-fold.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

# ---------------------------------------------------------------- inputs

# Little-endian float32 bytes, as octal escapes for printf's format (the
# only portable way to write bytes from sh), written by put.
F0='\000\000\000\000'
F1='\000\000\200\077'      # 1.0
F15='\000\000\300\077'     # 1.5
F2='\000\000\000\100'      # 2.0

put () {
  # shellcheck disable=SC2059  # the format is one of the byte strings above
  printf "$1"
}

# npy_header FILE SHAPE: the preamble and header of a float32 .npy of
# C-order shape SHAPE (a Python tuple), padded so that the data start at
# byte 128; the caller appends the data.
npy_header () {
  dict="{'descr': '<f4', 'fortran_order': False, 'shape': $2, }"
  pad=$((128 - 10 - ${#dict} - 1))
  {
    printf '\223NUMPY\001\000\166\000'   # version 1.0, header length 118
    printf '%s' "$dict"
    printf "%${pad}s\n" ''
  } > "$1"
}

# layer_speed IZ NZ: the float bytes of three layers of speed 1, 2, 1.5.
layer_speed () {
  if [ $(($1 * 3)) -lt "$2" ]; then
    printf '%s' "$F1"
  elif [ $(($1 * 3)) -lt $(($2 * 2)) ]; then
    printf '%s' "$F2"
  else
    printf '%s' "$F15"
  fi
}

# 2D, 41 × 37 (nx × nz): layers, and an obstacle bar (speed 0) across row
# 20 from column 5 to 30, so the front bends round its end.
nx=41 nz=37
npy_header "$tmp/speed2d.npy" "($nz, $nx)"
iz=0
while [ $iz -lt $nz ]; do
  f=$(layer_speed $iz $nz)
  ix=0
  while [ $ix -lt $nx ]; do
    if [ $iz -eq 20 ] && [ $ix -ge 5 ] && [ $ix -le 30 ]; then
      put "$F0"
    else
      put "$f"
    fi
    ix=$((ix + 1))
  done
  iz=$((iz + 1))
done >> "$tmp/speed2d.npy"

# 3D, 23 × 25 × 22 (nx × ny × nz): layers, and an obstacle slab at iz = 11
# with a 5 × 5 hole.
nx=23 ny=25 nz=22
npy_header "$tmp/speed3d.npy" "($nz, $ny, $nx)"
iz=0
while [ $iz -lt $nz ]; do
  f=$(layer_speed $iz $nz)
  iy=0
  while [ $iy -lt $ny ]; do
    ix=0
    while [ $ix -lt $nx ]; do
      if [ $iz -eq 11 ] && ! { [ $ix -ge 8 ] && [ $ix -le 12 ] && [ $iy -ge 8 ] && [ $iy -le 12 ]; }; then
        put "$F0"
      else
        put "$f"
      fi
      ix=$((ix + 1))
    done
    iy=$((iy + 1))
  done
  iz=$((iz + 1))
done >> "$tmp/speed3d.npy"

# A horizon polyline across the 2D grid, starting and ending outside it.
printf 'x,z\n-2,12\n10,17.5\n20,13\n31,16.2\n43,9\n' > "$tmp/horizon.csv"

# One case per line: name, then the fold arguments (no spaces inside one).
cases="2d-const --speed-const 1.3 --shape 43,37 --spacing 1 --psi-a 0.3,-0.2 --source 12.5,9.3 --source 30,31
2d-layers-horizon --speed $tmp/speed2d.npy --spacing 1 --psi-a 0.3,-0.2 --horizon $tmp/horizon.csv
2d-layers-source --speed $tmp/speed2d.npy --spacing 1,0.8 --psi-a -0.25,0.2 --source 20.5,27
3d-const --speed-const 1 --shape 23,25,22 --spacing 1 --psi-a 0.2,0.1,-0.15 --source 5.5,6.2,4.1
3d-layers --speed $tmp/speed3d.npy --spacing 1,1.2,0.9 --psi-a 0.2,0.1,-0.15 --source 5.5,6.2,4.1 --source 18,17,15"

# ------------------------------------------------------------------ runs

for tool in $tools; do
  case $tool in
    memcheck) extra="--leak-check full" ;;
    racecheck) extra="--racecheck-report all" ;;
    *) extra= ;;
  esac
  echo "== $tool"
  echo "$cases" | while read -r name args; do
    for prec in single double; do
      for method in $methods; do
        what="$tool $name $prec $method"
        log="$tmp/log" out="$tmp/stats" err="$tmp/err"
        # shellcheck disable=SC2086  # $extra and $args are word lists
        "$san" --tool "$tool" $extra --error-exitcode 99 --print-limit 20 --log-file "$log" \
          "$cli" fold $args --backend cuda --precision "$prec" --method "$method" \
          --out "$tmp/t.npy" --stats > "$out" 2> "$err"
        rc=$?
        summary=$(grep 'SUMMARY' "$log" 2>/dev/null | sed 's/^=* *//' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
        status=ok
        if [ $rc -eq 99 ]; then
          status="ERRORS"
        elif [ $rc -ne 0 ]; then
          status="FAILED (exit $rc: $(head -n 3 "$err" | cut -c1-200 | tr '\n' ' '))"
        elif ! grep -q '"backend": "cuda"' "$out"; then
          status="NOT ON THE GPU ($(sed -n 's/.*"notice": \(".*"\).*/\1/p' "$out"))"
        elif [ -z "$summary" ]; then
          status="NO SUMMARY"
        elif echo "$summary" | grep -Eq '[1-9][0-9]* errors?'; then
          status="ERRORS"
        fi
        printf '%-40s %s  [%s]\n' "$what" "$summary" "$status"
        if [ "$status" != ok ]; then
          sed -n '1,40p' "$log" 2>/dev/null | grep -v '^========= *$' | sed 's/^/    /'
          echo "$what" >> "$tmp/failures"
        fi
        echo x >> "$tmp/count"
      done
    done
  done
done

runs=$(wc -l < "$tmp/count" 2>/dev/null || echo 0)
if [ -s "$tmp/failures" ]; then
  failed=$(wc -l < "$tmp/failures")
  echo "sanitize-fold-cuda: $failed of $runs runs failed:"
  sed 's/^/  /' "$tmp/failures"
  exit 1
fi
echo "sanitize-fold-cuda: all $runs runs clean ($tools; $("$san" --version 2>/dev/null | tail -n 1))"
exit 0
