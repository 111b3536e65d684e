#!/usr/bin/env bash
# Fetches the scanned meshes the benchmarks use into build/meshes/ (quick when
# they are there). The Stanford bunny comes from the npm package `bunny`
# (positions + cells, 1,839 vertices, 3,674 triangles; this version is closed),
# converted to OBJ. Never fails the build: without npm or the network it says
# so and the benchmarks run on the generated meshes only.
#
#   scripts/fetch_meshes.sh        (make bench calls it; npm comes from deps.sh --bench)
set -u
BUILD=${BUILD:-build}
obj="$BUILD/meshes/bunny.obj"
[ -s "$obj" ] && exit 0
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "fetch_meshes: npm/node missing (scripts/deps.sh --bench installs them); no bunny" >&2
    exit 0
fi
mkdir -p "$BUILD/npm" "$BUILD/meshes"
if ! npm install --silent --no-audit --no-fund --prefix "$BUILD/npm" bunny@1.0.1 >/dev/null; then
    echo "fetch_meshes: npm install bunny@1.0.1 failed; no bunny" >&2
    exit 0
fi
# OBJ indices are 1-based; cells are 0-based.
NODE_PATH="$BUILD/npm/node_modules" node -e '
const b = require("bunny"), out = [];
out.push("# Stanford bunny, npm package bunny@1.0.1");
for (const p of b.positions) out.push("v " + p.join(" "));
for (const c of b.cells) out.push("f " + c.map(i => i + 1).join(" "));
require("fs").writeFileSync(process.argv[1] + ".tmp", out.join("\n") + "\n");
' "$obj" && mv "$obj.tmp" "$obj" && echo "fetch_meshes: wrote $obj"
