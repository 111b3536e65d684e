#!/usr/bin/env bash
# Runs each test program given, prints its cmocka summary, and a total.
# Exits non-zero when any program fails; every program runs regardless.
set -u
failed=()
passed=0
for t in "$@"; do
    name=$(basename "$t")
    echo "== $name"
    if "$t"; then
        passed=$((passed + 1))
    else
        failed+=("$name")
    fi
done
echo
echo "programs: $passed passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
