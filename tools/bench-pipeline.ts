/**
 * `npm run bench:pipeline`: end-to-end wall time on the local stack for generated talk videos of
 * 1, 10 and 30 minutes (BENCH_MINUTES=1,10 to choose), each next to its floor measured in the same
 * run: the bare work, done one thing at a time (plain ffmpeg encodes of the very clips the pipeline
 * cut, same cut, size and x264/AAC settings, no look; then one plain pocketsphinx pass over the
 * source's audio). Writes bench-results/pipeline.json with, per run, the ratio to the floor (goal
 * ≤ 1.3) and the video's timeline as the workflow recorded it (video_steps): queue, download,
 * upload, audio, each chunk's ASR, signals, rank, each render, finish, in seconds from submission,
 * plus the stretches where nothing ran.
 *
 * The stack's render tier, chunk size and fan-out are the local defaults (wrangler.toml
 * [env.local]); on a shared machine the numbers move with the load, the ratio less so.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loopVideo, makeTalkVideo } from "../scripts/sample-video.ts";
import { serveDirectory } from "../scripts/serve-files.ts";
import { startStack, stopStack, type StackInfo } from "../scripts/stack.ts";
import { bareFloor } from "./bench/floor.ts";
import { idleGaps, stageSpans, timelineOf } from "./bench/timeline.ts";
import { videoSteps, videoTimes } from "./db/local-d1.ts";

const MINUTES = (process.env.BENCH_MINUTES ?? "1,10,30").split(",").map(Number);
const CONFIG = { clipDurationMin: 15, clipDurationMax: 45, aspectRatio: "9:16" };
const round1 = (n: number) => Math.round(n * 10) / 10;

const stateDir = mkdtempSync(join(tmpdir(), "clipforge-bench-pipeline-"));
const media = join(stateDir, "media");
mkdirSync(media);
try {
	// One minute of talk, looped to each length (stream copy: seconds, not minutes, to build).
	makeTalkVideo({ out: join(media, "talk-1.mp4"), seconds: 60 });
	for (const minutes of MINUTES.filter((m) => m > 1)) {
		loopVideo(join(media, "talk-1.mp4"), minutes, minutes * 60, join(media, `talk-${minutes}.mp4`), [
			"-movflags",
			"+faststart",
		]);
	}
	const files = await serveDirectory(media);
	const stack = await startStack({ stateDir, minutes: 1000 });
	const runs = [];
	for (const minutes of MINUTES) {
		const loadBefore = round1(loadavg()[0]!);
		const run = await processOne(stack, `${files.url}/talk-${minutes}.mp4`);
		const floor = await bareFloor(join(media, `talk-${minutes}.mp4`), run.clipList);
		const { clipList: _clips, ...result } = run;
		runs.push({
			minutes,
			...result,
			floor,
			overFloor: Math.round((run.totalSeconds / floor.totalSeconds) * 100) / 100,
			loadAverage: { before: loadBefore, after: round1(loadavg()[0]!) },
		});
		const last = runs[runs.length - 1]!;
		console.log(
			JSON.stringify({
				minutes,
				status: last.status,
				clips: last.clips,
				totalSeconds: last.totalSeconds,
				floor: last.floor,
				overFloor: last.overFloor,
				spans: last.stageSpans,
				idle: last.idleGaps,
			}),
		);
	}
	const report = {
		measuredAt: new Date().toISOString(),
		machine: `${availableParallelism()} cores; local stack (wrangler dev + native render tier, pocketsphinx transcription); load average during each run is beside it (a shared machine shows > cores)`,
		config: CONFIG,
		runs,
		goal: "end-to-end <= 1.3 x the floor (bare encodes of the same clips + bare ASR of the same source, one after the other)",
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/pipeline.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(
		`bench-results/pipeline.json: ${runs.map((r) => `${r.minutes} min ${r.totalSeconds} s = ${r.overFloor} x floor ${r.floor.totalSeconds} s`).join("; ")}`,
	);
	await files.close();
} finally {
	stopStack(stateDir);
	rmSync(stateDir, { recursive: true, force: true });
}

/** Submits one source, waits for the end, and reads its timeline from D1. */
async function processOne(stack: StackInfo, hostedUrl: string) {
	const api = (method: string, path: string, body?: unknown) => apiCall(stack, method, path, body);
	const started = Date.now();
	const submitted = await api("POST", "/api/videos/hosted", { hostedUrl, config: CONFIG });
	const id: string = submitted.video.id;
	let status = "downloading";
	while (status !== "completed" && status !== "failed") {
		await new Promise((r) => setTimeout(r, 1000));
		status = (await api("GET", `/api/videos/${id}/status`)).video.status;
	}
	const persistTo = join(stack.stateDir, "wrangler-state");
	const video = videoTimes(persistTo, id);
	const rows = videoSteps(persistTo, id);
	const totalSeconds = round1((Date.parse(video!.completed_at!) - Date.parse(video!.created_at)) / 1000);
	const timeline = timelineOf(rows, video!.created_at);
	const clipList = (await api("GET", `/api/videos/${id}/clips`)).clips as { startTime: number; endTime: number }[];
	return {
		status,
		clips: clipList.length,
		clipList,
		totalSeconds,
		clientSeconds: round1((Date.now() - started) / 1000),
		stageSpans: stageSpans(timeline),
		idleGaps: idleGaps(timeline, totalSeconds),
		timeline,
	};
}

/** One API call; a read whose connection drops (wrangler dev under load) is asked again. */
async function apiCall(stack: StackInfo, method: string, path: string, body?: unknown): Promise<any> {
	for (let attempt = 1; ; attempt++) {
		try {
			const response = await fetch(stack.url + path, {
				method,
				headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" },
				body: body ? JSON.stringify(body) : undefined,
			});
			return await response.json();
		} catch (error) {
			if (method !== "GET" || attempt >= 5) throw error;
			await new Promise((r) => setTimeout(r, 1000));
		}
	}
}
