/**
 * The benchmarks' and the soak's reads of the local stack's D1 (the SQLite files `wrangler dev`
 * writes), with `wrangler d1 execute --local --json`: what the workflow recorded (video_steps), the
 * videos' rows and the minutes ledger. Every SQL statement of tools/ is here, as in the Worker's db/.
 */
import { spawnSync } from "node:child_process";
import { localD1Execute, QUIET_WRANGLER_ENV, WRANGLER_BIN } from "../../scripts/wrangler.ts";
import type { StepRow } from "../bench/timeline.ts";

/** Rows of a query on the local D1 persisted under `persistTo` (the stack's `wrangler-state`). */
function queryLocalD1<T>(persistTo: string, sql: string): T[] {
	const args = [WRANGLER_BIN, ...localD1Execute(persistTo), "--json", "--command", sql];
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
function sqlText(value: string): string {
	if (!/^[\w-]+$/.test(value)) throw new Error(`not an id: ${value}`);
	return `'${value}'`;
}

export interface VideoTimes {
	status: string;
	created_at: string;
	completed_at: string | null;
	slot_claimed_at: string | null;
}

/** A video's status and the times its row records. */
export function videoTimes(persistTo: string, id: string): VideoTimes | undefined {
	const sql = `SELECT status, created_at, completed_at, slot_claimed_at FROM videos WHERE id = ${sqlText(id)}`;
	return queryLocalD1<VideoTimes>(persistTo, sql)[0];
}

/** A video's workflow steps in the order they were recorded. */
export function videoSteps(persistTo: string, id: string): StepRow[] {
	const sql = `SELECT step, started_at, ended_at, ok FROM video_steps WHERE video_id = ${sqlText(id)} ORDER BY id`;
	return queryLocalD1<StepRow>(persistTo, sql);
}

/** When a video's first clip was rendered, or null. */
export function firstClipRendered(persistTo: string, id: string): string | null {
	const sql = `SELECT MIN(ended_at) AS ended_at FROM video_steps WHERE video_id = ${sqlText(id)} AND step LIKE 'render clip %' AND ok = 1`;
	return queryLocalD1<{ ended_at: string | null }>(persistTo, sql)[0]?.ended_at ?? null;
}

/** Every row of the minutes ledger. */
export function ledgerRows(persistTo: string) {
	const sql = "SELECT workspace_id, video_id, kind, minutes FROM minutes_ledger";
	return queryLocalD1<{ workspace_id: string; video_id: string | null; kind: string; minutes: number }>(
		persistTo,
		sql,
	);
}

/** Every video's workspace, status and charge. */
export function videoCharges(persistTo: string) {
	const sql = "SELECT id, workspace_id, status, minutes_charged FROM videos";
	return queryLocalD1<{ id: string; workspace_id: string; status: string; minutes_charged: number }>(persistTo, sql);
}
