import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The project's wrangler entry point, run with this Node (npm scripts make it v22, as wrangler needs). */
export const WRANGLER_BIN = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

export const QUIET_WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

/** Runs a wrangler command to completion; its output goes to stderr so stdout stays clean. */
export function runWrangler(args: string[]): void {
	const result = spawnSync(process.execPath, [WRANGLER_BIN, ...args], { stdio: ["ignore", 2, 2], env: QUIET_WRANGLER_ENV });
	if (result.status !== 0) {
		console.error(`wrangler ${args.join(" ")} failed (exit ${result.status})`);
		process.exit(1);
	}
}
