#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end suite in shards run at once (E2E_SHARDS, default 2), each a
# vitest run with its own local stack on free ports (test/e2e/global-setup.ts). One file at a time
# mostly waits on one video's pipeline and keeps about 1.4 of two cores busy; two halves at once
# fill them. Arguments go to every vitest run (a file name narrows it; a shard with none of it says so).
set -u
shards="${E2E_SHARDS:-2}"
pids=()
for n in $(seq 1 "$shards"); do
	(
		set -o pipefail
		npx vitest run --config test/e2e/vitest.config.ts --shard="$n/$shards" --passWithNoTests "$@" 2>&1 |
			sed -u "s|^|[e2e $n/$shards] |"
	) &
	pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"
