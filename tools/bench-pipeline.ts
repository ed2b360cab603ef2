/**
 * `npm run bench:pipeline`: end-to-end wall time on the local stack for generated talk videos of
 * 1, 10 and 30 minutes (BENCH_MINUTES=1,10 to choose), each beside its two floors measured in the
 * same run right after it (tools/bench/floor.ts): the serial floor (the bare encodes of the very
 * clips the pipeline cut, then one bare pocketsphinx pass, one thing at a time) and the parallel
 * floor (the same bare work spread over the machine's cores), plus the CPU bound (the bare work's
 * CPU seconds over the cores). Goal: end to end ≤ 1.25 × the parallel floor.
 *
 * Per run it also records what the video used, for `npm run bench:cost`:
 * - the render tier's own account of each job (its log: wall ms and the CPU its processes spent);
 * - the Worker's requests, D1 rows read and written, R2 operations by class and workflow steps,
 *   counted by the metered Worker (tools/bench/metered-worker.js, the real Worker with counters);
 * - the bytes stored in R2 by key prefix when the video is done;
 * - the CPU seconds of the tier's and the Worker's process trees during the run (from /proc: the
 *   machine's other load barely moves them, unlike the wall times).
 *
 * And the video's timeline as the workflow recorded it (video_steps), with the stretches where
 * nothing ran. Writes bench-results/pipeline.json. The local fan-out is wrangler.toml [env.local]
 * (BENCH_VARS='{"TRANSCRIBE_PARALLELISM":"3"}' overrides Worker vars for a what-if run) and the
 * tier's CPU slots are one per core (BENCH_ENCODE_SLOTS overrides).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loopVideo, makeTalkVideo } from "../scripts/sample-video.ts";
import { serveDirectory } from "../scripts/serve-files.ts";
import { stopStack, type StackInfo } from "../scripts/stack.ts";
import { floorsOf } from "./bench/floor.ts";
import { meter, startMeteredStack, storedObjects } from "./bench/metered-stack.ts";
import { treeCpuSeconds } from "./bench/proc-cpu.ts";
import { idleGaps, stageSpans, timelineOf, type TimelineEntry } from "./bench/timeline.ts";
import { videoSteps, videoTimes } from "./db/local-d1.ts";

const MINUTES = (process.env.BENCH_MINUTES ?? "1,10,30").split(",").map(Number);
const CONFIG = { clipDurationMin: 15, clipDurationMax: 45, aspectRatio: "9:16" };
const WORKER_VARS = JSON.parse(process.env.BENCH_VARS ?? "{}") as Record<string, string>;
const ENCODE_SLOTS = process.env.BENCH_ENCODE_SLOTS;
const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

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
	const stack = await startMeteredStack({
		stateDir,
		minutes: 1000,
		workerVars: WORKER_VARS,
		renderEnv: ENCODE_SLOTS ? { ENCODE_SLOTS } : {},
	});
	const [tierPid] = JSON.parse(readFileSync(join(stateDir, "pids.json"), "utf8")) as number[];
	const runs = [];
	for (const minutes of MINUTES) {
		const loadBefore = round1(loadavg()[0]!);
		await meter(stack, true);
		const logFrom = readFileSync(join(stateDir, "render.log"), "utf8").length;
		const cpuBefore = { tier: treeCpuSeconds(tierPid!), worker: treeCpuSeconds(stack.workerPid) };
		const run = await processOne(stack, `${files.url}/talk-${minutes}.mp4`);
		const used = {
			tierCpuSeconds: round1(treeCpuSeconds(tierPid!) - cpuBefore.tier),
			workerCpuSeconds: round1(treeCpuSeconds(stack.workerPid) - cpuBefore.worker),
			tierJobs: tierJobsOf(readFileSync(join(stateDir, "render.log"), "utf8").slice(logFrom)),
			worker: await meter(stack, true),
			storedAfter: await storedObjects(stack),
			/** What one status poll of the finished video uses (ten polls, averaged): the bench polled every second, a client every 10-15 s. */
			perStatusPoll: await pollCost(stack, run.id),
		};
		const loadAfterRun = round1(loadavg()[0]!);
		const floors = await floorsOf(join(media, `talk-${minutes}.mp4`), run.clipList);
		const { clipList: _clips, id: _id, ...result } = run;
		const over = (floor: number) => round2(run.totalSeconds / floor);
		const bareCpu = floors.serial.encodeCpuSeconds + floors.serial.asrCpuSeconds;
		runs.push({
			minutes,
			...result,
			floors,
			overParallelFloor: over(floors.parallel.totalSeconds),
			overSerialFloor: over(floors.serial.totalSeconds),
			overCpuBound: over(floors.cpuBoundSeconds),
			/** The tier's CPU for the whole video over the bare work's: what the pipeline spends beyond the bare encodes and ASR (robust to load). */
			tierCpuOverBareCpu: round2(used.tierCpuSeconds / bareCpu),
			used,
			loadAverage: { before: loadBefore, afterRun: loadAfterRun, afterFloors: round1(loadavg()[0]!) },
		});
		const last = runs[runs.length - 1]!;
		console.log(
			JSON.stringify({
				minutes,
				status: last.status,
				clips: last.clips,
				totalSeconds: last.totalSeconds,
				floors: last.floors,
				overParallelFloor: last.overParallelFloor,
				overSerialFloor: last.overSerialFloor,
				tierCpuOverBareCpu: last.tierCpuOverBareCpu,
				load: last.loadAverage,
			}),
		);
		printTimeline(last.timeline, last.totalSeconds);
	}
	const report = {
		measuredAt: new Date().toISOString(),
		machine: `${availableParallelism()} cores; local stack (wrangler dev + native render tier, pocketsphinx transcription); load average before each run, after it and after its floors is beside it (a shared machine shows > cores)`,
		config: CONFIG,
		workerVars: WORKER_VARS,
		encodeSlots: ENCODE_SLOTS ?? `${availableParallelism()} (one per core)`,
		runs,
		goal: "end-to-end <= 1.25 x the parallel floor (the bare encodes of the same clips, cores at once, then the bare ASR of the same audio in one piece per core)",
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync(process.env.BENCH_OUT ?? "bench-results/pipeline.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(
		runs
			.map(
				(r) =>
					`${r.minutes} min: ${r.totalSeconds} s = ${r.overParallelFloor} x the parallel floor ${r.floors.parallel.totalSeconds} s (${r.overSerialFloor} x the serial ${r.floors.serial.totalSeconds} s); tier CPU ${r.tierCpuOverBareCpu} x the bare work's`,
			)
			.join("\n"),
	);
	await files.close();
} finally {
	stopStack(stateDir);
	if (!process.env.BENCH_KEEP) rmSync(stateDir, { recursive: true, force: true });
}

/** The tier's job lines (its log, one JSON object a line): per job path, how many, wall and CPU seconds. */
function tierJobsOf(log: string) {
	const jobs: Record<string, { jobs: number; seconds: number; cpuSeconds: number }> = {};
	for (const line of log.split("\n")) {
		if (!line.startsWith("{")) continue;
		const entry = JSON.parse(line) as { event?: string; ms?: number; cpuMs?: number };
		if (!entry.event?.startsWith("/") || typeof entry.ms !== "number") continue;
		const job = (jobs[entry.event] ??= { jobs: 0, seconds: 0, cpuSeconds: 0 });
		job.jobs++;
		job.seconds = round1(job.seconds + entry.ms / 1000);
		job.cpuSeconds = round1(job.cpuSeconds + (entry.cpuMs ?? 0) / 1000);
	}
	return jobs;
}

/** One line per stage: when it ran, as bars on a 60-column axis. */
function printTimeline(timeline: TimelineEntry[], total: number): void {
	const width = 60;
	const byStage = new Map<string, TimelineEntry[]>();
	for (const t of timeline) byStage.set(t.stage, [...(byStage.get(t.stage) ?? []), t]);
	for (const [stage, steps] of byStage) {
		const bar = Array.from({ length: width }, () => " ");
		for (const s of steps)
			for (
				let x = Math.floor((s.from / total) * width);
				x < Math.min(width, Math.ceil((s.to / total) * width));
				x++
			)
				bar[x] = "█";
		const from = Math.min(...steps.map((s) => s.from));
		const to = Math.max(...steps.map((s) => s.to));
		console.log(`  ${stage.padEnd(14)}|${bar.join("")}| ${from}-${to} s`);
	}
}

/** Submits one source, waits for the end, and reads its timeline from D1. */
async function processOne(stack: StackInfo, hostedUrl: string) {
	const api = (method: string, path: string, body?: unknown) => apiCall(stack, method, path, body);
	const started = Date.now();
	const submitted = await api("POST", "/api/videos/hosted", { hostedUrl, config: CONFIG });
	const id: string = submitted.video.id;
	let status = "downloading";
	let polls = 0;
	while (status !== "completed" && status !== "failed") {
		await new Promise((r) => setTimeout(r, 1000));
		status = (await api("GET", `/api/videos/${id}/status`)).video.status;
		polls++;
	}
	const persistTo = join(stack.stateDir, "wrangler-state");
	const video = videoTimes(persistTo, id);
	const rows = videoSteps(persistTo, id);
	const totalSeconds = round1((Date.parse(video!.completed_at!) - Date.parse(video!.created_at)) / 1000);
	const timeline = timelineOf(rows, video!.created_at);
	const clipList = (await api("GET", `/api/videos/${id}/clips`)).clips as { startTime: number; endTime: number }[];
	return {
		id,
		status,
		clips: clipList.length,
		clipSeconds: round1(clipList.reduce((n, c) => n + c.endTime - c.startTime, 0)),
		clipList,
		totalSeconds,
		clientSeconds: round1((Date.now() - started) / 1000),
		/** Status reads this bench made (one a second): part of the Worker's request count. */
		statusPolls: polls,
		stageSpans: stageSpans(timeline),
		idleGaps: idleGaps(timeline, totalSeconds),
		timeline,
	};
}

/** The Worker's use for one status poll: ten polls of `id` two seconds apart (past the status cache), averaged. */
async function pollCost(stack: StackInfo, id: string) {
	await meter(stack, true);
	for (let n = 0; n < 10; n++) {
		await apiCall(stack, "GET", `/api/videos/${id}/status`);
		await new Promise((r) => setTimeout(r, 2100));
	}
	const used = await meter(stack, true);
	return {
		requests: used.requests.api / 10,
		d1Queries: used.d1.queries / 10,
		rowsRead: used.d1.rowsRead / 10,
		rowsWritten: used.d1.rowsWritten / 10,
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
