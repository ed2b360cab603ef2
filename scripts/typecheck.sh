#!/usr/bin/env bash
# `npm run typecheck`: tsc strict over every folder's tsconfig, as many at once as the machine has
# cores (TYPECHECK_JOBS): each tsc is a single thread, and one after another they took two minutes.
# The largest projects go first so the last one to start is short.
set -uo pipefail
projects=(
	test/tsconfig.json
	tsconfig.json
	tools/tsconfig.json
	test/e2e/tsconfig.json
	scripts/tsconfig.json
	containers/render/tsconfig.json
	packages/sdk/tsconfig.json
	src/dashboard/tsconfig.json
	packages/contract/tsconfig.json
	packages/domain/tsconfig.json
)
jobs="${TYPECHECK_JOBS:-$(nproc)}"
# xargs exits non-zero when any tsc does; each names its project on failure.
printf '%s\n' "${projects[@]}" |
	xargs -P "$jobs" -I{} sh -c 'npx tsc -p "$1" --noEmit || { echo "tsc -p $1: errors above" >&2; exit 1; }' _ {}
