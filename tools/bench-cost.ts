/**
 * `npm run bench:cost`: what an hour of source costs the operator on Cloudflare, stage by stage, for
 * ClipBasic and ClipPro: Cloudflare's list prices (tools/cost/prices.ts, each with its page and the
 * date it was read) times the resources a video uses, as measured here and recorded:
 *
 * - bench-results/pipeline.json (`npm run bench:pipeline`): the render tier's own account of each
 *   job (CPU seconds its processes spent: Containers bill CPU by active use), the Worker's requests,
 *   D1 rows read and written, R2 operations per stage and workflow steps (the metered Worker), the
 *   bytes kept in R2, and one status poll's use; from its 10- and 30-minute runs;
 * - bench-results/rank-step.json (`npm run bench:rank-step`): the LLM calls and the characters of
 *   their prompts and answers per hour of speech (about 4 characters a token);
 * - the production plan (tools/plan/simulate.ts, as `npm run bench:plan`): which container instance
 *   is busy when, for the memory and disk they are billed while up, and the wall time a client polls.
 *
 * What differs from the local stack is replaced by what production does: Whisper on Workers AI
 * (per audio minute, 2-minute chunks) instead of the tier's pocketsphinx; the LLM's tokens instead
 * of the offline ranker; status polls every 12.5 s (the advice: 10-15 s) instead of the bench's
 * every second; a 1080p source at 4 Mb/s and ten clips of 15-90 s (bench:plan's video) priced
 * from the measured CPU per source minute and per clip second. Nothing is measured again: it
 * runs offline in seconds and writes bench-results/cost.json.
 *
 *   npm run bench:cost
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { containerConfig, wranglerVars } from "../scripts/wrangler-vars.ts";
import { planAudioChunks } from "../src/worker/services/transcription/transcript.ts";
import { settingsOf } from "../src/worker/settings.ts";
import { BUDGET_VIDEO, DEFAULT_COSTS, PLATFORM, type MeasuredCosts } from "./plan/costs.ts";
import { simulate, type Video } from "./plan/simulate.ts";
import { fit as fitRuns, instanceBusySeconds, stageOf, tokenCost, usd, type Stage } from "./cost/arithmetic.ts";
import { COMPETITORS, MODELS, PRICES } from "./cost/prices.ts";
import { STATUS_POLLS } from "./bench/stage-names.ts";

const CHARS_PER_TOKEN = 4;
const POLL_EVERY_SECONDS = 12.5;
/** Memory and disk of each instance type (Containers limits page), for what an instance is billed while up. */
const INSTANCE = {
	"standard-1": { memoryGiB: 4, diskGB: 8 },
	"standard-2": { memoryGiB: 6, diskGB: 12 },
	"standard-3": { memoryGiB: 8, diskGB: 16 },
	"standard-4": { memoryGiB: 12, diskGB: 20 },
} as Record<string, { memoryGiB: number; diskGB: number }>;
/** How long a source is kept after its video completed (SOURCE_RETENTION_DAYS), and a month. */
const SOURCE_DAYS = 7;
const MONTH_DAYS = 30;

type StageCounts = {
	requests: number;
	d1Queries: number;
	rowsRead: number;
	rowsWritten: number;
	r2A: number;
	r2B: number;
};
interface Run {
	minutes: number;
	clips: number;
	clipSeconds: number;
	statusPolls: number;
	used: {
		tierJobs: Record<string, { jobs: number; seconds: number; cpuSeconds: number }>;
		workerCpuSeconds: number;
		worker: {
			requests: { api: number };
			workflows: { runs: number; byStep: Record<string, number> };
			byStage: Record<string, StageCounts>;
		};
		storedAfter: Record<string, { objects: number; bytes: number }>;
		perStatusPoll: { requests: number; rowsRead: number; rowsWritten: number };
	};
	stageSpans: Record<string, { steps: number }>;
}

const round = (n: number, digits = 4) => Number(n.toPrecision(digits));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------- inputs

/** The first recorded bench:pipeline report with metered runs: COST_PIPELINE, the default run's, or a 1-minute run's. */
const PIPELINE_FILE =
	process.env.COST_PIPELINE ??
	["bench-results/pipeline.json", "bench-results/pipeline-1min.json"].find(
		(f) =>
			existsSync(f) &&
			(JSON.parse(readFileSync(f, "utf8")) as { runs: { used?: unknown }[] }).runs.some((r) => r.used),
	) ??
	"bench-results/pipeline.json";
const pipeline = JSON.parse(readFileSync(PIPELINE_FILE, "utf8")) as {
	measuredAt: string;
	machine: string;
	runs: Run[];
};
const measured = pipeline.runs.filter((r) => r.used).sort((a, b) => a.minutes - b.minutes);
// The longer runs when there are any (a 1-minute video is mostly fixed costs).
const runs = measured.some((r) => r.minutes >= 10) ? measured.filter((r) => r.minutes >= 10) : measured;
if (runs.length === 0) throw new Error(`${PIPELINE_FILE} has no run with \`used\`: run npm run bench:pipeline`);
const rankStep = JSON.parse(readFileSync("bench-results/rank-step.json", "utf8")) as {
	measuredAt: string;
	results: {
		case: string;
		llmCalls: number;
		hours: number;
		promptCharsPerHour: number;
		answerCharsPerHour: number;
		chapters: { llmCalls: number; promptCharsPerHour: number; answerCharsPerHour: number } | null;
	}[];
};
const toml = readFileSync("wrangler.toml", "utf8");
const vars = wranglerVars(toml);
const instanceType = containerConfig(toml).instanceType;
const settings = settingsOf(vars);
const stageCosts: MeasuredCosts = existsSync("bench-results/stage-costs.json")
	? (JSON.parse(readFileSync("bench-results/stage-costs.json", "utf8")) as MeasuredCosts)
	: DEFAULT_COSTS;
/** RENDER_SLEEP_AFTER of src/worker/render-container.ts (read as text: the module needs the Workers runtime). */
const sleepAfterSeconds =
	Number(/RENDER_SLEEP_AFTER = "(\d+)m"/.exec(readFileSync("src/worker/render-container.ts", "utf8"))?.[1] ?? 2) * 60;

/** A quantity measured per run, fitted through the runs (arithmetic.ts). */
const fit = (of: (run: Run) => number) => fitRuns(runs, of);
const mean = (of: (run: Run) => number) => sum(runs.map(of)) / runs.length;

const STAGES: Stage[] = ["api", "source", "transcription", "ranking", "renders", "other"];
const STAGE_NAMES: Record<Stage, string> = {
	api: "submission, status polls, clip list and downloads",
	source: "download, store the source, audio, signals",
	transcription: "transcription (Whisper)",
	ranking: "chapters and ranking (LLM)",
	renders: "render clips, finish",
	other: "the rest (workflow start, cron share)",
};

function countsOf(run: Run, stage: Stage): StageCounts {
	const out: StageCounts = { requests: 0, d1Queries: 0, rowsRead: 0, rowsWritten: 0, r2A: 0, r2B: 0 };
	// The bench's own polls (every second, half of them answered by the status cache) are counted
	// apart by the metered Worker and left out: production's (every 12.5 s) are added per video below.
	for (const [name, counts] of Object.entries(run.used.worker.byStage))
		if (name !== STATUS_POLLS && stageOf(name) === stage)
			for (const k of Object.keys(out) as (keyof StageCounts)[]) out[k] += counts[k];
	return out;
}

const localChunksOf = (run: Run) => run.stageSpans.asr?.steps ?? 1;
const cpuOf = (run: Run, jobs: string[]) => sum(jobs.map((j) => run.used.tierJobs[j]?.cpuSeconds ?? 0));
const SOURCE_JOBS = ["/probe", "/jobs/download", "/jobs/upload-source", "/jobs/extract-audio", "/jobs/signals"];
const sourceCpu = fit((r) => cpuOf(r, SOURCE_JOBS));
const renderCpuPerClipSecond = mean((r) => cpuOf(r, ["/jobs/render-clip"]) / r.clipSeconds);
const workerCpu = fit((r) => r.used.workerCpuSeconds);
const storedPerMinute = (prefix: string) => mean((r) => (r.used.storedAfter[prefix]?.bytes ?? 0) / r.minutes);

// ---------------------------------------------------------------- one video

interface Line {
	stage: string;
	what: string;
	quantity: number;
	unit: string;
	usd: number;
	/** Shown, not in the totals: a lone video's instances idling until they sleep. */
	aloneOnly?: boolean;
}

async function costOf(minutes: number, model: "ClipBasic" | "ClipPro") {
	const video: Video = { ...BUDGET_VIDEO, minutes };
	const clips = video.clipSeconds.length;
	const clipSeconds = sum([...video.clipSeconds]);
	const planned = await simulate({ vars, instanceType, costs: stageCosts, platform: { ...PLATFORM }, video });
	const lines: Line[] = [];
	const add = (stage: Stage, what: string, quantity: number, unit: string, dollars: number, aloneOnly = false) =>
		lines.push({
			stage: STAGE_NAMES[stage],
			what,
			quantity: round(quantity),
			unit,
			usd: dollars,
			...(aloneOnly ? { aloneOnly } : {}),
		});

	// The Worker's requests, D1 rows and R2 operations per stage: the source's grow with its length,
	// transcription's with its chunks (production's are 2 minutes), the renders' with the clips.
	const chunks = planAudioChunks(0, minutes * 60, settings.audioChunkSeconds);
	const scaleOf = (stage: Stage) =>
		stage === "transcription"
			? (r: Run) => chunks.length / localChunksOf(r)
			: stage === "renders"
				? (r: Run) => clips / r.clips
				: null;
	for (const stage of STAGES) {
		const scale = scaleOf(stage);
		const measure = (k: keyof StageCounts) =>
			stage === "source"
				? fit((r) => countsOf(r, stage)[k])(minutes)
				: mean((r) => countsOf(r, stage)[k] * (scale?.(r) ?? 1));
		let requests = measure("requests");
		let rowsRead = measure("rowsRead");
		let rowsWritten = measure("rowsWritten");
		const r2A = measure("r2A");
		let r2B = measure("r2B");
		if (stage === "api") {
			const polls = Math.ceil(planned.wallSeconds / POLL_EVERY_SECONDS);
			const poll = mean((r) => r.used.perStatusPoll.requests);
			requests += polls * poll + 2 * clips; // each clip's file and thumbnail fetched once, through the Worker
			rowsRead += polls * mean((r) => r.used.perStatusPoll.rowsRead);
			rowsWritten += polls * mean((r) => r.used.perStatusPoll.rowsWritten);
			r2B += 2 * clips;
		}
		if (stage === "transcription") r2B += chunks.length; // Whisper's chunk read from R2 by the Worker (locally the tier's)
		add(stage, "Worker requests", requests, "requests", usd(requests, PRICES.workersRequests, 1e6));
		add(stage, "D1 rows read", rowsRead, "rows", usd(rowsRead, PRICES.d1RowsRead, 1e6));
		add(stage, "D1 rows written", rowsWritten, "rows", usd(rowsWritten, PRICES.d1RowsWritten, 1e6));
		add(stage, "R2 Class A operations", r2A, "operations", usd(r2A, PRICES.r2ClassA, 1e6));
		add(stage, "R2 Class B operations", r2B, "operations", usd(r2B, PRICES.r2ClassB, 1e6));
	}

	// Workers and Workflows CPU (the local workerd tree's CPU during the run: an upper bound, it
	// includes the local D1 and R2 simulators), and the workflow's invocations.
	const cpuMs = workerCpu(minutes) * 1000;
	add("other", "Worker and workflow CPU (upper bound)", cpuMs, "CPU ms", usd(cpuMs, PRICES.workersCpu, 1e6));
	const invocations = mean((r) => r.used.worker.workflows.runs);
	add(
		"other",
		"workflow invocations",
		invocations,
		"invocations",
		usd(invocations, PRICES.workflowsInvocations, 1e6),
	);

	// Containers: CPU as the tier accounted it, memory and disk while each instance is up.
	const size = INSTANCE[instanceType] ?? INSTANCE["standard-4"]!;
	const busy = instanceBusySeconds(planned.steps);
	const upSeconds = (names: string[]) => sum(names.map((n) => busy.get(n)! + PLATFORM.containerColdStartSeconds));
	const videoInstances = [...busy.keys()].filter((n) => n.includes("video"));
	const renderInstances = [...busy.keys()].filter((n) => !n.includes("video"));
	const containerStage = (stage: Stage, names: string[], cpuSeconds: number, egressBytes: number, jobs: number) => {
		add(stage, "container vCPU-seconds (active)", cpuSeconds, "vCPU-s", usd(cpuSeconds, PRICES.containerCpu, 1));
		const up = upSeconds(names);
		add(
			stage,
			"container memory GiB-s (up while busy)",
			up * size.memoryGiB,
			"GiB-s",
			usd(up * size.memoryGiB, PRICES.containerMemory, 1),
		);
		add(
			stage,
			"container disk GB-s (up while busy)",
			up * size.diskGB,
			"GB-s",
			usd(up * size.diskGB, PRICES.containerDisk, 1),
		);
		const idle = names.length * sleepAfterSeconds;
		const idleDollars =
			usd(idle * size.memoryGiB, PRICES.containerMemory, 1) + usd(idle * size.diskGB, PRICES.containerDisk, 1);
		add(
			stage,
			`alone: ${names.length} instances idle ${sleepAfterSeconds} s before they sleep (memory + disk)`,
			idle,
			"instance-s",
			idleDollars,
			true,
		);
		add(
			stage,
			"container egress (writes to R2 through the Worker)",
			egressBytes / 1e9,
			"GB",
			usd(egressBytes / 1e9, PRICES.containerEgress, 1),
		);
		const doSeconds = sum(names.map((n) => busy.get(n)!));
		add(
			stage,
			"Durable Object requests (a job each)",
			jobs,
			"requests",
			usd(jobs, PRICES.durableObjectRequests, 1e6),
		);
		add(
			stage,
			"Durable Object duration (128 MB while a job runs)",
			doSeconds * 0.125,
			"GB-s",
			usd(doSeconds * 0.125, PRICES.durableObjectDuration, 1e6),
		);
	};
	const sourceBytes = (minutes * 60 * video.sourceMegabits * 1e6) / 8;
	const audioBytes = storedPerMinute("audio") * minutes || minutes * 60 * 4000; // 32 kb/s MP3 when not kept
	containerStage("source", videoInstances, sourceCpu(minutes), sourceBytes + audioBytes, SOURCE_JOBS.length);
	const clipBytes = (clipSeconds * video.clipMegabits * 1e6) / 8;
	// The clips' files as the plan sizes them; their thumbnails as measured (the clips prefix holds both).
	const thumbnailBytes = clips * 150_000;
	containerStage(
		"renders",
		renderInstances,
		renderCpuPerClipSecond * clipSeconds,
		clipBytes + thumbnailBytes,
		clips + 1,
	);

	// Workers AI: Whisper per audio minute (the chunks' overlaps included), the LLMs per token.
	const audioMinutes = sum(chunks.map((c) => c.duration)) / 60;
	const whisperNeurons = audioMinutes * MODELS.whisper.neuronsPerAudioMinute;
	add(
		"transcription",
		`${MODELS.whisper.id}: ${chunks.length} chunks`,
		audioMinutes,
		"audio minutes",
		usd(whisperNeurons, PRICES.neurons, 1000),
	);
	const hours = minutes / 60;
	const llm = (
		stage: Stage,
		what: string,
		m: (typeof MODELS)["fast" | "strong"],
		promptChars: number,
		answerChars: number,
	) => {
		const input = promptChars / CHARS_PER_TOKEN;
		const output = answerChars / CHARS_PER_TOKEN;
		const cost = tokenCost(m, input, output, PRICES.neurons.usd);
		const inputUsd = usd(cost.inputNeurons, PRICES.neurons, 1000);
		add(stage, `${what}, ${m.id}: input tokens`, input, "tokens", inputUsd);
		add(stage, `${what}, ${m.id}: output tokens`, output, "tokens", cost.usd - inputUsd);
	};
	const ranked = rankStep.results.find((r) => r.case === model)!;
	llm(
		"ranking",
		"ranking",
		model === "ClipPro" ? MODELS.strong : MODELS.fast,
		ranked.promptCharsPerHour * hours,
		ranked.answerCharsPerHour * hours,
	);
	if (ranked.chapters)
		llm(
			"ranking",
			"chapters",
			MODELS.fast,
			ranked.chapters.promptCharsPerHour * hours,
			ranked.chapters.answerCharsPerHour * hours,
		);

	// R2 storage: the source for its retention, the clips for a month (kept until deleted), the
	// transcript, chapters and signals likewise.
	const gbMonths = (bytes: number, days: number) => (bytes / 1e9) * (days / MONTH_DAYS);
	const keptSmall =
		(storedPerMinute("transcripts") + storedPerMinute("chapters") + storedPerMinute("signals")) * minutes;
	add(
		"source",
		`R2 storage: the source, ${SOURCE_DAYS} days`,
		gbMonths(sourceBytes, SOURCE_DAYS),
		"GB-months",
		usd(gbMonths(sourceBytes, SOURCE_DAYS), PRICES.r2Storage, 1),
	);
	add(
		"renders",
		"R2 storage: clips and thumbnails, a month",
		gbMonths(clipBytes + thumbnailBytes, MONTH_DAYS),
		"GB-months",
		usd(gbMonths(clipBytes + thumbnailBytes, MONTH_DAYS), PRICES.r2Storage, 1),
	);
	add(
		"transcription",
		"R2 storage: transcript, chapters, signals, a month",
		gbMonths(keptSmall, MONTH_DAYS),
		"GB-months",
		usd(gbMonths(keptSmall, MONTH_DAYS), PRICES.r2Storage, 1),
	);

	const counted = lines.filter((l) => !l.aloneOnly);
	const byStage = Object.fromEntries(
		[...new Set(counted.map((l) => l.stage))].map((s) => [
			s,
			round(sum(counted.filter((l) => l.stage === s).map((l) => l.usd))),
		]),
	);
	const total = sum(counted.map((l) => l.usd));
	const alone = sum(lines.map((l) => l.usd));
	return {
		minutes,
		model,
		clips,
		clipSeconds,
		productionWallSeconds: round(planned.wallSeconds),
		usdPerVideo: round(total),
		usdPerSourceHour: round((total * 60) / minutes),
		usdPerSourceMinute: round(total / minutes),
		/** With every instance it used idling its 2 minutes before it sleeps (a lone video at a quiet hour). */
		usdPerSourceHourAlone: round((alone * 60) / minutes),
		byStage,
		lines: lines.map((l) => ({ ...l, usd: round(l.usd) })),
	};
}

// ---------------------------------------------------------------- report

const videos = [];
for (const minutes of [10, 30, 60])
	for (const model of ["ClipBasic", "ClipPro"] as const) videos.push(await costOf(minutes, model));
const headline = videos.filter((v) => v.minutes === 30);
const report = {
	computedAt: new Date().toISOString(),
	from: {
		pipeline: `${PIPELINE_FILE}, measured ${pipeline.measuredAt} (${runs.map((r) => `${r.minutes} min`).join(", ")}; ${pipeline.machine})`,
		rankStep: `bench-results/rank-step.json, measured ${rankStep.measuredAt}`,
		plan: `tools/plan/simulate.ts on wrangler.toml's production config (${instanceType}, ${vars.VIDEO_INSTANCES} video and ${vars.RENDER_INSTANCES} render instances), stage costs ${stageCosts.measuredAt}`,
	},
	assumptions: {
		video: `1080p source at ${BUDGET_VIDEO.sourceMegabits} Mb/s; ${BUDGET_VIDEO.clipSeconds.length} clips of ${BUDGET_VIDEO.clipSeconds.join(", ")} s at ${BUDGET_VIDEO.clipMegabits} Mb/s (bench:plan's video), whatever the source's length`,
		tokens: `${CHARS_PER_TOKEN} characters a token (prompts and answers as bench:rank-step records them; the answers are the schema's shape with a realistic number of items)`,
		polling: `a client polls status every ${POLL_EVERY_SECONDS} s while the video is processed (its production wall time, bench:plan), then lists the clips and fetches each clip and thumbnail once through the Worker`,
		storage: `the source is kept ${SOURCE_DAYS} days after the video completed (SOURCE_RETENTION_DAYS), clips and transcripts priced for a month`,
		included:
			"each product's included monthly usage and the $5 Workers Paid minimum are left out: these are the dollars one more video costs past them",
		containers: `memory and disk are billed for the instance type's size (${instanceType}) while an instance is up: from its first job (a ${PLATFORM.containerColdStartSeconds} s cold start) to its last; a lone video's instances also idle ${sleepAfterSeconds} s before they sleep (shown apart, not in the totals: at volume the next video's jobs fill that time)`,
		workerCpu:
			"the Worker's and workflow's CPU is the local workerd process tree's during the run, an upper bound (it includes the local D1 and R2 simulators)",
	},
	prices: PRICES,
	models: MODELS,
	perSourceHour: Object.fromEntries(
		videos.map((v) => [
			`${v.model}, ${v.minutes}-minute videos`,
			{ usd: v.usdPerSourceHour, usdAlone: v.usdPerSourceHourAlone, usdPerMinute: v.usdPerSourceMinute },
		]),
	),
	competitors: COMPETITORS.map((c) => ({
		...c,
		perSourceHourUsd: c.perMinuteUsd === null ? null : round(c.perMinuteUsd * 60),
	})),
	videos,
};
writeFileSync("bench-results/cost.json", `${JSON.stringify(report, null, 2)}\n`);

for (const v of headline) {
	console.log(
		`\n${v.model}, a ${v.minutes}-minute video: $${v.usdPerVideo} ($${v.usdPerSourceHour} per source hour, $${v.usdPerSourceHourAlone} with idle instances)`,
	);
	for (const [stage, dollars] of Object.entries(v.byStage)) console.log(`  ${stage.padEnd(52)} $${dollars}`);
}
console.log("\nper source hour:");
for (const [what, v] of Object.entries(report.perSourceHour))
	console.log(`  ${what.padEnd(30)} $${v.usd} ($${v.usdPerMinute} a minute)`);
console.log("\nwhat users pay elsewhere, per source hour:");
for (const c of report.competitors)
	console.log(
		`  ${c.service.padEnd(30)} ${c.perSourceHourUsd === null ? `no price found (${c.basis})` : `$${c.perSourceHourUsd}`}`,
	);
console.log("\nbench-results/cost.json");
