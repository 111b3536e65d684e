#!/usr/bin/env bash
# `make demo`: runs every demo that exists (headless; pictures in $BUILD/demo)
# and says what is still coming. Never fails the build: a demo that fails is
# reported, and the script goes on.
set -u
BUILD=${BUILD:-build}
out="$BUILD/demo"
mkdir -p "$out"
ran=0
for d in chipmunk_demo ode_demo sccd-showcase; do
    if [ -x "$BUILD/bin/$d" ]; then
        echo "== $d"
        "$BUILD/bin/$d" --out "$out" || echo "demo: $d exited with status $? (see above)"
        ran=$((ran + 1))
    fi
done
[ -x "$BUILD/bin/chipmunk_demo" ] || echo "Coming: the Chipmunk2D demo (chipmunk_demo/: sword vs thin wall, bat vs ball, blade vs pellets, sword clash)."
[ -x "$BUILD/bin/ode_demo" ] || echo "Coming: the ODE demo (ode_demo/: bat vs baseball, sword vs thin plates, rotor vs falling spheres, sword clash)."
[ "$ran" -gt 0 ] && echo "demo: pictures and CSV in $out/"
exit 0
