// The tests' extra binding (vitest.config.ts), on both names of the generated Env so they stay one type.
declare namespace Cloudflare {
	interface Env {
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
		/** The generated Workers AI catalogue (scripts/ai-catalogue.ts), for the AI binding's stand-ins. */
		AI_CATALOGUE: { models: string[]; jsonMode: Record<string, "workers-ai" | "chat-completions"> };
		/** The hostile-tenant fuzz's number of requests and seed (empty: its defaults). */
		FUZZ_RUNS: string;
		FUZZ_SEED: string;
	}
}
interface Env {
	TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
	AI_CATALOGUE: { models: string[]; jsonMode: Record<string, "workers-ai" | "chat-completions"> };
	FUZZ_RUNS: string;
	FUZZ_SEED: string;
}

// Vite's raw imports (a file's text), for tests that read the project's configuration.
declare module "*?raw" {
	const text: string;
	export default text;
}
