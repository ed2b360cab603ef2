/**
 * `npm run bench:plan -- --load`: the busy day (load.ts) at 1,000, 10,000 and 100,000 videos a day
 * on the configured deployment, which limit binds first at each, and the smallest pools that keep a
 * 30-minute video's p95 completion within 3 minutes at 10,000 a day. Writes
 * bench-results/plan-load.json.
 *
 * The measured inputs: D1 queries per video from bench:pipeline's metered Worker (fitted a + b ·
 * minutes over its runs, the bench's own status polls replaced by a client's every 12.5 s); the
 * LLM's calls per hour of speech from bench:rank-step; the per-second CPU costs as bench:plan uses.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { MeasuredCosts } from "./costs.ts";
import { ACCOUNT_LIMITS, DIURNAL, LENGTH_MIX, simulateDay, type LoadInput } from "./load.ts";
import type { Platform } from "./simulate.ts";

const RATES = [1_000, 10_000, 100_000];
const TARGET = { rate: 10_000, p95Seconds: 180 };
/** A 30-minute video's polls at 12.5 s over the ~70 s it takes. */
const PRODUCTION_POLLS = 6;

interface Deployment {
	vars: Record<string, string>;
	instanceType: string;
	costs: MeasuredCosts;
	platform: Platform;
}

export async function busyDay({ vars, instanceType, costs, platform }: Deployment) {
	const sleepAfterSeconds =
		Number(/RENDER_SLEEP_AFTER = "(\d+)m"/.exec(readFileSync("src/worker/render-container.ts", "utf8"))?.[1] ?? 2) *
		60;
	const d1 = d1Queries();
	const llm = llmCalls();
	const base = (videosPerDay: number, overrides: Partial<LoadInput> = {}): LoadInput => ({
		videosPerDay,
		vars,
		instanceType,
		vcpus: platform.vcpus[instanceType]!,
		costs,
		platform: platform as unknown as LoadInput["platform"],
		video: { sourceMegabits: 4, clipSeconds: [90, 75, 60, 60, 45, 45, 30, 30, 20, 15], clipMegabits: 5 },
		d1: { ...d1, queryMs: ACCOUNT_LIMITS.d1QueryMs },
		llm: { ...llm, proShare: 0.3 },
		sleepAfterSeconds,
		...overrides,
	});

	const started = performance.now();
	const atRates = RATES.map((rate) => ({ videosPerDay: rate, ...simulateDay(base(rate)) }));

	// The smallest pools (instances of the configured type) that keep the 30-minute p95 in budget at 10,000 a day.
	const maxInstances = Math.floor(ACCOUNT_LIMITS.containerVcpus / platform.vcpus[instanceType]!);
	const candidates: { video: number; render: number; p95: number; p50: number; total: number }[] = [];
	// The configured pools at 10,000 a day are simulated already.
	const days = new Map<string, ReturnType<typeof simulateDay>>([
		[`${vars.VIDEO_INSTANCES}/${vars.RENDER_INSTANCES}`, atRates[1]!],
	]);
	const tryPools = (video: number, render: number) => {
		const day =
			days.get(`${video}/${render}`) ??
			simulateDay(
				base(TARGET.rate, {
					vars: { ...vars, VIDEO_INSTANCES: String(video), RENDER_INSTANCES: String(render) },
				}),
			);
		days.set(`${video}/${render}`, day);
		const tried = {
			video,
			render,
			p50: day.thirtyMinute.completionSeconds.p50 ?? Infinity,
			p95: day.thirtyMinute.completionSeconds.p95 ?? Infinity,
			total: video + render,
		};
		candidates.push(tried);
		return tried;
	};
	// For each video pool, the render pool grown until the p95 is met (or the account's instances run out).
	for (const video of [8, 16])
		for (const render of [24, 32, 48, 64, 96, 128, 192, 256]) {
			if (video + render + 3 > maxInstances) break;
			if (tryPools(video, render).p95 <= TARGET.p95Seconds) break;
		}
	const meeting = candidates
		.filter((c) => c.p95 <= TARGET.p95Seconds)
		.sort((a, b) => a.total - b.total || a.p95 - b.p95);
	const chosen = meeting[0] ?? null;
	const chosenDay = chosen ? days.get(`${chosen.video}/${chosen.render}`)! : null;

	// 100,000 a day: ten times the chosen pools would need more vCPUs than the account has, so the
	// render pool takes what the account's vCPUs leave (a quarter of the videos' growth for the video
	// pool, which was a sixth busy at 10,000); then the same with Workers AI's limits raised to what
	// ten times 10,000's peak asks (a limit increase is a request to Cloudflare, not a setting).
	const big = chosen ?? { video: 32, render: 96 };
	const scaledVideo = big.video * 4;
	const scaledVars = {
		...vars,
		VIDEO_INSTANCES: String(scaledVideo),
		RENDER_INSTANCES: String(Math.min(big.render * 10, maxInstances - 3 - scaledVideo)),
	};
	const at10k = chosenDay ?? atRates[1]!;
	const peakOf = (limit: string) => at10k.binding.find((b) => b.limit === limit)?.peak ?? 0;
	const raised = {
		whisperPerMinute: Math.ceil((peakOf("Workers AI Whisper requests a minute") * 12) / 500) * 500,
		llmPerMinute: Math.ceil((peakOf("Workers AI text generation requests a minute (both LLMs)") * 12) / 500) * 500,
	};
	const at100k = {
		scaledPools: { vars: pick(scaledVars), ...simulateDay(base(100_000, { vars: scaledVars })) },
		withRaisedAiLimits: {
			vars: pick(scaledVars),
			limits: raised,
			...simulateDay(base(100_000, { vars: scaledVars, limits: raised })),
		},
	};

	const report = {
		computedAt: new Date().toISOString(),
		seconds: Math.round((performance.now() - started) / 100) / 10,
		model: {
			diurnal: {
				hourlyRelativeToMean: DIURNAL.map((w) => Math.round(w * 100) / 100),
				about: "one peak 14:00-20:00 UTC at 2.2x the mean, a night trough at a fifth (an assumption)",
			},
			lengths: { mix: LENGTH_MIX, meanMinutes: LENGTH_MIX.reduce((s, [m, p]) => s + m * p, 0) },
			clips: "ten clips of 15-90 s per video (bench:plan's), ClipPro for 30% of videos",
			d1,
			llm,
			limits: ACCOUNT_LIMITS,
			notYetModelled:
				"per-workspace limits (MAX_CONCURRENT_VIDEOS: thousands of workspaces each under it), failures and retries",
		},
		deployment: pick(vars),
		atRates: atRates.map(trim),
		target: TARGET,
		tried: candidates,
		chosen: chosen ? { ...chosen, day: trim({ videosPerDay: TARGET.rate, ...chosenDay! }) } : null,
		at100k: {
			scaledPools: trim({ videosPerDay: 100_000, ...at100k.scaledPools }),
			withRaisedAiLimits: trim({ videosPerDay: 100_000, ...at100k.withRaisedAiLimits }),
		},
	};
	writeFileSync("bench-results/plan-load.json", `${JSON.stringify(report, null, 2)}\n`);

	for (const r of report.atRates)
		print(
			`${r.videosPerDay} videos a day on the configured pools (${vars.VIDEO_INSTANCES} video, ${vars.RENDER_INSTANCES} render)`,
			r,
		);
	if (report.chosen)
		print(
			`10,000 a day with ${report.chosen.video} video and ${report.chosen.render} render instances (the smallest that meets p95 ≤ 180 s)`,
			report.chosen.day,
		);
	else console.log("\nno pool size within the account's instances meets p95 ≤ 180 s at 10,000 a day");
	print(
		`100,000 a day, pools scaled (${scaledVars.VIDEO_INSTANCES} video, ${scaledVars.RENDER_INSTANCES} render)`,
		report.at100k.scaledPools,
	);
	print(
		`100,000 a day, the same with Workers AI limits raised (${raised.whisperPerMinute} Whisper and ${raised.llmPerMinute} LLM requests a minute)`,
		report.at100k.withRaisedAiLimits,
	);
	console.log(`\nbench-results/plan-load.json (${report.seconds} s)`);
}

type Day = ReturnType<typeof simulateDay> & { videosPerDay: number };

function trim(day: Day) {
	return {
		videosPerDay: day.videosPerDay,
		videos: day.videos,
		unfinished: day.unfinished,
		thirtyMinute: day.thirtyMinute,
		all: day.all,
		bindsFirst: day.binding[0],
		binding: day.binding,
		instances: day.instances,
	};
}

function print(title: string, r: ReturnType<typeof trim>) {
	const t = r.thirtyMinute;
	console.log(`\n${title}`);
	console.log(
		`  30-minute videos (${t.videos}): completion p50 ${t.completionSeconds.p50} s, p95 ${t.completionSeconds.p95} s; waiting p50 ${t.waitSeconds.p50} s, p95 ${t.waitSeconds.p95} s (peak hours p95 ${t.peakHoursCompletionSeconds.p95} s)`,
	);
	for (const b of r.binding.slice(0, 4))
		console.log(
			`  ${b.limit.padEnd(56)} peak ${b.peak} of ${b.of} (${Math.round(b.used * 100)}%, headroom ${b.headroom}x)`,
		);
}

const pick = (vars: Record<string, string>) => ({
	VIDEO_INSTANCES: vars.VIDEO_INSTANCES,
	RENDER_INSTANCES: vars.RENDER_INSTANCES,
	TRANSCRIBE_PARALLELISM: vars.TRANSCRIBE_PARALLELISM,
	RENDER_PARALLELISM: vars.RENDER_PARALLELISM,
	AUDIO_CHUNK_SECONDS: vars.AUDIO_CHUNK_SECONDS,
});

/** D1 queries per video (fixed + per source minute) from bench:pipeline's metered runs, or an estimate. */
function d1Queries(): { queriesPerVideo: number; queriesPerMinute: number; from: string } {
	if (existsSync("bench-results/pipeline.json")) {
		const report = JSON.parse(readFileSync("bench-results/pipeline.json", "utf8")) as {
			measuredAt: string;
			runs: {
				minutes: number;
				statusPolls: number;
				used?: { worker: { d1: { queries: number } }; perStatusPoll: { d1Queries: number } };
			}[];
		};
		const runs = report.runs.filter((r) => r.used).sort((a, b) => a.minutes - b.minutes);
		if (runs.length >= 2) {
			const q = (r: (typeof runs)[number]) =>
				r.used!.worker.d1.queries -
				r.statusPolls * r.used!.perStatusPoll.d1Queries +
				PRODUCTION_POLLS * r.used!.perStatusPoll.d1Queries;
			const [a, b] = [runs[0]!, runs[runs.length - 1]!];
			const perMinute = (q(b) - q(a)) / (b.minutes - a.minutes);
			return {
				queriesPerVideo: Math.max(0, q(a) - perMinute * a.minutes),
				queriesPerMinute: perMinute,
				from: `bench:pipeline ${report.measuredAt}`,
			};
		}
	}
	return { queriesPerVideo: 150, queriesPerMinute: 3, from: "an estimate (no metered bench:pipeline runs)" };
}

/** LLM calls per hour of speech (ranking by the model, chapters by the fast one) from bench:rank-step. */
function llmCalls(): { rankCallsPerHour: number; chapterCallsPerHour: number; from: string } {
	const file = "bench-results/rank-step.json";
	if (existsSync(file)) {
		const report = JSON.parse(readFileSync(file, "utf8")) as {
			measuredAt: string;
			results: { case: string; hours: number; llmCalls: number; chapters?: { llmCalls: number } | null }[];
		};
		const basic = report.results.find((r) => r.case === "ClipBasic");
		if (basic?.chapters)
			return {
				rankCallsPerHour: basic.llmCalls / basic.hours,
				chapterCallsPerHour: basic.chapters.llmCalls / basic.hours,
				from: `bench:rank-step ${report.measuredAt} (ClipBasic's calls; ClipPro's two passes make more, counted the same here)`,
			};
	}
	return { rankCallsPerHour: 4.5, chapterCallsPerHour: 4.7, from: "an estimate" };
}
