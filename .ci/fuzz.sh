#!/usr/bin/env bash
# Runs every Fuzz* target briefly (FUZZTIME, default 5s each).
#
# A failing target prints its whole output. A crasher's input is kept by
# `go test` under the package's testdata/fuzz/<Target>/, where it becomes a
# regular test case of `go test ./...`: commit it with the fix. On a
# loaded machine the fuzzing engine itself sometimes gives up without
# finding anything: a worker it thinks hung, or "context deadline exceeded"
# at the end of a -fuzztime given as a duration, a race in Go 1.26's fuzzing
# coordinator (go.dev/issue/75804, fixed in Go 1.27). Such a failure, which
# leaves no new input behind, is tried once more with one worker and a
# budget counted in executions (FUZZRETRY, default 20000x), which has no
# deadline to race, before it counts.
set -uo pipefail
t=${FUZZTIME:-5s}
retry=${FUZZRETRY:-20000x}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz $pkg $f ($t)"
    corpus="$dir/testdata/fuzz/$f"
    before=$(ls "$corpus" 2>/dev/null | wc -l)
    if go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" "$pkg" >"$out" 2>&1; then
      continue
    fi
    after=$(ls "$corpus" 2>/dev/null | wc -l)
    if [ "$after" -eq "$before" ]; then
      echo "  $f stopped without a crasher; trying again with one worker for $retry:"
      sed 's/^/  | /' "$out" | tail -n 20
      if go test -run '^$' -fuzz "^$f\$" -fuzztime "$retry" -parallel 1 "$pkg" >"$out" 2>&1; then
        continue
      fi
    fi
    echo "FAIL: fuzz $pkg $f"
    cat "$out"
    if [ -d "$corpus" ]; then
      echo "inputs kept under ${corpus#"$PWD/"} (they now run as regular tests):"
      ls "$corpus"
    fi
    failed=1
  done
done
exit $failed
