/**
 * What the soak checks once everything has ended: each completed clip's file against its stated
 * length (ffprobe), each workspace's balance against the ledger's rule, and the shape of the report
 * (bench-results/soak.json).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A clip's file may differ from its stated length by this much (container rounding, the last frame). */
export const CLIP_LENGTH_TOLERANCE_SECONDS = 0.5;

export interface ClipCheck {
	videoId: string;
	clipId: string;
	statedSeconds: number;
	fileSeconds: number | null;
	ok: boolean;
	problem?: string;
}

/** Downloads each clip (its signed URL) and compares ffprobe's duration with the clip's `duration`. */
export async function checkClips(
	videoId: string,
	clips: { id: string; duration: number; downloadUrl: string | null }[],
): Promise<ClipCheck[]> {
	const dir = mkdtempSync(join(tmpdir(), "clipforge-soak-clip-"));
	try {
		const checks: ClipCheck[] = [];
		for (const clip of clips) {
			const check: ClipCheck = {
				videoId,
				clipId: clip.id,
				statedSeconds: clip.duration,
				fileSeconds: null,
				ok: false,
			};
			try {
				if (!clip.downloadUrl) throw new Error("no download URL");
				const response = await fetch(clip.downloadUrl);
				if (!response.ok) throw new Error(`download answered ${response.status}`);
				const file = join(dir, `${clip.id}.mp4`);
				writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
				const { stdout } = await run("ffprobe", [
					"-v",
					"error",
					"-show_entries",
					"format=duration",
					"-of",
					"csv=p=0",
					file,
				]);
				check.fileSeconds = Number(stdout.trim());
				check.ok =
					Number.isFinite(check.fileSeconds) &&
					Math.abs(check.fileSeconds - clip.duration) <= CLIP_LENGTH_TOLERANCE_SECONDS;
				if (!check.ok) check.problem = `plays ${check.fileSeconds} s, says ${clip.duration} s`;
			} catch (error) {
				check.problem = (error as Error).message;
			}
			checks.push(check);
		}
		return checks;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export interface BalanceCheck {
	workspaceId: string;
	granted: number;
	/** What GET /api/workspaces says. */
	balance: number;
	/** The sum of the workspace's ledger rows. */
	ledgerSum: number;
	/** The rule: the grant, less each completed video's charge (a failed one's charge refunded, exactly once). */
	expected: number;
	ok: boolean;
	problems: string[];
}

interface LedgerRow {
	workspace_id: string;
	video_id: string | null;
	kind: string;
	minutes: number;
}

/**
 * The ledger's rule per workspace: balance = sum of its rows = grant − Σ charges of completed videos;
 * every video charged once; a failed video refunded exactly its charge; a completed one not at all.
 */
export function checkBalances(
	rows: LedgerRow[],
	workspaces: { id: string; balance: number }[],
	videos: { id: string; workspaceId: string; status: string; minutesCharged: number }[],
): BalanceCheck[] {
	return workspaces.map((workspace) => {
		const own = rows.filter((r) => r.workspace_id === workspace.id);
		const granted = own.filter((r) => r.kind === "grant").reduce((sum, r) => sum + r.minutes, 0);
		const ledgerSum = own.reduce((sum, r) => sum + r.minutes, 0);
		const problems: string[] = [];
		let expected = granted;
		for (const video of videos.filter((v) => v.workspaceId === workspace.id)) {
			const charges = own.filter((r) => r.video_id === video.id && r.kind === "charge");
			const refunds = own.filter((r) => r.video_id === video.id && r.kind === "refund");
			const charged = -charges.reduce((sum, r) => sum + r.minutes, 0);
			const refunded = refunds.reduce((sum, r) => sum + r.minutes, 0);
			if (charges.length !== 1 || charged !== video.minutesCharged)
				problems.push(
					`${video.id}: charged ${charged} in ${charges.length} row(s), says ${video.minutesCharged}`,
				);
			if (video.status === "completed" && refunds.length > 0)
				problems.push(`${video.id}: completed but refunded ${refunded}`);
			if (video.status === "failed" && refunded !== charged)
				problems.push(`${video.id}: failed, charged ${charged}, refunded ${refunded}`);
			if (video.status === "completed") expected -= video.minutesCharged;
			else if (video.status !== "failed") expected -= charged - refunded;
		}
		if (ledgerSum !== workspace.balance) problems.push(`balance ${workspace.balance} ≠ ledger sum ${ledgerSum}`);
		if (ledgerSum !== expected) problems.push(`ledger sum ${ledgerSum} ≠ the rule's ${expected}`);
		return {
			workspaceId: workspace.id,
			granted,
			balance: workspace.balance,
			ledgerSum,
			expected,
			ok: problems.length === 0,
			problems,
		};
	});
}

/** The p-th percentile (0..100) of `values`, nearest rank; null when empty. */
export function percentile(values: number[], p: number): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
