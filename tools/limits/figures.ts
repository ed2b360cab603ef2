/**
 * docs/limits.md's figures, never typed: each sits between `<!--f:key-->` and `<!--/f-->`, and is
 * what FIGURES[key] renders from the files the measurements wrote (bench-results/limits.json by
 * `npm run limits:report`, limits-runtime.json by the Workers-runtime tests it runs,
 * rank-step.json by `npm run bench:rank-step`) or from the code's own constants. `limits:report`
 * writes them into the doc; `--check` (in `make checks`) fails when the doc says anything else,
 * names a figure that does not exist, or has a row whose "Checked by" neither names the tests that
 * assert it (files that exist) nor says it is measured only.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OBJECT_UPLOAD_LIMITS, objectParts } from "../../packages/contract/src/object-upload.ts";
import { CONTAINER_INSTANCE_TYPES, largestSourceOnDisk } from "../../packages/contract/src/instance-types.ts";
import { UPLOAD_LIMITS, planParts } from "../../src/worker/domain/upload-limits.ts";
import { SLOW_CALL_SLOTS } from "../../src/worker/lib/outgoing-slots.ts";
import { RATE_LIMIT_PAUSE_MS } from "../../src/worker/services/llm/retry.ts";
import { containerConfig, wranglerVars } from "../../scripts/wrangler-vars.ts";
import type { CaseResult } from "../bench-rank-step.ts";
import { PLATFORM } from "../plan/costs.ts";
import type { ModelCalls } from "./model-calls.ts";
import type { WorkerdRankReport } from "./rank-in-workerd.ts";
import { neuronsPerHour, rateFigures, WORKERS_AI_RATE_LIMITS } from "./workers-ai-rates.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const DOC = join(ROOT, "docs", "limits.md");
export const REPORT_FILE = join(ROOT, "bench-results", "limits.json");
export const RUNTIME_FILE = join(ROOT, "bench-results", "limits-runtime.json");
export const RANK_STEP_FILE = join(ROOT, "bench-results", "rank-step.json");

/** bench-results/limits.json: what `npm run limits:report` measured or counted itself. */
export interface LimitsReport {
	measuredAt: string;
	workerd: string;
	rankInWorkerd: WorkerdRankReport;
	deployCheck: { totalBytes: number; gzipBytes: number; startupActiveMs: number | null };
	modelCalls: { thirtyMinutes: ModelCalls; threeHours: ModelCalls };
	selfCheck: {
		ok: boolean;
		ffmpeg: string | null;
		ytDlp: string | null;
		/** What runs but is not what the image runs (an old yt-dlp, another ffmpeg). */
		warnings: string[];
		filters: number;
		encoders: number;
		fontFiles: number;
	};
}

interface Largest {
	value: number;
	where: string;
}

/** bench-results/limits-runtime.json (test/setup/platform-limits-reporter.ts). */
export interface RuntimeFigures {
	measuredAt: string;
	files: string[];
	guard: Record<string, Largest>;
	figures: Record<string, unknown>;
}

export interface LimitsInputs {
	report: LimitsReport;
	runtime: RuntimeFigures;
	rankStep: { measuredAt: string; results: CaseResult[] };
	toml: string;
}

export function readInputs(): LimitsInputs {
	const json = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
	return {
		report: json(REPORT_FILE),
		runtime: json(RUNTIME_FILE),
		rankStep: json(RANK_STEP_FILE),
		toml: readFileSync(join(ROOT, "wrangler.toml"), "utf8"),
	};
}

const n = (value: number) => value.toLocaleString("en");
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

function figure<T>(runtime: RuntimeFigures, name: string): T {
	if (!(name in runtime.figures))
		throw new Error(`limits: no figure "${name}" in ${RUNTIME_FILE} (run npm run limits:report)`);
	return runtime.figures[name] as T;
}

/** The guard's largest value, its unit, and where it was met (ids, which change every run, left out). */
function guard(runtime: RuntimeFigures, key: string, unit = ""): string {
	const largest = runtime.guard[key];
	if (!largest) throw new Error(`limits: no guard value "${key}" in ${RUNTIME_FILE}`);
	const bare = largest.where
		.trim()
		.replace(/\b(vid|clp)_[\w-]+/g, "$1_…")
		.replaceAll("|", "\\|");
	const where = bare.length > 60 ? `${bare.slice(0, 57)}…` : bare;
	return `${n(largest.value)}${unit}${where ? ` (\`${where.replaceAll("`", "'")}\`)` : ""}`;
}

function rankCase<T extends { case: string }>(cases: T[], which: string): T {
	const found = cases.find((c) => c.case === which);
	if (!found) throw new Error(`limits: no ${which} case`);
	return found;
}

const perCase = <T extends { case: string }>(cases: T[], value: (c: T) => string) =>
	`${value(rankCase(cases, "offline"))} offline, ${value(rankCase(cases, "ClipBasic"))} ClipBasic, ${value(rankCase(cases, "ClipPro"))} ClipPro`;

/** Every figure of docs/limits.md, by key. */
export const FIGURES: Record<string, (inputs: LimitsInputs) => string> = {
	"rank.workerd": ({ report }) => {
		const cases = report.rankInWorkerd.cases;
		const longest = Math.min(...cases.map((c) => c.largestHoursAt128MB));
		const searched = cases[0]!.searchedUpToHours;
		return `workerd ${report.workerd}, 3 h (${n(cases[0]!.words)} words): ranks under a V8 heap capped at ${perCase(cases, (c) => `${c.smallestCapMB} MB`)}, of which ${rankCase(cases, "offline").before.totalMB} MB is the Worker's code before any work; up to ${longest} h${longest >= searched ? " (the longest tried)" : ""} rank under 128 MB`;
	},
	"rank.workerdUncapped": ({ report }) => {
		const cases = report.rankInWorkerd.cases;
		return `${Math.max(...cases.map((c) => c.after.totalMB))} MB committed after 3 h, ${Math.min(...cases.map((c) => c.after.usedMB))}-${Math.max(...cases.map((c) => c.after.usedMB))} MB of it in use`;
	},
	"rank.twoAtOnce": ({ report }) => `${report.rankInWorkerd.twoAtOnceSmallestCapMB ?? "more than 128"} MB`,
	"rank.node": ({ rankStep }) =>
		`Node, 3 h: V8 heap committed ${perCase(rankStep.results, (c) => `${Math.round(c.heapTotalMB)} MB`)} (of which ${Math.round(rankCase(rankStep.results, "offline").baselineHeapMB)} MB is the code and the English model before any work)`,
	"rank.cpu": ({ rankStep }) =>
		`3 h: ${perCase(rankStep.results, (c) => `${(c.cpuMs / 1000).toFixed(2)} s`)} (Node on this machine; the model's own time is not the Worker's CPU)`,
	startup: ({ report }) => `${report.deployCheck.startupActiveMs ?? "?"} ms of CPU (one run, on a loaded machine)`,
	bundle: ({ report }) =>
		`${mb(report.deployCheck.totalBytes)} MB, **${mb(report.deployCheck.gzipBytes)} MB compressed**`,
	uploadParts: () =>
		`User parts ${UPLOAD_LIMITS.defaultPartBytes / MiB} MiB by default, ${UPLOAD_LIMITS.maxPartBytes / MiB} MiB at most (${(UPLOAD_LIMITS.maxPartBytes / 1e6).toFixed(1)} MB); tier parts ${OBJECT_UPLOAD_LIMITS.partBytes / MiB} MiB (${(OBJECT_UPLOAD_LIMITS.partBytes / 1e6).toFixed(1)} MB)`,
	subrequests: ({ runtime, report }) => {
		const three = report.modelCalls.threeHours;
		return `R2: ${guard(runtime, "r2OpsPerInvocation", " operations")} in one invocation; model calls in one rank step: ${three.rank.ClipBasic} (ClipBasic, 3 h) and ${three.rank.ClipPro} (ClipPro), four times that if every call needed all its retries`;
	},
	connections: ({ runtime }) => {
		const unshaped = figure<{ requests: number; mostWaitingAtOrigin: number; failed: number }>(
			runtime,
			"connections.unshaped",
		);
		const shaped = figure<{ requests: number; mostWaitingAtOrigin: number; waitedForSlot: number; failed: number }>(
			runtime,
			"connections.shaped",
		);
		return `workerd here: ${unshaped.mostWaitingAtOrigin} of ${unshaped.requests} fetches of one invocation waited at the origin at once, ${unshaped.failed} failed (not enforced locally). Through a run's slots: ${shaped.mostWaitingAtOrigin} at a time, ${shaped.waitedForSlot} waited their turn, ${shaped.failed} failed`;
	},
	"d1.parameters": ({ runtime }) => guard(runtime, "boundParameters"),
	"d1.statement": ({ runtime }) => guard(runtime, "statementBytes", " bytes"),
	"d1.value": ({ runtime }) => guard(runtime, "valueBytes", " bytes"),
	"d1.queries": ({ runtime }) => guard(runtime, "queriesPerInvocation"),
	"workflow.steps": ({ runtime }) => {
		const worst = figure<{ steps: number; waitingSteps: number; chunks: number; clips: number }>(
			runtime,
			"steps.worstFirstRun",
		);
		const alone = figure<{ steps: number }>(runtime, "steps.withoutWait");
		const others = figure<{ reprocess: number; clipEdit: number }>(runtime, "steps.reprocessAndEdit");
		return `**${n(worst.steps)}** steps: a 3 h source (${worst.chunks} chunks), ${worst.clips} clips (split-clips' maximum), every look, a day's wait (${n(worst.waitingSteps)} steps) and a failure at the very end. Without the wait: ${alone.steps}. A reprocess of it: ${others.reprocess}. A clip edit: ${others.clipEdit}`;
	},
	"workflow.results": ({ runtime }) => {
		const worst = figure<{ largestResultBytes: number; largestResultStep: string }>(runtime, "steps.worstFirstRun");
		return `${guard(runtime, "stepResultBytes", " bytes")} in real runs; ${n(worst.largestResultBytes)} bytes ("${worst.largestResultStep}" at the worst case's bounds); params ${guard(runtime, "paramsBytes", " bytes")}`;
	},
	"workflow.instanceId": ({ runtime }) => `${figure<number>(runtime, "steps.longestInstanceId")} characters`,
	multipart: () => {
		const user = planParts(4 * GiB)!;
		const tier = objectParts(4 * GiB);
		return `A 4 GiB source: ${user.partCount} user parts of ${user.partSize / MiB} MiB, or ${tier.count} tier parts of ${tier.partBytes / MiB} MiB`;
	},
	disk: ({ toml }) => {
		const configured = containerConfig(toml).instanceType as keyof typeof CONTAINER_INSTANCE_TYPES;
		const holds = (type: keyof typeof CONTAINER_INSTANCE_TYPES) =>
			`${type} (${CONTAINER_INSTANCE_TYPES[type].diskBytes / 1e9} GB) holds sources up to ${(largestSourceOnDisk(CONTAINER_INSTANCE_TYPES[type].diskBytes) / 1e9).toFixed(2)} GB`;
		return `${holds(configured)} (configured); ${holds("standard-2")}; ${holds("standard-1")}; the default limit is ${((4 * GiB) / 1e9).toFixed(2)} GB`;
	},
	selfCheck: ({ report }) => {
		const s = report.selfCheck;
		const warned =
			s.warnings.length > 0
				? ` (warned: ${s.warnings.length === 1 ? "" : `${s.warnings.length}, first: `}${s.warnings[0]!.slice(0, 90)}…)`
				: "";
		return `Self-check ${s.ok ? "passes" : "FAILS"} on this machine: ffmpeg ${s.ffmpeg}, ${s.filters} filters, ${s.encoders} encoders, ${s.fontFiles} font files, yt-dlp ${s.ytDlp}${warned}`;
	},
	models: ({ toml }) => {
		const vars = wranglerVars(toml);
		return `\`LLM_MODEL\` = \`${vars.LLM_MODEL}\`, \`LLM_FAST_MODEL\` = \`${vars.LLM_FAST_MODEL}\` (production)`;
	},
	asr: ({ report, toml }) => {
		const r = rateFigures(report.modelCalls.thirtyMinutes, Number(wranglerVars(toml).AUDIO_CHUNK_SECONDS));
		const callSeconds =
			Number(wranglerVars(toml).AUDIO_CHUNK_SECONDS) / PLATFORM.whisperRealtimeFactor +
			PLATFORM.whisperCallSeconds;
		return `${WORKERS_AI_RATE_LIMITS.automaticSpeechRecognitionPerMinute} a minute. A 30-minute video makes ${r.whisperPerVideo} requests: **${r.videosPerMinuteAtAsrLimit} such videos submitted a minute** (${n(r.sourceMinutesPerMinuteAtAsrLimit)} minutes of source a minute) reach it; or ${r.videosTranscribingAtOnceAtAsrLimit} videos transcribing at the same moment (each up to ${SLOW_CALL_SLOTS} calls at once of ${callSeconds} s as bench:plan assumes: ${r.whisperPerMinuteWhileTranscribing} a minute)`;
	},
	textGeneration: ({ report, toml }) => {
		const chunk = Number(wranglerVars(toml).AUDIO_CHUNK_SECONDS);
		const thirty = rateFigures(report.modelCalls.thirtyMinutes, chunk);
		const three = rateFigures(report.modelCalls.threeHours, chunk);
		const calls = report.modelCalls.thirtyMinutes;
		return `${WORKERS_AI_RATE_LIMITS.textGenerationPerMinute} a minute. A 30-minute video makes ${thirty.clipBasicLlmPerVideo} calls with ClipBasic (ranking ${calls.rank.ClipBasic}, chapters ${calls.chapters}) and ${thirty.clipProLlmPerVideo} with ClipPro (ranking ${calls.rank.ClipPro}): **${thirty.videosPerMinuteAtTextLimitClipBasic} ClipBasic or ${thirty.videosPerMinuteAtTextLimitClipPro} ClipPro videos submitted a minute** reach it (a 3-hour video: ${three.clipBasicLlmPerVideo} and ${three.clipProLlmPerVideo} calls)`;
	},
	rateLimitPause: () => `${RATE_LIMIT_PAUSE_MS / 1000} s`,
	neurons: ({ rankStep }) => {
		const basic = rankCase(rankStep.results, "ClipBasic");
		// ClipBasic answers at most three moments per 15-minute chunk: about 2,000 output tokens an hour (an estimate).
		const perHour = neuronsPerHour(basic.promptCharsPerHour, 2_000);
		return `Whisper ≈ ${n(perHour.whisper)} neurons per hour of audio (${perHour.whisperHoursFreePerDay} h of it a day on the free 10,000); ClipBasic ≈ ${n(perHour.clipBasic)} per hour (its prompts measured by bench:rank-step)`;
	},
};

const MARKER = /<!--f:([\w.]+)-->([\s\S]*?)<!--\/f-->/g;

/** The doc with every figure rendered from `inputs`. */
export function renderDoc(doc: string, inputs: LimitsInputs): string {
	return doc.replace(MARKER, (_all, key: string) => {
		const render = FIGURES[key];
		if (!render) throw new Error(`limits: docs/limits.md names a figure that does not exist: ${key}`);
		return `<!--f:${key}-->${render(inputs)}<!--/f-->`;
	});
}

/**
 * What is wrong with the doc: figures that differ from what the files say, unknown figures, and
 * table rows whose "Checked by" neither names existing test files (`Asserted:`) nor says
 * `Measured only`.
 */
export function docProblems(doc: string, inputs: LimitsInputs): string[] {
	const problems: string[] = [];
	for (const [, key, text] of doc.matchAll(MARKER)) {
		const render = FIGURES[key!];
		if (!render) {
			problems.push(`unknown figure ${key}`);
			continue;
		}
		const expected = render(inputs);
		if (text !== expected) problems.push(`figure ${key} says "${text}", the measurements say "${expected}"`);
	}
	problems.push(...rowProblems(doc));
	return problems;
}

function rowProblems(doc: string): string[] {
	const problems: string[] = [];
	let checkedBy = -1;
	for (const line of doc.split("\n")) {
		if (!line.startsWith("|")) {
			checkedBy = -1;
			continue;
		}
		const cells = line
			.split(/(?<!\\)\|/)
			.slice(1, -1)
			.map((c) => c.trim());
		if (checkedBy === -1) {
			checkedBy = cells.indexOf("Checked by");
			continue;
		}
		if (/^-+$/.test(cells[0] ?? "")) continue;
		const cell = cells[checkedBy] ?? "";
		if (cell.startsWith("**Measured only**")) continue;
		if (!cell.startsWith("**Asserted**")) {
			problems.push(
				`row "${cells[0]}": "Checked by" is neither **Asserted** (with its tests) nor **Measured only**`,
			);
			continue;
		}
		const files = [...cell.matchAll(/`([\w./-]+\.(?:ts|mjs|sh))`/g)].map((m) => m[1]!);
		if (files.length === 0) problems.push(`row "${cells[0]}": **Asserted** names no test file`);
		for (const file of files)
			if (!existsSync(join(ROOT, file))) problems.push(`row "${cells[0]}": ${file} does not exist`);
	}
	return problems;
}
