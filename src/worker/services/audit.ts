/**
 * The consistency audit: D1's rows, R2's objects and the minutes ledger agree. For an operator
 * (GET /internal/audit, `npm run admin -- audit`), after every chaos soak, and after a restore:
 * - every object a row names is stored: a completed clip's file and thumbnail, a video's source
 *   (until the retention purge) and transcript, a background or watermark image;
 * - no object without its row (the orphan report, services/orphans.ts);
 * - every workspace's balance equals the sum of its ledger rows; every video is charged once, as
 *   much as it says; a completed video is refunded nothing, a failed one at most its charge, one
 *   still processing nothing yet.
 * It reads and reports; it changes nothing.
 */
import { ledgerFacts, objectNamingRows, storeCounts } from "../db/audit-reads";
import { getDb, type Db } from "../db/client";
import { findOrphans, type OrphanObject } from "./orphans";

export interface AuditProblem {
	kind: "missing_object" | "balance" | "charge" | "refund";
	/** The row it is about: `clips/<id>`, `videos/<id>`, `workspaces/<id>`. */
	row: string;
	detail: string;
}

export interface AuditReport {
	clean: boolean;
	counts: { workspaces: number; videos: number; clips: number; ledgerRows: number; objects: number };
	/** Objects rows name, checked. */
	objectsNamed: number;
	problems: AuditProblem[];
	orphans: OrphanObject[];
	/** Failed videos whose charge stands (a failure the workspace caused keeps it): not a problem, listed. */
	failedKeepingCharge: string[];
}

const PROCESSING_DONE = new Set(["completed", "failed"]);

export async function auditStore(env: Pick<Env, "DB" | "MEDIA">): Promise<AuditReport> {
	const db = getDb(env);
	const orphanReport = await findOrphans(env, { minAgeMinutes: 0 });
	const problems: AuditProblem[] = [];
	const named = await namedObjects(db);
	for (const { key, row } of named) {
		if (!(await env.MEDIA.head(key)))
			problems.push({ kind: "missing_object", row, detail: `${key} is not stored` });
	}
	const ledger = await ledgerProblems(db);
	problems.push(...ledger.problems);
	const counts = await storeCounts(db);
	return {
		clean: problems.length === 0 && orphanReport.orphans.length === 0,
		counts: { ...counts, objects: orphanReport.scanned },
		objectsNamed: named.length,
		problems,
		orphans: orphanReport.orphans,
		failedKeepingCharge: ledger.failedKeepingCharge,
	};
}

/** Every R2 key a row names and expects stored now. */
async function namedObjects(db: Db): Promise<{ key: string; row: string }[]> {
	const { clipRows, videoRows, backgroundRows, workspaceRows } = await objectNamingRows(db);
	const named: { key: string; row: string }[] = [];
	for (const clip of clipRows) {
		if (clip.status !== "completed") continue;
		for (const key of [clip.videoKey, clip.thumbnailKey]) if (key) named.push({ key, row: `clips/${clip.id}` });
	}
	for (const video of videoRows) {
		if (video.status !== "completed") continue;
		if (video.sourceKey && !video.sourcePurgedAt) named.push({ key: video.sourceKey, row: `videos/${video.id}` });
		if (video.transcriptKey) named.push({ key: video.transcriptKey, row: `videos/${video.id}` });
	}
	for (const b of backgroundRows) if (b.key) named.push({ key: b.key, row: `backgrounds/${b.id}` });
	for (const w of workspaceRows) if (w.key) named.push({ key: w.key, row: `workspaces/${w.id}` });
	return named;
}

async function ledgerProblems(db: Db): Promise<{ problems: AuditProblem[]; failedKeepingCharge: string[] }> {
	const { balances, sums, movements, videoRows } = await ledgerFacts(db);
	const sumOf = new Map(sums.map((s) => [s.workspaceId, s.sum]));
	const problems: AuditProblem[] = balances.flatMap((w) => {
		const sum = sumOf.get(w.id) ?? 0;
		return w.balance === sum
			? []
			: [
					{
						kind: "balance" as const,
						row: `workspaces/${w.id}`,
						detail: `balance ${w.balance} ≠ ledger sum ${sum}`,
					},
				];
	});
	const failedKeepingCharge: string[] = [];
	const moved = (videoId: string, kind: string) => movements.find((m) => m.videoId === videoId && m.kind === kind);
	for (const v of videoRows) {
		const charge = moved(v.id, "charge");
		const found = videoLedgerProblems(
			v,
			{ rows: charge?.rows ?? 0, sum: -(charge?.sum ?? 0) },
			moved(v.id, "refund")?.sum ?? 0,
		);
		if (found.keepsCharge) failedKeepingCharge.push(v.id);
		problems.push(...found.problems);
	}
	return { problems, failedKeepingCharge };
}

/** One video's ledger against its row: charged once, as much as it says; refunded by its status's rule. */
function videoLedgerProblems(
	v: { id: string; status: string; charged: number },
	charge: { rows: number; sum: number },
	refunded: number,
): { problems: AuditProblem[]; keepsCharge: boolean } {
	const row = `videos/${v.id}`;
	const problems: AuditProblem[] = [];
	if (charge.rows !== 1 || charge.sum !== v.charged)
		problems.push({
			kind: "charge",
			row,
			detail: `charged ${charge.sum} in ${charge.rows} row(s), says ${v.charged}`,
		});
	if (v.status === "failed" && refunded > charge.sum)
		problems.push({ kind: "refund", row, detail: `refunded ${refunded}, more than its charge ${charge.sum}` });
	else if (v.status === "failed" && refunded < charge.sum) return { problems, keepsCharge: true };
	else if (v.status !== "failed" && refunded !== 0)
		problems.push({
			kind: "refund",
			row,
			detail: `${PROCESSING_DONE.has(v.status) ? "completed" : `still ${v.status}`} but refunded ${refunded}`,
		});
	return { problems, keepsCharge: false };
}
