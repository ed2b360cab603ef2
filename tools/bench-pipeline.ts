/**
 * `npm run bench:pipeline`: end-to-end wall time on the local stack for generated talk videos of
 * 1, 5 and 10 minutes (override with BENCH_MINUTES=1,5), per stage, from the status transitions a
 * client sees (polled every 250 ms), next to the floor of the same work done bare in the same run:
 * the sum of plain ffmpeg encodes of the very clips the pipeline cut (same cut, size and x264/AAC
 * settings, no look) and one plain pocketsphinx pass over the source. Writes
 * bench-results/pipeline.json with each stage's seconds, the floor and the ratio (goal ≤ 1.3).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { renderClipArgs, toPocketsphinxWavArgs } from "../containers/render/src/ffmpeg-args.ts";
import { layoutFor } from "../containers/render/src/layout.ts";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTalkVideo } from "../scripts/sample-video.ts";
import { serveDirectory } from "../scripts/serve-files.ts";
import { startStack, stopStack } from "../scripts/stack.ts";

const MINUTES = (process.env.BENCH_MINUTES ?? "1,5,10").split(",").map(Number);
const CONFIG = { clipDurationMin: 15, clipDurationMax: 45, aspectRatio: "9:16" };
const STAGES = ["downloading", "uploading", "transcribing", "analyzing", "generating_clips"] as const;

const stateDir = mkdtempSync(join(tmpdir(), "clipforge-bench-pipeline-"));
const media = join(stateDir, "media");
mkdirSync(media);
try {
	// One minute of talk, looped to each length (stream copy: seconds, not minutes, to build).
	makeTalkVideo({ out: join(media, "talk-1.mp4"), seconds: 60 });
	for (const minutes of MINUTES.filter((m) => m > 1)) {
		execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-stream_loop", String(minutes), "-i", join(media, "talk-1.mp4"), "-t", String(minutes * 60), "-c", "copy", "-movflags", "+faststart", join(media, `talk-${minutes}.mp4`)]);
	}
	const files = await serveDirectory(media);
	const stack = await startStack({ stateDir, minutes: 1000 });
	const runs = [];
	for (const minutes of MINUTES) {
		const api = async (method: string, path: string, body?: unknown) =>
			(await fetch(stack.url + path, { method, headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined })).json() as Promise<any>;
		const started = Date.now();
		const submitted = await api("POST", "/api/videos/hosted", { hostedUrl: `${files.url}/talk-${minutes}.mp4`, config: CONFIG });
		const submitSeconds = (Date.now() - started) / 1000;
		const id = submitted.video.id;
		const enteredAt: Record<string, number> = { downloading: Date.now() };
		let status = "downloading";
		while (status !== "completed" && status !== "failed") {
			await new Promise((r) => setTimeout(r, 250));
			const s = await api("GET", `/api/videos/${id}/status`);
			if (s.video.status !== status) {
				status = s.video.status;
				enteredAt[status] = Date.now();
			}
		}
		const clipList = (await api("GET", `/api/videos/${id}/clips`)).clips as { startTime: number; endTime: number }[];
		const clips = clipList.length;
		const stages: Record<string, number> = {};
		const order = [...STAGES, status];
		for (let i = 0; i < STAGES.length; i++) {
			const from = enteredAt[STAGES[i]!];
			const to = order.slice(i + 1).map((s) => enteredAt[s]).find((t) => t !== undefined);
			if (from !== undefined && to !== undefined) stages[STAGES[i]!] = Math.round((to - from) / 100) / 10;
		}
		const total = Math.round((Date.now() - started) / 100) / 10;
		const floor = await bareFloor(join(media, `talk-${minutes}.mp4`), clipList);
		runs.push({
			minutes, status, clips, submitSeconds: Math.round(submitSeconds * 10) / 10, totalSeconds: total, realTimeFactor: Math.round((total / (minutes * 60)) * 1000) / 1000, stages,
			floor, overFloor: Math.round((total / floor.totalSeconds) * 100) / 100,
		});
		console.log(JSON.stringify(runs[runs.length - 1]));
	}
	const first = runs[0]!;
	const last = runs[runs.length - 1]!;
	const growth = Object.fromEntries(
		STAGES.map((s) => [s, first.stages[s] && last.stages[s] ? Math.round((last.stages[s]! / first.stages[s]!) * 10) / 10 : null]),
	);
	const dominant = Object.entries(last.stages).sort((a, b) => b[1] - a[1])[0];
	const report = {
		measuredAt: new Date().toISOString(),
		machine: "2 cores; local stack (wrangler dev + native render tier, pocketsphinx transcription)",
		config: CONFIG,
		runs,
		growthFromShortestToLongest: { lengthRatio: last.minutes / first.minutes, totalRatio: Math.round((last.totalSeconds / first.totalSeconds) * 10) / 10, perStage: growth },
		dominantStageOnLongest: dominant ? { stage: dominant[0], seconds: dominant[1] } : null,
		goal: "end-to-end <= 1.3 x the floor (bare encodes of the same clips + bare ASR of the same source)",
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/pipeline.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(JSON.stringify(report, null, 2));
	await files.close();
} finally {
	stopStack(stateDir);
	rmSync(stateDir, { recursive: true, force: true });
}

/** The same work done bare, one thing at a time: each clip's plain encode, then one ASR pass. */
async function bareFloor(source: string, clips: { startTime: number; endTime: number }[]): Promise<{ encodeSeconds: number; asrSeconds: number; totalSeconds: number }> {
	const run = promisify(execFile);
	const dir = mkdtempSync(join(tmpdir(), "clipforge-floor-"));
	try {
		let started = performance.now();
		for (const [n, clip] of clips.entries()) {
			await run("ffmpeg", renderClipArgs({
				sourceUrl: source, start: clip.startTime, end: clip.endTime, layout: layoutFor("9:16", null), track: null, assFile: null, backgroundFile: null, watermark: null,
				outputPath: join(dir, `clip-${n}.mp4`),
			}));
		}
		const encodeSeconds = (performance.now() - started) / 1000;
		started = performance.now();
		const wav = join(dir, "audio.wav");
		await run("ffmpeg", toPocketsphinxWavArgs(source, wav));
		await run("pocketsphinx_continuous", ["-infile", wav, "-time", "yes", "-logfn", "/dev/null"], { maxBuffer: 64 << 20 });
		const asrSeconds = (performance.now() - started) / 1000;
		const round = (n: number) => Math.round(n * 10) / 10;
		return { encodeSeconds: round(encodeSeconds), asrSeconds: round(asrSeconds), totalSeconds: round(encodeSeconds + asrSeconds) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
