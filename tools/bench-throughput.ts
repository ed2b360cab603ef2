/**
 * `npm run bench:throughput`: 12 videos from 3 workspaces at once on the local stack. Workspace A
 * bursts 10 one-minute talks while B and C each send one, all at the same moment. Reports:
 *
 * - videos per hour, against the machine's floor capacity, measured in the same run from one
 *   video's bare work (its clips' bare encodes and bare ASR of its audio, tools/bench/floor.ts):
 *   the parallel floor (that work spread over the cores) times 12, the goal's measure; beside it
 *   the CPU bound (the bare work's CPU seconds × 12 over the cores: no schedule ends sooner) and
 *   the old measure (the serial floor × 12 over the cores, which counts the encodes' own use of
 *   every core twice, so it asked for more than the machine has);
 * - the CPU the tier and the Worker spent on the burst (from /proc: robust to the machine's other
 *   load) against the bare work's: what the pipeline adds beyond the bare encodes and ASR;
 * - for B's and C's videos, when their first clip was ready (from submission), against the same
 *   video processed alone on the idle stack first, and against B's and C's submitted together
 *   without A (they share the cores with each other in the burst too): the delay A's burst caused
 *   is the second, judged against one video's time (the lone video's end to end); the first is
 *   reported beside it. Per-workspace processing slots (MAX_CONCURRENT_VIDEOS) keep A's burst in
 *   its own line, and the tier's CPU slots pause A's jobs for B's and C's (encode-slots.ts).
 *
 * Writes bench-results/throughput.json. First clip = the end of the video's first "render clip"
 * step (video_steps). BENCH_BURST=10 changes the burst's size.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { makeTalkVideo } from "../scripts/sample-video.ts";
import { serveDirectory } from "../scripts/serve-files.ts";
import { startStack, stopStack, type StackInfo } from "../scripts/stack.ts";
import { floorsOf } from "./bench/floor.ts";
import { treeCpuSeconds } from "./bench/proc-cpu.ts";
import { stageSpans, timelineOf } from "./bench/timeline.ts";
import { firstClipRendered, videoSteps, videoTimes } from "./db/local-d1.ts";

const BURST = Number(process.env.BENCH_BURST ?? 10);
const CONFIG = { clipDurationMin: 15, clipDurationMax: 45, aspectRatio: "9:16" };
const round1 = (n: number) => Math.round(n * 10) / 10;

const stateDir = mkdtempSync(join(tmpdir(), "clipforge-bench-throughput-"));
const media = join(stateDir, "media");
mkdirSync(media);
try {
	makeTalkVideo({ out: join(media, "talk.mp4"), seconds: 60 });
	const files = await serveDirectory(media);
	const stack = await startStack({ stateDir, minutes: 1000 });
	const [a, b, c] = ["a", "b", "c"].map((name) => ({ name, key: createWorkspace(stack, name) }));
	let copy = 0;
	const submit = async (key: string) => {
		const response = await call(stack, key, "POST", "/api/videos/hosted", {
			hostedUrl: `${files.url}/talk.mp4?copy=${copy++}`,
			config: CONFIG,
		});
		if (!response.video?.id) throw new Error(`submission failed: ${JSON.stringify(response)}`);
		return response.video.id as string;
	};

	// One video alone on the idle stack: one video's time, and when its first clip is ready.
	const aloneId = await submit(c!.key);
	await waitForAll(stack, c!.key, [aloneId]);
	const alone = timesOf(stack, aloneId);
	const clipList = (await call(stack, c!.key, "GET", `/api/videos/${aloneId}/clips`)).clips as {
		startTime: number;
		endTime: number;
	}[];
	console.log(JSON.stringify({ alone }));

	// B's and C's videos at once without A's burst: what they cost each other (they share the cores
	// in the burst too), so the delay A's burst itself causes can be told apart.
	const pairIds = await Promise.all([submit(b!.key), submit(c!.key)]);
	await Promise.all([waitForAll(stack, b!.key, [pairIds[0]!]), waitForAll(stack, c!.key, [pairIds[1]!])]);
	const pair = { b: timesOf(stack, pairIds[0]!), c: timesOf(stack, pairIds[1]!) };
	console.log(JSON.stringify({ pair: { b: pair.b.firstClipSeconds, c: pair.c.firstClipSeconds } }));

	// The burst: A's ten and B's and C's one each, all at once.
	const [tierPid, workerPid] = JSON.parse(readFileSync(join(stateDir, "pids.json"), "utf8")) as number[];
	const cpuBefore = { tier: treeCpuSeconds(tierPid!), worker: treeCpuSeconds(workerPid!) };
	const started = Date.now();
	const loadBefore = round1(loadavg()[0]!);
	const submitted = await Promise.all([
		...Array.from({ length: BURST }, () => submit(a!.key).then((id) => ({ workspace: "a", id, key: a!.key }))),
		submit(b!.key).then((id) => ({ workspace: "b", id, key: b!.key })),
		submit(c!.key).then((id) => ({ workspace: "c", id, key: c!.key })),
	]);
	await Promise.all(
		["a", "b", "c"].map((w) =>
			waitForAll(
				stack,
				submitted.find((s) => s.workspace === w)!.key,
				submitted.filter((s) => s.workspace === w).map((s) => s.id),
			),
		),
	);
	const wallSeconds = round1((Date.now() - started) / 1000);
	const burstCpu = {
		tierSeconds: round1(treeCpuSeconds(tierPid!) - cpuBefore.tier),
		workerSeconds: round1(treeCpuSeconds(workerPid!) - cpuBefore.worker),
	};
	const videos = submitted.map((s) => ({ workspace: s.workspace, id: s.id, ...timesOf(stack, s.id) }));

	const floors = await floorsOf(join(media, "talk.mp4"), clipList);
	const floor = floors.serial;
	const cores = availableParallelism();
	const capacitySeconds = round1((floor.totalSeconds * videos.length) / cores);
	const parallelCapacitySeconds = round1(floors.parallel.totalSeconds * videos.length);
	const cpuBoundSeconds = round1(floors.cpuBoundSeconds * videos.length);
	const bareCpuSeconds = (floor.encodeCpuSeconds + floor.asrCpuSeconds) * videos.length;
	const others = videos.filter((v) => v.workspace !== "a");
	const report = {
		measuredAt: new Date().toISOString(),
		machine: `${cores} cores; load average ${loadBefore} when the burst started, ${round1(loadavg()[0]!)} at its end (more than the cores: a shared machine)`,
		scenario: `workspace A submits ${BURST} one-minute talks, B and C one each, at once (MAX_CONCURRENT_VIDEOS per workspace as configured for the local stack)`,
		config: CONFIG,
		alone,
		withoutBurst: pair,
		burst: {
			videos: videos.length,
			wallSeconds,
			videosPerHour: round1((videos.length / wallSeconds) * 3600),
			failed: videos.filter((v) => v.status !== "completed").length,
		},
		floor: {
			perVideo: floors,
			cores,
			/** The parallel floor of one video × the videos: the goal's measure. */
			parallelCapacitySeconds,
			videosPerHour: round1((videos.length / parallelCapacitySeconds) * 3600),
			cpuBoundSeconds,
			/** The old measure: the serial floor × the videos over the cores. */
			serialOverCoresSeconds: capacitySeconds,
		},
		throughputOverFloorCapacity: Math.round((parallelCapacitySeconds / wallSeconds) * 100) / 100,
		throughputOverCpuBound: Math.round((cpuBoundSeconds / wallSeconds) * 100) / 100,
		throughputOverSerialFloorOverCores: Math.round((capacitySeconds / wallSeconds) * 100) / 100,
		burstCpu: {
			...burstCpu,
			bareSeconds: round1(bareCpuSeconds),
			/** The tier's CPU for the burst over the bare work's (robust to the machine's load). */
			tierOverBare: Math.round((burstCpu.tierSeconds / bareCpuSeconds) * 100) / 100,
		},
		fairness: others.map((v) => {
			const withoutBurst = pair[v.workspace as "b" | "c"].firstClipSeconds;
			const delay = (from: number | null) =>
				v.firstClipSeconds === null || from === null ? null : round1(v.firstClipSeconds - from);
			const byBurst = delay(withoutBurst);
			return {
				workspace: v.workspace,
				firstClipSeconds: v.firstClipSeconds,
				aloneFirstClipSeconds: alone.firstClipSeconds,
				withoutBurstFirstClipSeconds: withoutBurst,
				/** Against the video alone on the stack: A's burst and the other lone video together. */
				delaySeconds: delay(alone.firstClipSeconds),
				/** Against B and C at once without A: what A's burst alone added. */
				delayByBurstSeconds: byBurst,
				oneVideoSeconds: alone.totalSeconds,
				withinOneVideo: byBurst !== null && alone.totalSeconds !== null && byBurst <= alone.totalSeconds,
			};
		}),
		videos,
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/throughput.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(
		JSON.stringify(
			{
				burst: report.burst,
				floor: report.floor,
				throughputOverFloorCapacity: report.throughputOverFloorCapacity,
				throughputOverCpuBound: report.throughputOverCpuBound,
				throughputOverSerialFloorOverCores: report.throughputOverSerialFloorOverCores,
				burstCpu: report.burstCpu,
				fairness: report.fairness,
			},
			null,
			2,
		),
	);
	await files.close();
} finally {
	stopStack(stateDir);
	if (!process.env.BENCH_KEEP) rmSync(stateDir, { recursive: true, force: true });
}

/** A workspace of its own (with an API key), straight into the stack's local D1. */
function createWorkspace(stack: StackInfo, name: string): string {
	const result = spawnSync(
		process.execPath,
		[
			join(import.meta.dirname, "../scripts/admin.ts"),
			"create-account",
			"--email",
			`bench-${name}@clipforge.local`,
			"--name",
			`bench ${name}`,
			"--minutes",
			"1000",
			"--persist-to",
			join(stack.stateDir, "wrangler-state"),
		],
		{ encoding: "utf8" },
	);
	const key = result.stdout.trim().split("\n").pop() ?? "";
	if (result.status !== 0 || !key.startsWith("cf_live_"))
		throw new Error(`creating workspace ${name} failed: ${result.stderr}`);
	return key;
}

async function call(stack: StackInfo, key: string, method: string, path: string, body?: unknown): Promise<any> {
	for (let attempt = 1; ; attempt++) {
		try {
			const response = await fetch(stack.url + path, {
				method,
				headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
				body: body ? JSON.stringify(body) : undefined,
			});
			return await response.json();
		} catch (error) {
			if (method !== "GET" || attempt >= 5) throw error;
			await new Promise((r) => setTimeout(r, 1000));
		}
	}
}

async function waitForAll(stack: StackInfo, key: string, ids: string[]): Promise<void> {
	const pending = new Set(ids);
	while (pending.size > 0) {
		await new Promise((r) => setTimeout(r, 2000));
		for (const id of [...pending]) {
			const status = (await call(stack, key, "GET", `/api/videos/${id}/status`)).video?.status;
			if (status === "completed" || status === "failed") pending.delete(id);
		}
	}
}

/** From the video's row and its timeline: seconds from submission to its first clip and to its end. */
function timesOf(stack: StackInfo, id: string) {
	const persistTo = join(stack.stateDir, "wrangler-state");
	const video = videoTimes(persistTo, id);
	const firstClip = firstClipRendered(persistTo, id);
	const steps = videoSteps(persistTo, id);
	const since = (iso: string | null | undefined) =>
		iso ? round1((Date.parse(iso) - Date.parse(video!.created_at)) / 1000) : null;
	return {
		status: video!.status,
		waitedForSlotSeconds: since(video!.slot_claimed_at),
		firstClipSeconds: since(firstClip),
		totalSeconds: since(video!.completed_at),
		// Where the time went (each stage's first start to last end, from submission): what a burst slows.
		stageSpans: stageSpans(timelineOf(steps, video!.created_at)),
	};
}
