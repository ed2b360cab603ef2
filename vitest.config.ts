import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Worker + Workflows tests inside the Workers runtime (real D1, R2 and Workflows via Miniflare).
// The render tier is the one thing stubbed here (test/helpers/fake-render-tier.ts); its real code
// is tested in plain Node (containers/render/test) and end to end (test/e2e).
export default defineConfig(async () => {
	const migrations = await readD1Migrations("./migrations");
	return {
		plugins: [
			cloudflareTest({
				main: "./src/worker/index.ts",
				wrangler: { configPath: "./wrangler.toml", environment: "local" },
				miniflare: {
					bindings: {
						TEST_MIGRATIONS: migrations,
						RENDER_URL: "http://render.test",
						INTERNAL_BASE_URL: "http://clipforge.test",
						// Hung render jobs are detected in 1 s here (60 s in the real config).
						RENDER_IDLE_TIMEOUT_SECONDS: "1",
					},
				},
			}),
		],
		test: {
			include: ["test/{integration,workflows,unit}/**/*.test.ts"],
			setupFiles: ["./test/setup/apply-migrations.ts"],
			testTimeout: 30_000,
		},
	};
});
