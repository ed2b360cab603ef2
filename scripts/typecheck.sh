#!/usr/bin/env bash
# `npm run typecheck`: tsc strict over every folder's tsconfig, as many at once as the machine has
# cores (TYPECHECK_JOBS). The checker is TypeScript 7, the native compiler (the `typescript-7` alias):
# the ten projects (eleven since packages/moments) cost 41 s of CPU instead of 5.9's 124 s
# (two-core machine, 2026-11-27; 68 s of make test's wall time became about 20). TypeScript 5.9
# stays installed as `typescript` for typescript-eslint and openapi-typescript, which call its
# JavaScript API. The largest projects go first so the last one to start is short.
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
	packages/moments/tsconfig.json
	packages/domain/tsconfig.json
)
jobs="${TYPECHECK_JOBS:-$(nproc)}"
# xargs exits non-zero when any tsc does; each names its project on failure.
printf '%s\n' "${projects[@]}" |
	xargs -P "$jobs" -I{} sh -c 'node node_modules/typescript-7/bin/tsc -p "$1" --noEmit || { echo "tsc -p $1: errors above" >&2; exit 1; }' _ {}
