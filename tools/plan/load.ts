/**
 * A busy day, simulated (`npm run bench:plan -- --load`): videos arriving over 24 hours on the
 * production deployment, each run through the workflow's order of steps (download → upload ∥ audio
 * ∥ signals → the chunks transcribed `transcriptions` at once → chapters ∥ ranking → the clips
 * rendered `renders` at once → finish) against what the account shares:
 *
 * - container instances, picked by the Worker's own naming (services/render-instances.ts: a video's
 *   steps on one instance of the video pool by the hash of its id, clip n on instance hash + n of the
 *   render pool), each with one CPU slot per vCPU (the tier's encode-slots.ts): a job takes the free
 *   slots it can use (an encode up to every vCPU, one at least) or waits its turn; an instance idle
 *   for RENDER_SLEEP_AFTER sleeps and pays a cold start when next asked;
 * - Workers AI's requests a minute per model (Whisper's chunks; the LLM's calls), as token buckets:
 *   a call over the limit waits for the next token (the Worker retries a 429 later);
 * - Workflows' concurrent instances (a video holds one from submission to its end);
 * - D1, one database that runs one query at a time: each video's queries (measured by the metered
 *   Worker) arrive through its life; the queueing delay at that utilisation (M/D/1) is added to each;
 * - R2: no per-bucket operation limit is published (only 1 write a second to one key, which no two
 *   steps share); its operations are reported, not limited.
 *
 * Durations are the per-video plan's (costs.ts: measured CPU per source second and clip second,
 * Whisper's and the LLM's assumed speeds). Deterministic: a seeded generator.
 */
import { renderInstance, renderPoolsOf } from "../../src/worker/services/render-instances.ts";
import { planAudioChunks } from "../../src/worker/services/transcription/transcript.ts";
import { settingsOf } from "../../src/worker/settings.ts";
import type { MeasuredCosts, PLATFORM } from "./costs.ts";

/** Documented account limits (Workers Paid), each with its page. */
export const ACCOUNT_LIMITS = {
	/** developers.cloudflare.com/workers-ai/platform/limits: Automatic Speech Recognition, 720 requests a minute. */
	whisperPerMinute: 720,
	/** The same page: Text Generation, 300 requests a minute for the account (docs/limits.md: both configured models share it). */
	llmPerMinute: 300,
	/** developers.cloudflare.com/containers/platform/limits: 1,500 concurrent vCPU, 6 TiB memory, 30 TB disk per account. */
	containerVcpus: 1500,
	containerMemoryGiB: 6 * 1024,
	containerDiskGB: 30_000,
	/** developers.cloudflare.com/workflows/reference/limits: 50,000 concurrent instances; creation 100 a second per workflow. */
	workflowInstances: 50_000,
	workflowCreationsPerSecond: 100,
	/**
	 * developers.cloudflare.com/d1/platform/limits (FAQ): a database runs one query at a time, so at
	 * 1 ms a query it does about 1,000 a second. 1 ms is the assumption (not published per query).
	 */
	d1QueryMs: 1,
} as const;

/** Memory and disk of the instance types (the Containers limits page). */
const SIZES: Record<string, { memoryGiB: number; diskGB: number }> = {
	"standard-1": { memoryGiB: 4, diskGB: 8 },
	"standard-2": { memoryGiB: 6, diskGB: 12 },
	"standard-3": { memoryGiB: 8, diskGB: 16 },
	"standard-4": { memoryGiB: 12, diskGB: 20 },
};

/**
 * Arrivals by hour of the day (UTC), relative to the mean: one evening peak where the users are
 * (Europe's afternoon into the Americas' working day, 14:00-20:00 UTC at 2.2× the mean) and a night
 * trough at a fifth of it. The shape is an assumption: uploads follow people's working hours.
 */
export const DIURNAL = [
	0.35, 0.25, 0.2, 0.2, 0.25, 0.35, 0.5, 0.7, 0.9, 1.05, 1.15, 1.25, 1.35, 1.5, 1.8, 2.1, 2.2, 2.2, 2.0, 1.75, 1.45,
	1.1, 0.8, 0.55,
].map((w, _, all) => (w * all.length) / all.reduce((a, b) => a + b, 0));

/**
 * Lengths of the videos submitted (minutes, share): talks, webinars and podcasts, most under an
 * hour, a tail of long streams. An assumption like the curve; the mean is 40 minutes.
 */
export const LENGTH_MIX: [minutes: number, share: number][] = [
	[5, 0.1],
	[10, 0.15],
	[20, 0.15],
	[30, 0.2],
	[45, 0.15],
	[60, 0.13],
	[90, 0.08],
	[180, 0.04],
];

export interface LoadInput {
	videosPerDay: number;
	vars: Record<string, string>;
	instanceType: string;
	vcpus: number;
	costs: MeasuredCosts;
	platform: Record<keyof typeof PLATFORM, unknown> & {
		containerColdStartSeconds: number;
		threadEfficiencyPerDoubling: number;
		r2MegabytesPerSecond: number;
		originMegabytesPerSecond: number;
		whisperRealtimeFactor: number;
		whisperCallSeconds: number;
		llmRankSeconds: number;
		stepSeconds: number;
	};
	video: { sourceMegabits: number; clipSeconds: readonly number[]; clipMegabits: number };
	/** Per video: D1 queries (fixed + per source minute), LLM calls per hour of speech, and their share. */
	d1: { queriesPerVideo: number; queriesPerMinute: number; queryMs: number };
	llm: { rankCallsPerHour: number; chapterCallsPerHour: number; proShare: number };
	/** Limits to use (what-ifs: a raised Workers AI limit). */
	limits?: Partial<Record<keyof typeof ACCOUNT_LIMITS, number>>;
	seed?: number;
	/** Seconds an instance stays up with nothing to do (RENDER_SLEEP_AFTER). */
	sleepAfterSeconds: number;
}

// ---------------------------------------------------------------- the event loop

class Heap {
	private items: { at: number; seq: number; fire: () => void }[] = [];
	private seq = 0;
	get size() {
		return this.items.length;
	}
	push(at: number, fire: () => void) {
		const item = { at, seq: this.seq++, fire };
		const a = this.items;
		a.push(item);
		for (let i = a.length - 1; i > 0;) {
			const p = (i - 1) >> 1;
			if (a[p]!.at < item.at || (a[p]!.at === item.at && a[p]!.seq < item.seq)) break;
			a[i] = a[p]!;
			a[p] = item;
			i = p;
		}
	}
	pop() {
		const a = this.items;
		const top = a[0]!;
		const last = a.pop()!;
		if (a.length > 0) {
			a[0] = last;
			for (let i = 0; ;) {
				const l = 2 * i + 1;
				const r = l + 1;
				let m = i;
				const less = (x: number, y: number) =>
					a[x]!.at < a[y]!.at || (a[x]!.at === a[y]!.at && a[x]!.seq < a[y]!.seq);
				if (l < a.length && less(l, m)) m = l;
				if (r < a.length && less(r, m)) m = r;
				if (m === i) break;
				[a[i], a[m]] = [a[m]!, a[i]!];
				i = m;
			}
		}
		return top;
	}
}

class Loop {
	now = 0;
	private readonly heap = new Heap();
	at(delay: number, fire: () => void) {
		this.heap.push(this.now + Math.max(0, delay), fire);
	}
	run() {
		while (this.heap.size > 0) {
			const next = this.heap.pop();
			this.now = next.at;
			next.fire();
		}
	}
}

/** A token bucket of `perMinute` requests: `take` calls back when the request may go. */
class RateLimit {
	private nextFree = 0;
	readonly minuteCounts = new Map<number, number>();
	constructor(
		private readonly loop: Loop,
		private readonly perMinute: number,
	) {}
	take(then: (waited: number) => void) {
		const gap = 60 / this.perMinute;
		const at = Math.max(this.loop.now, this.nextFree);
		this.nextFree = at + gap;
		const minute = Math.floor(at / 60);
		this.minuteCounts.set(minute, (this.minuteCounts.get(minute) ?? 0) + 1);
		const waited = at - this.loop.now;
		this.loop.at(waited, () => then(waited));
	}
	peakPerMinute(): number {
		return Math.max(0, ...this.minuteCounts.values());
	}
}

/** A FIFO with O(1) take from the front. */
class Fifo<T> {
	private items: T[] = [];
	private head = 0;
	get length() {
		return this.items.length - this.head;
	}
	push(item: T) {
		this.items.push(item);
	}
	shift(): T | undefined {
		if (this.head >= this.items.length) return undefined;
		const item = this.items[this.head++]!;
		if (this.head > 1024 && this.head * 2 > this.items.length) {
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
		return item;
	}
}

/** One container instance: CPU slots, a FIFO of jobs waiting for one, asleep after idling. */
class Instance {
	private free: number;
	private readonly waiting = new Fifo<{ want: number; start: (slots: number) => void }>();
	private lastBusy = Number.NEGATIVE_INFINITY;
	private running = 0;
	awakeSeconds = 0;
	private awakeSince: number | null = null;
	busySlotSeconds = 0;
	coldStarts = 0;

	constructor(
		private readonly loop: Loop,
		readonly slots: number,
		private readonly input: LoadInput,
		/** Slot-seconds busy by hour of the day, shared by the instances of one pool. */
		private readonly busyByHour: number[],
	) {
		this.free = slots;
	}

	/** Runs `cpuSeconds` of work on up to `want` slots (at least one), then calls back with the wait. */
	job(cpuSeconds: number, want: number, then: (waited: number) => void) {
		const asked = this.loop.now;
		const wake = this.wakeDelay();
		this.running++;
		this.loop.at(wake, () =>
			this.acquire(want, (slots) => {
				const { threadEfficiencyPerDoubling: e } = this.input.platform;
				const speed = slots <= 1 ? slots : slots * e ** Math.log2(slots);
				this.busySlotSeconds += cpuSeconds * (slots / speed);
				this.busyByHour[Math.min(47, Math.floor(this.loop.now / 3600))]! += cpuSeconds * (slots / speed);
				this.loop.at(cpuSeconds / speed, () => {
					this.release(slots);
					this.done();
					then(this.loop.now - asked - cpuSeconds / speed);
				});
			}),
		);
	}

	/** I/O on the instance (a download, an upload): no slot, but it keeps the instance up. */
	io(seconds: number, then: () => void) {
		const wake = this.wakeDelay();
		this.running++;
		this.loop.at(wake + seconds, () => {
			this.done();
			then();
		});
	}

	private wakeDelay(): number {
		const now = this.loop.now;
		if (this.running > 0 || now - this.lastBusy <= this.input.sleepAfterSeconds) {
			if (this.awakeSince === null) this.awakeSince = now;
			return 0;
		}
		if (this.awakeSince !== null) {
			this.awakeSeconds += this.lastBusy + this.input.sleepAfterSeconds - this.awakeSince;
		}
		this.awakeSince = now;
		this.coldStarts++;
		return this.input.platform.containerColdStartSeconds + this.input.costs.tierStartSeconds;
	}

	private done() {
		this.running--;
		this.lastBusy = this.loop.now;
	}

	private acquire(want: number, start: (slots: number) => void) {
		if (this.free > 0 && this.waiting.length === 0) {
			const slots = Math.min(want, this.free);
			this.free -= slots;
			start(slots);
		} else this.waiting.push({ want, start });
	}

	private release(slots: number) {
		this.free += slots;
		while (this.free > 0 && this.waiting.length > 0) {
			const next = this.waiting.shift()!;
			const given = Math.min(next.want, this.free);
			this.free -= given;
			next.start(given);
		}
	}

	closeAt(end: number) {
		if (this.awakeSince !== null)
			this.awakeSeconds += Math.min(end, this.lastBusy + this.input.sleepAfterSeconds) - this.awakeSince;
		this.awakeSince = null;
	}
}

// ---------------------------------------------------------------- one day

export interface VideoResult {
	minutes: number;
	arrivedAt: number;
	completionSeconds: number;
	/** Seconds more than the same video took alone on the idle deployment: what the day's load cost it (queues, cold starts, rate limits). */
	waitedSeconds: number;
	pro: boolean;
}

function random(seed: number) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Arrival times over a day: a Poisson process whose rate follows DIURNAL (thinning). */
export function arrivals(videosPerDay: number, rand: () => number): number[] {
	const peak = Math.max(...DIURNAL);
	const rateMax = (videosPerDay / 86_400) * peak;
	const times: number[] = [];
	for (let t = 0; ;) {
		t += -Math.log(1 - rand()) / rateMax;
		if (t >= 86_400) break;
		if (rand() < DIURNAL[Math.floor(t / 3600)]! / peak) times.push(t);
	}
	return times;
}

function lengthOf(rand: () => number): number {
	let x = rand();
	for (const [minutes, share] of LENGTH_MIX) {
		if (x < share) return minutes;
		x -= share;
	}
	return LENGTH_MIX[LENGTH_MIX.length - 1]![0];
}

export function simulateDay(input: LoadInput) {
	// Each length alone on the idle deployment (its instances started for it, nothing queued): the wait is the rest.
	const alone = new Map<number, number>();
	for (const [minutes] of LENGTH_MIX) {
		const single = runDay(input, [{ arrivedAt: 0, id: "vid_alone", minutes, pro: false }]);
		alone.set(minutes, single.results[0]!.completionSeconds);
	}
	const plans = (() => {
		const rand = random(input.seed ?? 20261128);
		return arrivals(input.videosPerDay, rand).map((arrivedAt, n) => ({
			arrivedAt,
			id: `vid_${n.toString(36)}`,
			minutes: lengthOf(rand),
			pro: rand() < input.llm.proShare,
		}));
	})();
	const day = runDay(input, plans);
	for (const r of day.results) r.waitedSeconds = Math.max(0, r.completionSeconds - alone.get(r.minutes)!);
	return {
		...day.report,
		aloneSeconds: Object.fromEntries(alone),
		thirtyMinute: summary(day.results.filter((r) => r.minutes === 30)),
		all: summary(day.results),
	};
}

type Plan = { arrivedAt: number; id: string; minutes: number; pro: boolean };

function runDay(input: LoadInput, plans: Plan[]) {
	const limits = { ...ACCOUNT_LIMITS, ...input.limits };
	const loop = new Loop();
	const settings = settingsOf(input.vars);
	const pools = renderPoolsOf(input.vars);
	const slots = Math.max(1, Math.floor(input.vcpus));
	const instances = new Map<string, Instance>();
	const busyByHour = { video: new Array<number>(48).fill(0), render: new Array<number>(48).fill(0) };
	const instance = (name: string) => {
		let i = instances.get(name);
		const pool = name.includes("video") ? "video" : "render";
		if (!i) instances.set(name, (i = new Instance(loop, slots, input, busyByHour[pool])));
		return i;
	};
	const whisper = new RateLimit(loop, limits.whisperPerMinute);
	// Text generation's limit is the account's, whichever model: ranking (either model) and chapters share it.
	const textGeneration = new RateLimit(loop, limits.llmPerMinute);
	const { platform, costs, video } = input;
	const results: VideoResult[] = [];
	let running = 0;
	let peakRunning = 0;
	const waitingForWorkflow = new Fifo<() => void>();
	const d1ByHour = new Array<number>(25).fill(0);
	const r2ByHour = new Array<number>(25).fill(0);

	/** D1's queueing delay for a query arriving in `hour` (M/D/1 at the hour's utilisation), seconds. */
	const d1Wait = (hour: number) => {
		const rho = (d1ByHour[hour]! * input.d1.queryMs) / 1000 / 3600;
		if (rho >= 1) return Number.POSITIVE_INFINITY;
		return (rho / (2 * (1 - rho))) * (input.d1.queryMs / 1000);
	};

	// First pass: each video's D1 queries, spread over the hours it runs (about its start's hour).
	for (const p of plans) {
		const q = input.d1.queriesPerVideo + input.d1.queriesPerMinute * p.minutes;
		d1ByHour[Math.floor(p.arrivedAt / 3600)]! += q;
	}

	for (const p of plans) {
		loop.at(p.arrivedAt, () => {
			const start = () => {
				running++;
				peakRunning = Math.max(peakRunning, running);
				runVideo(p, loop.now - p.arrivedAt);
			};
			if (running < limits.workflowInstances) start();
			else waitingForWorkflow.push(start);
		});
	}

	function runVideo(p: Plan, waitedForWorkflow: number) {
		const seconds = p.minutes * 60;
		const hour = Math.floor(p.arrivedAt / 3600);
		const queries = input.d1.queriesPerVideo + input.d1.queriesPerMinute * p.minutes;
		// D1's queueing over the video's queries (a day's delay where the database cannot keep up).
		const d1Delay = Math.min(86_400, queries * d1Wait(hour));
		void waitedForWorkflow;
		const sourceMB = (seconds * video.sourceMegabits) / 8;
		const mine = instance(renderInstance.video(input.vars, p.id));
		const step = platform.stepSeconds;
		r2ByHour[hour]! += 4 + video.clipSeconds.length * 4;
		const after = (n: number, then: () => void) => {
			let left = n;
			return () => {
				if (--left === 0) then();
			};
		};
		// download
		mine.io(sourceMB / platform.originMegabytesPerSecond + step, () => {
			let uploaded = false;
			let rankedClips: number[] | null = null;
			const maybeRender = () => {
				if (uploaded && rankedClips) renderAll();
			};
			mine.io(sourceMB / platform.r2MegabytesPerSecond + step, () => {
				uploaded = true;
				maybeRender();
			});
			const analysed = after(2, () => rankAndChapters());
			mine.job(seconds * costs.loudnessCpuPerSourceSecond, 1, () => {
				loop.at(step, analysed);
			});
			const chunks = planAudioChunks(0, seconds, settings.audioChunkSeconds);
			mine.job(seconds * costs.audioCpuPerSourceSecond, slots, () => {
				loop.at(step, () => transcribe(chunks, analysed));
			});
			function rankAndChapters() {
				const hours = seconds / 3600;
				const rankCalls = Math.max(1, Math.round(input.llm.rankCallsPerHour * hours));
				const chapterCalls = Math.max(1, Math.round(input.llm.chapterCallsPerHour * hours));
				const rankLimit = textGeneration;
				const ranked = after(rankCalls, () =>
					loop.at(platform.llmRankSeconds + (costs.offlineRankSeconds ?? 2) + step, () => {
						rankedClips = [...video.clipSeconds];
						maybeRender();
					}),
				);
				for (let k = 0; k < rankCalls; k++)
					rankLimit.take(() => {
						ranked();
					});
				for (let k = 0; k < chapterCalls; k++) textGeneration.take(() => undefined);
			}
			function renderAll() {
				const clips = rankedClips!;
				let next = 0;
				const finish = after(clips.length, () =>
					loop.at(step + d1Delay, () => {
						running--;
						const end = loop.now;
						results.push({
							minutes: p.minutes,
							arrivedAt: p.arrivedAt,
							completionSeconds: end - p.arrivedAt,
							waitedSeconds: 0,
							pro: p.pro,
						});
						waitingForWorkflow.shift()?.();
					}),
				);
				const lane = () => {
					if (next >= clips.length) return;
					const n = next++;
					const clip = clips[n]!;
					const on = instance(renderInstance.render(input.vars, p.id, n));
					on.io((clip * video.sourceMegabits) / 8 / platform.r2MegabytesPerSecond, () =>
						on.job(clip * costs.encodeCpuPerClipSecond, slots, () => {
							on.io((clip * video.clipMegabits) / 8 / platform.r2MegabytesPerSecond + step, () => {
								finish();
								lane();
							});
						}),
					);
				};
				for (let k = 0; k < Math.min(settings.fanOut.renders, clips.length); k++) lane();
			}
		});

		function transcribe(chunks: { duration: number }[], then: () => void) {
			let next = 0;
			const merged = after(chunks.length, () => loop.at(step, then));
			const lane = () => {
				if (next >= chunks.length) return;
				const chunk = chunks[next++]!;
				whisper.take(() => {
					loop.at(
						platform.whisperCallSeconds + chunk.duration / platform.whisperRealtimeFactor + step,
						() => {
							merged();
							lane();
						},
					);
				});
			};
			for (let k = 0; k < Math.min(settings.fanOut.transcriptions, chunks.length); k++) lane();
		}
	}

	loop.run();
	const end = Math.max(86_400, loop.now);
	for (const i of instances.values()) i.closeAt(end);

	// ---- what binds: each limit's peak use against it
	const size = SIZES[input.instanceType] ?? SIZES["standard-4"]!;
	const configuredInstances = Object.values(pools).reduce((a, b) => a + b, 0);
	const peakHourD1 = Math.max(...d1ByHour);
	const uses = {
		"Workers AI Whisper requests a minute": { peak: whisper.peakPerMinute(), limit: limits.whisperPerMinute },
		"Workers AI text generation requests a minute (both LLMs)": {
			peak: textGeneration.peakPerMinute(),
			limit: limits.llmPerMinute,
		},
		"video pool busy share of the peak hour": {
			peak: Math.max(...busyByHour.video) / (pools.video * slots * 3600),
			limit: 1,
		},
		"render pool busy share of the peak hour": {
			peak: Math.max(...busyByHour.render) / (pools.render * slots * 3600),
			limit: 1,
		},
		"container vCPUs (configured instances × vCPUs)": {
			peak: configuredInstances * input.vcpus,
			limit: limits.containerVcpus,
		},
		"container memory GiB": { peak: configuredInstances * size.memoryGiB, limit: limits.containerMemoryGiB },
		"Workflows concurrent instances": { peak: peakRunning, limit: limits.workflowInstances },
		"Workflows creations a second (peak hour's mean)": {
			peak: Math.max(...DIURNAL) * (input.videosPerDay / 86_400),
			limit: limits.workflowCreationsPerSecond,
		},
		"D1 busy share of the peak hour (one query at a time)": {
			peak: (peakHourD1 * input.d1.queryMs) / 1000 / 3600,
			limit: 1,
		},
	};
	const binding = Object.entries(uses)
		.map(([limit, u]) => ({
			limit,
			peak: round(u.peak),
			of: u.limit,
			used: round(u.peak / u.limit),
			headroom: round(u.limit / Math.max(u.peak, 1e-9)),
		}))
		.sort((a, b) => b.used - a.used);
	const renderNames = [...instances.keys()].filter((n) => !n.includes("video"));
	const busyShare = (names: string[]) =>
		names.length === 0
			? 0
			: round(names.reduce((s, n) => s + instances.get(n)!.busySlotSeconds, 0) / (names.length * slots * 86_400));
	const report = {
		videos: results.length,
		of: plans.length,
		binding,
		instances: {
			configured: pools,
			used: instances.size,
			renderBusyShareOfDay: busyShare(renderNames),
			videoBusyShareOfDay: busyShare([...instances.keys()].filter((n) => n.includes("video"))),
			coldStarts: [...instances.values()].reduce((s, i) => s + i.coldStarts, 0),
			awakeHours: round([...instances.values()].reduce((s, i) => s + i.awakeSeconds, 0) / 3600),
		},
		peakHourR2Operations: Math.max(...r2ByHour),
		unfinished: plans.length - results.length,
	};
	return { results, report };
}

function summary(results: VideoResult[]) {
	const sorted = (f: (r: VideoResult) => number) => results.map(f).sort((a, b) => a - b);
	const pct = (values: number[], p: number) =>
		values.length ? round(values[Math.min(values.length - 1, Math.floor(p * values.length))]!) : null;
	const done = sorted((r) => r.completionSeconds);
	const waits = sorted((r) => r.waitedSeconds);
	const peak = results.filter((r) => r.arrivedAt >= 15 * 3600 && r.arrivedAt < 18 * 3600);
	const peakDone = peak.map((r) => r.completionSeconds).sort((a, b) => a - b);
	return {
		videos: results.length,
		completionSeconds: { p50: pct(done, 0.5), p95: pct(done, 0.95), max: pct(done, 1) },
		waitSeconds: { p50: pct(waits, 0.5), p95: pct(waits, 0.95) },
		peakHoursCompletionSeconds: { p50: pct(peakDone, 0.5), p95: pct(peakDone, 0.95) },
	};
}

const round = (n: number) => Math.round(n * 1000) / 1000;
