# clipforge: the two commands a newcomer needs are `make demo` and `make test` (see README.md).
# npm scripts run on the Node 22 that `npm ci` installs (wrangler needs it), whatever Node the machine has.
export WRANGLER_SEND_METRICS := false
export CLOUDFLARE_CF_FETCH_ENABLED := false

.PHONY: install install-test-deps demo up down test checks lint typecheck types-check deploy-check test-contract test-worker test-worker-runtime test-worker-ai test-render test-tools test-sdk test-e2e test-soak test-e2e-and-soak test-soak-then-restore-drill test-restore-drill test-deploy-drill test-node-suites test-worker-and-node-suites test-ai-then-node-suites

install:
	@bash scripts/install-deps.sh

install-test-deps:
	@bash scripts/install-deps.sh --for-tests

## Starts the stack, processes a generated sample video, writes the clips to demo-output/.
demo: install
	@npm run -s demo

## Starts the stack in the background and prints CLIPFORGE_URL and CLIPFORGE_API_KEY.
up: install
	@npm run -s stack -- up

down:
	@npm run -s stack -- down

## Generated types in sync (bindings, the SDK's OpenAPI document, docs/limits.md's measured figures), lint, strict type-check, the production deploy's dry run, then every test suite, then the end-to-end suite beside the short chaos soak and the restore drill.
test: install-test-deps checks test-worker-and-node-suites test-render test-e2e-and-soak

## The static checks two at a time (each is mostly one single-threaded process); each one's output is printed whole when it ends.
checks:
	@$(MAKE) --no-print-directory -j2 --output-sync=target types-check lint typecheck deploy-check

## The contract's, the tools' and the SDK's suites at once (plain Node, small, each mostly one process); each one's output printed whole when it ends.
test-node-suites:
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-contract test-tools test-sdk

## The end-to-end shards and the short soak at once: both mostly wait on videos in their own stacks. Their lines interleave as they come, each carrying "[e2e n/m]" or "[soak …]".
test-e2e-and-soak:
	@$(MAKE) --no-print-directory -j2 --output-sync=none test-e2e test-soak-then-restore-drill

## The short soak, then the restore drill, then the short mid-run deploy drill: one after the other (each starts
## stacks of its own), together shorter than the end-to-end suite they run beside.
test-soak-then-restore-drill:
	@$(MAKE) --no-print-directory test-soak
	@$(MAKE) --no-print-directory test-restore-drill
	@$(MAKE) --no-print-directory test-deploy-drill

types-check:
	@npx wrangler types --env-interface Env --strict-vars=false --check
	@npm run -s sdk:types -- --check
	@npm run -s limits:report -- --check

## ESLint and the structure rules (`check-structure.ts`: layers, no import back up inside a runtime, no cycles,
## functions <= 50 lines, files <= 400 lines, SQL only in db/; ARCHITECTURE.md "The rules the build enforces"),
## then the formatter's check (Prettier; `npm run format` fixes what it reports).
lint:
	@npm run -s lint
	@npm run -s format:check

typecheck:
	@npm run -s typecheck

## wrangler deploy --dry-run of the production config: bindings, bundle size budget, startup time; then no change that breaks Workflow instances running through a deploy (scripts/check-workflow-compat.ts).
deploy-check:
	@npm run -s deploy:check
	@npm run -s check:workflows

test-contract:
	@npm run -s test:contract

## The Workers-runtime suite and its run with the production transcriber at once: the main run leaves
## part of a core idle (each file's runtime set-up), which the smaller run fills (two-core machine,
## 2026-11-27: 294 s at once against 293 s + 44 s one after the other).
test-worker:
	@npm run -s build:dashboard
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-worker-runtime test-worker-ai

## test-worker, with the small Node suites after the production-transcriber run, in the part of a core the main run
## leaves idle (two-core machine, 2026-11-27: the Workers-runtime suite alone keeps 1.75 of two cores busy).
test-worker-and-node-suites:
	@npm run -s build:dashboard
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-worker-runtime test-ai-then-node-suites

test-ai-then-node-suites:
	@$(MAKE) --no-print-directory -j1 --output-sync=target test-worker-ai test-node-suites

test-worker-runtime:
	@npm run -s test:worker-runtime

test-worker-ai:
	@npm run -s test:worker-ai

test-render:
	@npm run -s test:render

test-tools:
	@npm run -s test:tools

test-sdk:
	@npm run -s test:sdk

test-e2e:
	@npm run -s test:e2e

## The chaos soak in its short mode (under 3 minutes): tier kills, broken connections, a Worker restart, and every
## dependency failing (D1, R2, Workers AI's stand-in, the tier drained, its disk full when run as root).
test-soak:
	@npm run -s soak -- --short --faults all

## A deploy while videos are in flight (about 90 s): tools/soak/deploy-drill.ts.
test-deploy-drill:
	@npm run -s drill:deploy -- --short

## Backup, loss and restore of a local stack with one processed video (about 90 s): tools/soak/restore-drill.ts.
test-restore-drill:
	@npm run -s drill:restore
