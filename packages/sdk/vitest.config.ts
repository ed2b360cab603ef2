import { defineConfig } from "vitest/config";

// The SDK and CLI in plain Node: the client against a scripted fetch (retries, errors, polling).
// Against the real stack they are tested in test/e2e/sdk-cli.e2e.test.ts.
export default defineConfig({
	test: { root: import.meta.dirname, include: ["test/**/*.test.ts"], testTimeout: 30_000 },
});
