#!/usr/bin/env bash
# Runs every Fuzz* target briefly (FUZZTIME, default 5s each).
set -euo pipefail
t=${FUZZTIME:-5s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz $pkg $f ($t)"
    go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg" >/dev/null
  done
done
