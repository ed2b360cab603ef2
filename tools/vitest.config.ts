import { defineConfig } from "vitest/config";

// The ranking tools (rank CLI, quality corpus) in plain Node, on the Worker's own ranking code.
export default defineConfig({
	test: { root: import.meta.dirname, include: ["**/*.test.ts"], testTimeout: 60_000 },
});
