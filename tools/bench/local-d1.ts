/**
 * Reads the local stack's D1 (the same SQLite files `wrangler dev` writes) with `wrangler d1
 * execute --local --json`, for benchmarks that need what the workflow recorded (video_steps).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { localD1Execute, QUIET_WRANGLER_ENV, WRANGLER_BIN } from "../../scripts/wrangler.ts";

export function queryLocalD1<T>(stateDir: string, sql: string): T[] {
	const args = [WRANGLER_BIN, ...localD1Execute(join(stateDir, "wrangler-state")), "--json", "--command", sql];
	const result = spawnSync(process.execPath, args, {
		encoding: "utf8",
		env: QUIET_WRANGLER_ENV,
		maxBuffer: 64 << 20,
	});
	if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr || result.stdout}`);
	const parsed = JSON.parse(result.stdout) as { results: T[] }[];
	return parsed.flatMap((r) => r.results);
}

/** A string as an SQL literal (bench ids only: letters, digits, `_`, `-`). */
export function sqlText(value: string): string {
	if (!/^[\w-]+$/.test(value)) throw new Error(`not an id: ${value}`);
	return `'${value}'`;
}
