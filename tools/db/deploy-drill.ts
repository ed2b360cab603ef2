/**
 * The mid-run deploy drill's SQL (tools/soak/deploy-drill.ts): the additive migration its build B
 * adds, and the reads that show B's migration and B's new step reached the store.
 */
import { spawnSync } from "node:child_process";
import { localD1Execute, QUIET_WRANGLER_ENV, WRANGLER_BIN } from "../../scripts/wrangler.ts";

/** Build B's migration: a nullable column, as a deploy while instances run may add (docs/reliability.md). */
export const BUILD_B_MIGRATION =
	"-- The deploy drill's build B: an additive change.\nALTER TABLE `videos` ADD `drill_build` text;\n";

function query<T>(persistTo: string, sql: string): T[] {
	const args = [WRANGLER_BIN, ...localD1Execute(persistTo), "--json", "--command", sql];
	const result = spawnSync(process.execPath, args, { encoding: "utf8", env: QUIET_WRANGLER_ENV });
	if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr || result.stdout}`);
	return (JSON.parse(result.stdout) as { results: T[] }[]).flatMap((r) => r.results);
}

/** Whether build B's column is in the store (its migration applied). */
export function hasDrillColumn(persistTo: string): boolean {
	return query<{ name: string }>(persistTo, "SELECT name FROM pragma_table_info('videos')").some(
		(c) => c.name === "drill_build",
	);
}

/** The videos that ran the step named `step` (video_steps: a row for each step that ran, not for one replayed). */
export function videosThatRan(persistTo: string, step: string): string[] {
	if (!/^[\w :-]+$/.test(step)) throw new Error(`not a drill step name: ${step}`);
	const sql = `SELECT DISTINCT video_id FROM video_steps WHERE step = '${step}'`;
	return query<{ video_id: string }>(persistTo, sql).map((r) => r.video_id);
}
