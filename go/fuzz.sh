#!/usr/bin/env bash
# Runs each Go fuzz target for a bounded number of executions, one after the other (the
# machine has two cores). A crasher is written to tool/testdata/fuzz/<Target>/ and from
# then on runs as a regression case of `go test -tags toolgate_checkout`; commit it with
# the fix.
#
#   FUZZTIME=400000x ./fuzz.sh      (default: 400,000 inputs per target, ~20 s here)
#
# A count, not a duration: with a duration, Go before 1.27 can fail a target with a bare
# "context deadline exceeded" (no crasher written) when the deadline races a worker's
# shutdown (golang/go#75804, fixed in Go 1.27). A count has no deadline to race, so a
# failure here is always a real finding.
set -euo pipefail
cd "$(dirname "$0")"
FUZZTIME="${FUZZTIME:-400000x}"
status=0
for target in FuzzValidateJSON FuzzCall FuzzStream; do
	echo "== go test -tags toolgate_checkout -fuzz=^${target}\$ -fuzztime=${FUZZTIME} ./tool"
	if ! go test -tags toolgate_checkout -run '^$' -fuzz "^${target}\$" -fuzztime "${FUZZTIME}" ./tool; then
		echo "fuzz.sh: ${target} failed; the crasher is in go/tool/testdata/fuzz/${target}/" >&2
		status=1
	fi
done
exit "$status"
