import { defineConfig } from "vitest/config";

// The contract in plain Node: the job table and the streamed job protocol, without either side.
export default defineConfig({
	test: { root: import.meta.dirname, include: ["test/**/*.test.ts"] },
});
