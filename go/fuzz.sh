#!/usr/bin/env bash
# Runs each Go fuzz target for a bounded time, one after the other (the machine has
# two cores). A crasher is written to tool/testdata/fuzz/<Target>/ and from then on
# runs as a regression case of plain `go test`; commit it with the fix.
#
#   FUZZTIME=30s ./fuzz.sh          (default 30s per target)
set -euo pipefail
cd "$(dirname "$0")"
FUZZTIME="${FUZZTIME:-30s}"
status=0
for target in FuzzValidateJSON FuzzCall; do
	echo "== go test -fuzz=^${target}\$ -fuzztime=${FUZZTIME} ./tool"
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "${FUZZTIME}" ./tool; then
		echo "fuzz.sh: ${target} failed; the crasher is in go/tool/testdata/fuzz/${target}/" >&2
		status=1
	fi
done
exit "$status"
