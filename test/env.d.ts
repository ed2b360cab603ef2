// The tests' extra binding (vitest.config.ts), on both names of the generated Env so they stay one type.
declare namespace Cloudflare {
	interface Env {
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
	}
}
interface Env {
	TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
}

// Vite's raw imports (a file's text), for tests that read the project's configuration.
declare module "*?raw" {
	const text: string;
	export default text;
}
