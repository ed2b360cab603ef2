// The tests' extra binding (vitest.config.ts), on both names of the generated Env so they stay one type.
declare namespace Cloudflare {
	interface Env {
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
		/** The generated Workers AI catalogue (scripts/ai-catalogue.ts), for the AI binding's stand-ins. */
		AI_CATALOGUE: { models: string[]; jsonMode: Record<string, "workers-ai" | "chat-completions"> };
	}
}
interface Env {
	TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
	AI_CATALOGUE: { models: string[]; jsonMode: Record<string, "workers-ai" | "chat-completions"> };
}

// Vite's raw imports (a file's text), for tests that read the project's configuration.
declare module "*?raw" {
	const text: string;
	export default text;
}
