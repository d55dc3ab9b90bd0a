#!/bin/sh
# Builds Foldray and runs every test: the normal build, then the CPU code
# again under AddressSanitizer and UndefinedBehaviorSanitizer (any report
# fails the run).  Ends with one line `N passed, N failed, N skipped`.
set -u
cd "$(dirname "$0")/.."
status=0

# The test build embeds GPU code for sm_90 only: compiling every
# architecture of the default fat binary would triple CI's compile time, and
# CI has no GPU to run it on anyway.
if [ ! -d build/meson-private ]; then
  meson setup build -Dbuildtype=debugoptimized -Dgpu_arch=9.0 || exit 1
fi

# The sanitizer build leaves CUDA out: the sanitizers check host code, and
# the CUDA runtime's own allocations would only add noise.  It runs the
# app's own tests too (its scene, undo, view and figure code), but not the
# GUI suites, which take minutes under the sanitizers.
#
# It compiles beside the normal build, at the lowest CPU priority, so it
# takes only what the normal build leaves idle: one core while nvcc compiles
# spr-cuda.cu alone, most of a core while the GUI suites wait on the app.
# Its tests run after the normal ones, at the normal priority and alone:
# some measure time (test-spr-input's cancel latency), and a starved test
# would fail for the machine, not for the code.
asan_log=build/asan-compile.log
(
  if [ ! -d build-asan/meson-private ]; then
    CC=clang-14 nice -n 19 meson setup build-asan -Dbuildtype=debug -Dcuda=disabled \
      -Db_sanitize=address,undefined -Db_lundef=false || exit 1
  fi
  nice -n 19 meson compile -C build-asan
) > "$asan_log" 2>&1 &
asan_pid=$!

meson compile -C build || { wait $asan_pid; exit 1; }
meson test -C build --print-errorlogs --num-processes 2 || status=1

wait $asan_pid
asan_status=$?
cat "$asan_log"
[ $asan_status = 0 ] || exit 1
# KMP_WARNINGS: clang's libomp formats its warnings (in a fork's child
# handler too) through a call that crashed under ASan's interceptors now and
# then, failing a test that had done nothing wrong.
KMP_WARNINGS=0 \
ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1 \
LSAN_OPTIONS=suppressions="$PWD/tests/lsan-suppressions.txt" \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs --num-processes 2 --suite unit --suite cli \
    --suite app || status=1

python3 tests/summarize.py build/meson-logs/testlog.json build-asan/meson-logs/testlog.json || status=1
exit $status
