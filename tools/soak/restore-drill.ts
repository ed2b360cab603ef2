/**
 * `npm run drill:restore [-- --keep]`: the restore drill (make test). On a local stack: one 20 s
 * talk processed to its clips, `backup` taken, the stack stopped and its store wiped, `restore`
 * into a new empty stack, that stack started, and what a user and an operator see compared with
 * before the loss: every video (id, status), every clip (id, length, and its file's bytes through
 * its download URL against the backup's checksum), every ledger row, every balance, and the store's
 * audit clean (no clip without its file, no object without its row). Writes
 * bench-results/restore-drill.json; exits 1 on any difference.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fetchAudit, signingSecretFrom } from "../../scripts/admin-orphans.ts";
import { backupLocalStore, sha256Of } from "../../scripts/backup.ts";
import { openLocalStore } from "../../scripts/local-store.ts";
import { ledgerInOrder } from "../../scripts/db/local-store-reads.ts";
import { restoreLocalStore } from "../../scripts/restore.ts";
import { makeTalkVideo, SPEAKER_FACE } from "../../scripts/sample-video.ts";
import { serveDirectory } from "../../scripts/serve-files.ts";
import { ROOT, secretsFileFor, startStack, stopStack, type StackInfo } from "../../scripts/stack.ts";

const { values: flags } = parseArgs({ options: { keep: { type: "boolean", default: false } } });
const log = (message: string) => console.error(`[restore-drill ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
const root = mkdtempSync(join(tmpdir(), "clipforge-restore-drill-"));
const before = join(root, "before");
const after = join(root, "after");
const backupDir = join(root, "backup");
const stacks: string[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const)
	process.once(signal, () => {
		for (const dir of stacks) stopStack(dir);
		process.exit(130);
	});

/** What a user (the API) and the operator (the ledger) see of the store. */
interface Seen {
	videos: { id: string; status: string }[];
	clips: { id: string; videoId: string; duration: number; fileSha256: string | null }[];
	balance: number;
	ledger: string[];
}

async function api(stack: StackInfo, path: string, init: RequestInit = {}): Promise<any> {
	const response = await fetch(stack.url + path, {
		...init,
		headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" },
	});
	if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}`);
	return response.json();
}

async function seenIn(stack: StackInfo, persist: string): Promise<Seen> {
	const videos = ((await api(stack, "/api/videos")).videos as { id: string; status: string }[])
		.map((v) => ({ id: v.id, status: v.status }))
		.sort((a, b) => a.id.localeCompare(b.id));
	const clips: Seen["clips"] = [];
	for (const video of videos) {
		const listed = (await api(stack, `/api/videos/${video.id}/clips`)).clips as {
			id: string;
			duration: number;
			downloadUrl: string | null;
		}[];
		for (const clip of listed) {
			const file = clip.downloadUrl ? await fetch(clip.downloadUrl) : null;
			const fileSha256 = file?.ok ? sha256Of(new Uint8Array(await file.arrayBuffer())) : null;
			clips.push({ id: clip.id, videoId: video.id, duration: clip.duration, fileSha256 });
		}
	}
	const balance = ((await api(stack, "/api/workspaces")) as { minutesBalance: number }[])[0]!.minutesBalance;
	const store = await openLocalStore(persist);
	try {
		const rows = await ledgerInOrder(store.db);
		return { videos, clips, balance, ledger: rows.map((row: unknown[]) => JSON.stringify(row)) };
	} finally {
		await store.close();
	}
}

const media = join(root, "media");
mkdirSync(media, { recursive: true });
makeTalkVideo({ out: join(media, "talk-20.mp4"), seconds: 20, speaker: SPEAKER_FACE });
const files = await serveDirectory(media);
const renderEnv = { X264_PRESET: "ultrafast" };

log(`state in ${root}; starting the first stack`);
stacks.push(before);
const first = await startStack({ stateDir: before, renderEnv });
const submitted = await api(first, "/api/videos/hosted", {
	method: "POST",
	body: JSON.stringify({
		hostedUrl: `${files.url}/talk-20.mp4`,
		config: { enableCaptions: true, clipDurationMin: 5, clipDurationMax: 12 },
	}),
});
const videoId = submitted.video.id as string;
for (let status = ""; status !== "completed"; await sleep(1000)) {
	status = (await api(first, `/api/videos/${videoId}/status`)).video?.status ?? "";
	if (status === "failed") throw new Error(`the drill's video failed: ${videoId}`);
	if (Date.now() - started > 10 * 60_000) throw new Error(`the drill's video is still ${status} after 10 minutes`);
}
log(`video ${videoId} completed`);
const persistBefore = join(before, "wrangler-state");
const original = await seenIn(first, persistBefore);

const manifest = await backupLocalStore(persistBefore, backupDir);
log(`backed up ${manifest.totals.objects} objects and ${Object.keys(manifest.d1.rows).length} tables`);
stopStack(before);
// The loss: the store is gone; the secrets (kept by the platform, not by a backup) and the key file stay.
rmSync(persistBefore, { recursive: true, force: true });

mkdirSync(after, { recursive: true });
for (const kept of ["api-key", "password"]) cpSync(join(before, kept), join(after, kept));
cpSync(secretsFileFor(before), secretsFileFor(after));
const restored = await restoreLocalStore(backupDir, join(after, "wrangler-state"));
log(`restored ${restored.objects} objects; starting the restored stack`);
stacks.push(after);
const second = await startStack({ stateDir: after, renderEnv });
const back = await seenIn(second, join(after, "wrangler-state"));
const audit = await fetchAudit(second.url, signingSecretFrom(secretsFileFor(after))!);
stopStack(after);
await files.close();

const byKey = new Map(manifest.objects.map((o) => [o.sha256, o]));
const differences = [
	JSON.stringify(back.videos) !== JSON.stringify(original.videos) ? "videos differ" : null,
	JSON.stringify(back.clips) !== JSON.stringify(original.clips) ? "clips or their files differ" : null,
	back.clips.some((c) => !c.fileSha256 || !byKey.has(c.fileSha256)) ? "a clip's file is not the backed-up one" : null,
	back.balance !== original.balance ? `balance ${back.balance} ≠ ${original.balance}` : null,
	JSON.stringify(back.ledger) !== JSON.stringify(original.ledger) ? "ledger rows differ" : null,
	audit.clean ? null : `audit not clean: ${JSON.stringify(audit.problems.slice(0, 5))}`,
	original.clips.length === 0 ? "the video made no clips: nothing was drilled" : null,
].filter((d): d is string => d !== null);
const report = {
	measuredAt: new Date().toISOString(),
	seconds: Math.round((Date.now() - started) / 1000),
	passed: differences.length === 0,
	differences,
	backup: { objects: manifest.totals.objects, bytes: manifest.totals.bytes, rows: manifest.d1.rows },
	before: { videos: original.videos.length, clips: original.clips.length, ledgerRows: original.ledger.length },
	after: { videos: back.videos.length, clips: back.clips.length, ledgerRows: back.ledger.length },
	balance: { before: original.balance, after: back.balance },
	audit: { clean: audit.clean, counts: audit.counts },
};
mkdirSync(join(ROOT, "bench-results"), { recursive: true });
writeFileSync(join(ROOT, "bench-results", "restore-drill.json"), `${JSON.stringify(report, null, 2)}\n`);
if (!flags.keep && report.passed) rmSync(root, { recursive: true, force: true });
console.log(
	`restore drill: ${report.passed ? "passed" : "FAILED"} in ${report.seconds} s; ${back.videos.length} videos, ${back.clips.length} clips (files equal), ${back.ledger.length} ledger rows, balance ${back.balance}, ${manifest.totals.objects} objects, audit ${audit.clean ? "clean" : "NOT clean"}${differences.length ? `: ${differences.join("; ")}` : ""}`,
);
process.exit(report.passed ? 0 : 1);
