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
import { sql } from "drizzle-orm";
import { getDb, type Db } from "../db/client";
import { backgrounds, clips, minutesLedger, videos, workspaces } from "../db/schema";
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
	const [counts] = await db
		.select({
			workspaces: sql<number>`(SELECT COUNT(*) FROM ${workspaces})`,
			videos: sql<number>`(SELECT COUNT(*) FROM ${videos})`,
			clips: sql<number>`(SELECT COUNT(*) FROM ${clips})`,
			ledgerRows: sql<number>`(SELECT COUNT(*) FROM ${minutesLedger})`,
		})
		.from(sql`(SELECT 1)`)
		.all();
	return {
		clean: problems.length === 0 && orphanReport.orphans.length === 0,
		counts: { ...counts!, objects: orphanReport.scanned },
		objectsNamed: named.length,
		problems,
		orphans: orphanReport.orphans,
		failedKeepingCharge: ledger.failedKeepingCharge,
	};
}

/** Every R2 key a row names and expects stored now. */
async function namedObjects(db: Db): Promise<{ key: string; row: string }[]> {
	const [clipRows, videoRows, backgroundRows, workspaceRows] = await Promise.all([
		db
			.select({ id: clips.id, videoKey: clips.videoKey, thumbnailKey: clips.thumbnailKey, status: clips.status })
			.from(clips)
			.innerJoin(videos, sql`${videos.id} = ${clips.videoId} AND ${videos.status} <> 'failed'`)
			.all(),
		db
			.select({
				id: videos.id,
				status: videos.status,
				sourceKey: videos.sourceKey,
				transcriptKey: videos.transcriptKey,
				sourcePurgedAt: videos.sourcePurgedAt,
			})
			.from(videos)
			.all(),
		db.select({ id: backgrounds.id, key: backgrounds.objectKey }).from(backgrounds).all(),
		db.select({ id: workspaces.id, key: workspaces.watermarkImageKey }).from(workspaces).all(),
	]);
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
	const problems: AuditProblem[] = [];
	const failedKeepingCharge: string[] = [];
	const l = minutesLedger;
	const [balances, sums, movements, videoRows] = await Promise.all([
		db.select({ id: workspaces.id, balance: workspaces.minutesBalance }).from(workspaces).all(),
		db
			.select({ workspaceId: l.workspaceId, sum: sql<number>`SUM(${l.minutes})` })
			.from(l)
			.groupBy(l.workspaceId)
			.all(),
		db
			.select({
				videoId: l.videoId,
				kind: l.kind,
				rows: sql<number>`COUNT(*)`,
				sum: sql<number>`SUM(${l.minutes})`,
			})
			.from(l)
			.groupBy(l.videoId, l.kind)
			.all(),
		db.select({ id: videos.id, status: videos.status, charged: videos.minutesCharged }).from(videos).all(),
	]);
	const sumOf = new Map(sums.map((s) => [s.workspaceId, s.sum]));
	for (const w of balances) {
		const sum = sumOf.get(w.id) ?? 0;
		if (w.balance !== sum)
			problems.push({
				kind: "balance",
				row: `workspaces/${w.id}`,
				detail: `balance ${w.balance} ≠ ledger sum ${sum}`,
			});
	}
	const moved = (videoId: string, kind: string) => movements.find((m) => m.videoId === videoId && m.kind === kind);
	for (const v of videoRows) {
		const row = `videos/${v.id}`;
		const charge = moved(v.id, "charge");
		const charged = -(charge?.sum ?? 0);
		const refunded = moved(v.id, "refund")?.sum ?? 0;
		if (charge?.rows !== 1 || charged !== v.charged)
			problems.push({
				kind: "charge",
				row,
				detail: `charged ${charged} in ${charge?.rows ?? 0} row(s), says ${v.charged}`,
			});
		if (v.status === "failed" && refunded > charged)
			problems.push({ kind: "refund", row, detail: `refunded ${refunded}, more than its charge ${charged}` });
		else if (v.status === "failed" && refunded < charged) failedKeepingCharge.push(v.id);
		else if (v.status !== "failed" && refunded !== 0)
			problems.push({
				kind: "refund",
				row,
				detail: `${PROCESSING_DONE.has(v.status) ? "completed" : `still ${v.status}`} but refunded ${refunded}`,
			});
	}
	return { problems, failedKeepingCharge };
}
