#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end suite in shards run at once (E2E_SHARDS, default 2), each a
# vitest run with its own local stack on free ports (test/e2e/global-setup.ts). One file at a time
# mostly waits on one video's pipeline and keeps about 1.4 of two cores busy; two halves at once
# fill them. The files are dealt to the shards by their usual length (scripts/e2e-shards.ts), so
# the shards end together. Arguments (a file name) narrow it to one vitest run.
set -u
if [ "$#" -gt 0 ]; then
	exec npx vitest run --config test/e2e/vitest.config.ts "$@"
fi
shards="${E2E_SHARDS:-2}"
pids=()
n=0
while IFS= read -r files; do
	n=$((n + 1))
	(
		set -o pipefail
		E2E_FILES="$files" npx vitest run --config test/e2e/vitest.config.ts 2>&1 | sed -u "s|^|[e2e $n/$shards] |"
	) &
	pids+=("$!")
done < <(node scripts/e2e-shards.ts "$shards")
# A planner that printed nothing (it failed, or found no files) must not pass for a green run.
if [ "$n" -eq 0 ]; then
	echo "test:e2e: no end-to-end files were dealt to shards (scripts/e2e-shards.ts)" >&2
	exit 1
fi
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"
