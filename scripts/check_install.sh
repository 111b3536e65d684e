#!/usr/bin/env bash
# make check-install: is the installed package usable by a program outside
# this tree? Installs into a scratch prefix ($BUILD/check-install/prefix),
# then builds each of examples/ out of tree against it
#   - with pkg-config (the example's Makefile) and with CMake (its
#     CMakeLists.txt; once with the shared libraries, once with the static),
#   - each as C and as C++ (the same file),
# runs every program (each exits non-zero unless the CCD stopped the fast
# body), checks that the shared builds load the installed libraries by their
# sonames, that README.md still quotes the examples' lines, and that
# make uninstall (with and without DESTDIR) removes every installed file.
# Any failure stops it with a non-zero exit.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BUILD=${BUILD:-build}
# Our make calls set what they need; nothing from the calling make leaks in.
unset MAKEFLAGS MFLAGS MAKELEVEL
MAKE=${MAKE:-make}

work=$root/$BUILD/check-install
prefix=$work/prefix
rm -rf "$work"
mkdir -p "$work"
examples="chipmunk_game ode_sim"

step() { echo "check-install: $*"; }
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }

step "make install PREFIX=$prefix"
$MAKE --no-print-directory BUILD="$BUILD" install PREFIX="$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "make install"; }

# The version, as the Makefile defines it, in every file that carries it.
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
soversion=${version%%.*}
for n in libsectorccd libsectorccd_chipmunk libsectorccd_ode; do
    [ "$(readlink "$prefix/lib/$n.so")" = "$n.so.$soversion" ] || fail "$n.so is not a link to $n.so.$soversion"
    [ "$(readlink "$prefix/lib/$n.so.$soversion")" = "$n.so.$version" ] || fail "$n.so.$soversion is not a link to $n.so.$version"
    soname=$(readelf -d "$prefix/lib/$n.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$soname" = "$n.so.$soversion" ] || fail "$n.so.$version has soname '$soname'"
done
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
for pc in sectorccd sectorccd-chipmunk sectorccd-ode; do
    [ "$(pkg-config --modversion $pc)" = "$version" ] || fail "$pc.pc does not say version $version"
done

# Run a built example with no help finding the libraries: the pkg-config
# builds carry the prefix in their run path, CMake's their libraries' paths.
run() { # run PROGRAM SHARED(1/0)
    local prog=$1 shared=$2 libs
    [ -x "$prog" ] || fail "$prog was not built"
    libs=$(env -u LD_LIBRARY_PATH ldd "$prog")
    if [ "$shared" = 1 ]; then
        grep -q "=> $prefix/lib/libsectorccd.so.$soversion " <<<"$libs" ||
            fail "$prog does not load $prefix/lib/libsectorccd.so.$soversion"
    elif grep -q libsectorccd <<<"$libs"; then
        fail "$prog (static build) loads a shared libsectorccd"
    fi
    env -u LD_LIBRARY_PATH "$prog" >"$prog.out" 2>&1 || { cat "$prog.out"; fail "$prog exited non-zero"; }
    echo "  ${prog#"$work"/}: $(grep -m1 '^with sectorccd' "$prog.out" | sed 's/  */ /g')"
}

cmake_quiet() { # cmake ARGS..., output kept in a log
    local log=$1
    shift
    cmake "$@" >"$log" 2>&1 || { cat "$log"; fail "cmake $*"; }
}

for ex in $examples; do
    src=$root/examples/$ex
    # pkg-config, out of tree, warnings as errors in both languages
    out=$work/$ex-pkgconfig
    mkdir -p "$out"
    step "$ex: pkg-config build (C and C++)"
    $MAKE --no-print-directory -C "$out" -f "$src/Makefile" \
        CFLAGS="-O2 -Wall -Wextra -Wpedantic -Werror" CXXFLAGS="-O2 -Wall -Wextra -Wpedantic -Werror" \
        >"$out/build.log" 2>&1 || { cat "$out/build.log"; fail "$ex: pkg-config build"; }
    run "$out/$ex" 1
    run "$out/${ex}_cxx" 1

    # CMake: shared, then static
    for kind in shared static; do
        out=$work/$ex-cmake-$kind
        step "$ex: CMake build, $kind libraries (C and C++)"
        static=OFF
        [ "$kind" = static ] && static=ON
        cmake_quiet "$work/$ex-cmake-$kind.log" -S "$src" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" \
            -DCMAKE_BUILD_TYPE=Release -DSECTORCCD_USE_STATIC_LIBS=$static \
            -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror"
        cmake_quiet "$work/$ex-cmake-$kind-build.log" --build "$out" -j 2
        shared=1
        [ "$kind" = static ] && shared=0
        run "$out/$ex" $shared
        run "$out/${ex}_cxx" $shared
    done
done

# README.md quotes the examples: each ```c block after a line
# "<!-- quoted from examples/X -->" has every line (but blank ones and
# "/* ... */") in that file, spaces at either end aside. A changed example
# fails here until README follows.
step "README.md quotes the examples and their output"
awk '
    /^<!-- quoted from / { file = $4; next }
    file != "" && /^```c/ { inblock = 1; ++blocks; next }
    inblock && /^```/ { inblock = 0; file = ""; next }
    inblock { print file "\t" $0 }
    END { if (blocks < 2) print "-\tfewer than two quoted blocks" }
' README.md >"$work/quoted.tsv"
bad=0
while IFS=$'\t' read -r file line; do
    [ "$file" = "-" ] && { echo "  README.md: $line" >&2; bad=1; continue; }
    trimmed=$(echo "$line" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
    case "$trimmed" in "" | "/* ... */") continue ;; esac
    # (grep reads a file: grep -q on a pipe stops early, and pipefail takes sed's SIGPIPE as a failure)
    sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$file" >"$work/trimmed.txt"
    if ! grep -qxF -- "$trimmed" "$work/trimmed.txt"; then
        echo "  README.md quotes a line $file does not have: $trimmed" >&2
        bad=1
    fi
done <"$work/quoted.tsv"
# and each ``` block after "<!-- output of examples/X/NAME.c -->" is what
# the C build of NAME printed, up to each line's first " (" (the numbers
# after it may move with the solver; the verdict may not).
awk '
    /^<!-- output of / { file = $4; next }
    file != "" && /^```/ && !inblock { inblock = 1; next }
    inblock && /^```/ { inblock = 0; file = ""; next }
    inblock { print file "\t" $0 }
' README.md >"$work/outputs.tsv"
while IFS=$'\t' read -r file line; do
    name=$(basename "$file" .c)
    verdict=${line%% (*}
    if ! grep -qF -- "$verdict" "$work/$name-pkgconfig/$name.out"; then
        echo "  README.md shows output $name does not print: $verdict" >&2
        bad=1
    fi
done <"$work/outputs.tsv"
[ "$(wc -l <"$work/outputs.tsv")" -ge 4 ] || { echo "  README.md: fewer than 4 output lines quoted" >&2; bad=1; }
[ "$bad" = 0 ] || fail "README.md's quotes of examples/"

# uninstall removes every file install put there (directories shared with
# other packages, such as lib/pkgconfig, may stay).
step "make uninstall"
$MAKE --no-print-directory BUILD="$BUILD" uninstall PREFIX="$prefix" >"$work/uninstall.log" 2>&1 ||
    { cat "$work/uninstall.log"; fail "make uninstall"; }
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
step "make install/uninstall DESTDIR=… PREFIX=/usr/local"
stage=$work/stage
$MAKE --no-print-directory BUILD="$BUILD" install DESTDIR="$stage" PREFIX=/usr/local >"$work/install-destdir.log" 2>&1 ||
    { cat "$work/install-destdir.log"; fail "make install DESTDIR"; }
[ -f "$stage/usr/local/include/sectorccd/sectorccd.h" ] && [ -f "$stage/usr/local/lib/pkgconfig/sectorccd.pc" ] ||
    fail "make install DESTDIR put nothing under $stage/usr/local"
grep -q "^prefix=/usr/local$" "$stage/usr/local/lib/pkgconfig/sectorccd.pc" || fail "DESTDIR leaked into sectorccd.pc"
$MAKE --no-print-directory BUILD="$BUILD" uninstall DESTDIR="$stage" PREFIX=/usr/local >>"$work/install-destdir.log" 2>&1 ||
    fail "make uninstall DESTDIR"
left=$(find "$stage" ! -type d)
[ -z "$left" ] || fail "make uninstall DESTDIR left: $left"

echo "check-install: passed"
