import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The project's wrangler entry point, run with this Node (npm scripts make it v22, as wrangler needs). */
export const WRANGLER_BIN = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

export const QUIET_WRANGLER_ENV = {
	...process.env,
	WRANGLER_SEND_METRICS: "false",
	CLOUDFLARE_CF_FETCH_ENABLED: "false",
	CI: "true",
};

/**
 * Runs a wrangler command to completion. Its output (banners, tables, and the warning that
 * `env.local` deliberately lacks the production-only containers and AI bindings) is shown only
 * when it fails, on stderr, so `make up` and `make demo` print what a user needs and stdout stays clean.
 */
export function runWrangler(args: string[], cwd?: string): void {
	const result = spawnSync(process.execPath, [WRANGLER_BIN, ...args], {
		// Where wrangler.toml (and the migrations it names) are read: this checkout's, unless another build's.
		cwd,
		stdio: ["ignore", "pipe", "pipe"],
		env: QUIET_WRANGLER_ENV,
		encoding: "utf8",
	});
	if (result.status !== 0) {
		process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
		console.error(`wrangler ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
		process.exit(1);
	}
}

/** `wrangler d1 execute` on the local stack's D1 kept under `persistTo`; the statement's flags follow. */
export function localD1Execute(persistTo: string): string[] {
	return ["d1", "execute", "DB", "--local", "--env", "local", "--persist-to", persistTo];
}
