import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { readAiCatalogue } from "./scripts/ai-catalogue.ts";
import { hidePlatformLimitLines } from "./test/setup/platform-limits-reporter.ts";

// Worker + Workflows tests inside the Workers runtime (real D1, R2 and Workflows via Miniflare).
// The render tier is the one thing stubbed here (test/helpers/fake-render-tier.ts); its real code
// is tested in plain Node (containers/render/test) and end to end (test/e2e).
export default defineConfig(async () => {
	const migrations = await readD1Migrations("./migrations");
	// This run's own secrets: never a developer's .dev.vars, never a value anyone else knows. Also in
	// process.env, where wrangler looks for the config's required secrets.
	const secrets = {
		SIGNING_SECRET: randomBytes(32).toString("base64url"),
		RENDER_SECRET: randomBytes(32).toString("base64url"),
		OPERATOR_SECRET: randomBytes(32).toString("base64url"),
	};
	Object.assign(process.env, secrets);
	return {
		plugins: [
			cloudflareTest({
				main: "./src/worker/index.ts",
				wrangler: { configPath: "./wrangler.toml", environment: "local" },
				miniflare: {
					bindings: {
						TEST_MIGRATIONS: migrations,
						...secrets,
						RENDER_URL: "http://render.test",
						INTERNAL_BASE_URL: "http://clipforge.test",
						// Hung render jobs are detected in 1 s here (60 s in the real config).
						RENDER_IDLE_TIMEOUT_SECONDS: "1",
						// The generated model catalogue, for the unit tests' stand-ins of the AI binding.
						AI_CATALOGUE: readAiCatalogue(),
						// Lost connections and a busy tier are tried again for 0.4 s here (2 and 10 minutes in the real config).
						RENDER_RECONNECT_SECONDS: "0.4",
						RENDER_BUSY_WAIT_SECONDS: "0.4",
						// Each status poll reads D1 here, so a test sees a change at once (2 s of staleness in the real config).
						STATUS_MAX_AGE_MS: "0",
						// The hostile-tenant fuzz's size and seed (`npm run fuzz:long` sets them; empty: make test's fixed run).
						FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
						FUZZ_SEED: process.env.FUZZ_SEED ?? "",
					},
				},
			}),
		],
		test: {
			include: ["test/{integration,workflows,unit}/**/*.test.ts"],
			// D1's and Workflows' limits, which Miniflare does not enforce, checked on every test.
			setupFiles: ["./test/setup/apply-migrations.ts", "./test/setup/platform-guard.ts"],
			// A real server on loopback that answers slowly (the outgoing-connection tests measure against it).
			globalSetup: ["./test/setup/slow-origin.ts"],
			reporters: ["default", "./test/setup/platform-limits-reporter.ts"],
			onConsoleLog: hidePlatformLimitLines,
			testTimeout: 30_000,
			// The fake tier's set-up and tear-down hooks took over vitest's 10 s default on a loaded machine.
			hookTimeout: 30_000,
			// Two files per core: each file's runtime set-up and the workflow tests' timers leave a core idle
			// otherwise (two-core machine, 2026-11-26: one per core 264 s with 15-20% idle, 1.5 per core
			// 223 s, two per core 206 s).
			maxWorkers: 2 * availableParallelism(),
		},
	};
});
