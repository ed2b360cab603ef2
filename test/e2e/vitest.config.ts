import { defineConfig } from "vitest/config";

// End to end over HTTP in plain Node: its own stack (render tier + wrangler dev) on free ports with
// its own state folder, so it never touches `make up`'s.
export default defineConfig({
	test: {
		root: import.meta.dirname,
		// scripts/test-e2e.sh deals the files to shards by their usual length and names each shard's here
		// (vitest's file filters match by substring: "reprocess.e2e" would also run dashboard-reprocess).
		include: process.env.E2E_FILES?.split(" ").filter(Boolean) ?? ["**/*.e2e.test.ts"],
		globalSetup: ["./global-setup.ts"],
		testTimeout: 10 * 60_000,
		// One file at a time: they share one stack, two cores and one key's read limit.
		fileParallelism: false,
		hookTimeout: 3 * 60_000,
		// A browser's answer to a click (a PATCH, then a redraw) can take seconds on a loaded 2-core CI
		// machine; vitest's 1 s default failed a favourite toggle there once.
		expect: { poll: { timeout: 15_000, interval: 100 } },
	},
});
