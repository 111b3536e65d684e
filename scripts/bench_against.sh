#!/usr/bin/env bash
# A benchmark of this checkout run against the library of an older commit:
# the same scene and the same measurement, the old core and adapters. The
# baseline of a claim such as "no worse than at commit X", measured in the
# same session as today's figures.
#   scripts/bench_against.sh COMMIT NAME [ARGS...]
# clones this repository at COMMIT into $BUILD/against/COMMIT, builds its
# libraries there, links bench/NAME.c of this checkout against them (their
# headers first; this checkout's bench utilities) as
# $BUILD/against/COMMIT/NAME, and runs it with ARGS (default: --out
# $BUILD/against/COMMIT/bench). The program's public calls must exist at
# COMMIT (cp_overhead and ode_overhead reach back to before the impact
# solver, 51ce5f7); a CCD phase the old library names otherwise counts 0 in
# the program's own instruction columns (count the whole step instead:
# `NAME --count ...` under callgrind, --toggle-collect=cpSpaceStep).
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/bench_against.sh COMMIT NAME [ARGS...]" >&2; exit 2; }
commit=$1
name=$2
shift 2
BUILD=${BUILD:-build}
src="bench/$name.c"
[ -f "$src" ] || { echo "bench_against: no $src" >&2; exit 2; }
dir="$BUILD/against/$commit"
if [ ! -d "$dir/src/.git" ]; then
    rm -rf "$dir/src"
    mkdir -p "$dir"
    git clone -q . "$dir/src"
else
    git -C "$dir/src" fetch -q origin # a clone made before COMMIT was
fi
git -C "$dir/src" checkout -q "$commit"
make --no-print-directory -s -C "$dir/src" all >/dev/null
make --no-print-directory -s BUILD="$BUILD" "$BUILD/lib/libsccd_util.a" "$BUILD/lib/libsccd_scenes.a" >/dev/null
old="$dir/src"
# -O3 as the Makefile builds (the old library was built by its own Makefile).
gcc -std=c11 -O3 -g -fno-math-errno -I"$old/core/include" -I"$old/adapters/chipmunk" -I"$old/adapters/ode" \
    -Icommon/util -Icommon/scenes -Itests/oracles "$src" "$BUILD/lib/libsccd_util.a" "$BUILD/lib/libsccd_scenes.a" \
    "$old/build/lib/libsectorccd_chipmunk.a" "$old/build/lib/libsectorccd_ode.a" "$old/build/lib/libsectorccd.a" \
    -lchipmunk -lode -lm -o "$dir/$name"
if [ $# -eq 0 ]; then
    mkdir -p "$dir/bench"
    set -- --out "$dir/bench"
fi
echo "== $name against $commit ($(git -C "$old" log -1 --format='%h %ad' --date=short))"
exec "$dir/$name" "$@"
