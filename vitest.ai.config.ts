import { randomBytes } from "node:crypto";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { readAiCatalogue } from "./scripts/ai-catalogue.ts";
import { hidePlatformLimitLines } from "./test/setup/platform-limits-reporter.ts";

// The production transcriber (TRANSCRIBER=workers-ai) inside the Workers runtime: the same Worker,
// D1, R2 and Workflows as vitest.config.ts, with the AI binding played by a stub worker
// (test/workers-ai/ai-stub.mjs) reached over an RPC service binding with the binding's own
// `run(model, input)` method. Workers AI needs a Cloudflare account, so this is the only way to run the
// workflow against its failures here.
export default defineConfig(async () => {
	const migrations = await readD1Migrations("./migrations");
	// The model catalogue of the generated types: the stub refuses what Workers AI would.
	const AI_CATALOGUE = readAiCatalogue();
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
						RENDER_IDLE_TIMEOUT_SECONDS: "1",
						// More chunks at once than a run's slots admit Whisper calls (lib/outgoing-slots.ts: 5), so
						// the tests see the slots, not the plan, bound them (test/workers-ai/outgoing-slots.test.ts).
						TRANSCRIBE_PARALLELISM: "16",
						TRANSCRIBER: "workers-ai",
						AI_CATALOGUE,
						// One LLM call's retries on capacity errors, without the production pauses.
						LLM_RETRY_DELAYS_MS: "5,5,5",
					},
					// An RPC service binding: `env.AI.run(model, input)` reaches the stub's `run`, as on the real binding.
					serviceBindings: { AI: { name: "workers-ai-stub" } },
					workers: [
						{
							name: "workers-ai-stub",
							modulesRoot: "./test/workers-ai",
							modules: [
								{ type: "ESModule", path: "./test/workers-ai/ai-stub.mjs" },
								{ type: "ESModule", path: "./test/workers-ai/ai-fidelity.mjs" },
							],
							compatibilityDate: "2025-11-01",
							bindings: { AI_CATALOGUE },
						},
					],
				},
			}),
		],
		test: {
			include: ["test/workers-ai/**/*.test.ts"],
			// D1's and Workflows' limits, which Miniflare does not enforce, checked on every test.
			setupFiles: ["./test/setup/apply-migrations.ts", "./test/setup/platform-guard.ts"],
			reporters: ["default", "./test/setup/platform-limits-reporter.ts"],
			onConsoleLog: hidePlatformLimitLines,
			testTimeout: 30_000,
			// The fake tier's set-up and tear-down hooks took over vitest's 10 s default on a loaded machine.
			hookTimeout: 30_000,
		},
	};
});
