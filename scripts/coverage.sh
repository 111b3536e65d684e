#!/usr/bin/env bash
# Line coverage of core/src: runs the instrumented tests, then lcov, and prints
# the figure. Build directory from $BUILD (set by `make coverage`).
set -eu
BUILD=${BUILD:-build/cov}
find "$BUILD" -name '*.gcda' -delete
scripts/run_tests.sh "$BUILD"/bin/test_* >"$BUILD/tests.log" 2>&1 || {
    tail -20 "$BUILD/tests.log"; echo "coverage: tests failed (log: $BUILD/tests.log)"; exit 1; }
lcov -q --capture --directory "$BUILD/obj/core" --base-directory . --output-file "$BUILD/all.info" \
     --rc lcov_branch_coverage=0 >/dev/null 2>&1
lcov -q --extract "$BUILD/all.info" "*/core/src/*" --output-file "$BUILD/core.info" >/dev/null 2>&1
lcov --list "$BUILD/core.info" 2>/dev/null | sed -n '1,200p' | grep -E '\.c|Total' || true
line=$(lcov --summary "$BUILD/core.info" 2>&1 | grep -E 'lines')
echo "core/src line coverage: ${line#*: }"
