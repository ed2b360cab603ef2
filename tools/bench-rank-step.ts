/**
 * `npm run bench:rank-step`: the "rank moments" step's work on a 3-hour transcript, against the
 * platform's limits for one step: 30 s of CPU (Workflows' default per step; wrangler.toml sets no
 * `limits.cpu_ms`) and 128 MB of memory per isolate. Each case runs in a fresh Node process (the
 * same V8 as workerd) whose old space is capped at 128 MB, so a case that needs more dies instead of
 * passing; it measures the CPU time of parsing the stored transcript JSON and ranking it, and the
 * heap it held. The LLM cases use an instant stand-in model (what is measured is this code's own
 * work, not the model's), which also records the prompts: their size per hour of speech gives the
 * model cost in the README (about 4 characters a token).
 *
 * `--short` ranks 30 minutes instead (make test runs it: the cap still applies). Writes
 * bench-results/rank-step.json (full run only). Measured on whatever else the machine is doing:
 * CPU time is the process's own, so other load inflates it little.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpuUsage, memoryUsage } from "node:process";
import { getHeapStatistics } from "node:v8";
import { defaultConfig } from "../src/worker/domain/video-config.ts";
import { rankMoments } from "@clipforge/moments";
import { findChapters } from "@clipforge/moments/find-chapters";
import type { Transcript } from "@clipforge/moments/text";
import { instantModel } from "./quality/instant-model.ts";
import { readTalkSplit } from "./quality/talk-corpus.ts";
import { turnsToTranscript, type Turn } from "./quality/turns-to-transcript.ts";

/** Workflows' CPU time per step unless `limits.cpu_ms` raises it (to 5 min at most). */
export const STEP_CPU_LIMIT_MS = 30_000;
/** Memory of one Worker isolate. */
export const ISOLATE_MEMORY_MB = 128;

const CASES = ["offline", "ClipBasic", "ClipPro"] as const;
type Case = (typeof CASES)[number];

export interface CaseResult {
	case: Case;
	hours: number;
	words: number;
	transcriptJsonMB: number;
	cpuMs: number;
	/** Heap in use before the work (the code loaded, the English model included), after a full GC. */
	baselineHeapMB: number;
	/** V8's committed heap at the end (it seldom shrinks while busy): the most this case held. */
	heapTotalMB: number;
	heapUsedMB: number;
	clips: number;
	llmCalls: number;
	/** Characters of every prompt sent, per hour of speech. */
	promptCharsPerHour: number;
	/** Characters of the answers (the stand-in answers in the schema's shape, a real model's size), per hour. */
	answerCharsPerHour: number;
	/** The "find chapters" step beside it (always the fast model): its calls, prompt and answer characters per hour. */
	chapters: { llmCalls: number; promptCharsPerHour: number; answerCharsPerHour: number } | null;
}

/** Talk episodes of the corpus, one after the other, until `seconds` of speech (Whisper's punctuated style). */
export function longTranscript(seconds: number): Transcript {
	const { episodes } = readTalkSplit("dev");
	const turns: Turn[] = [];
	let words = 0;
	// About 2.5 words a second: enough turns for the duration, then timed for real below.
	while (words < seconds * 2.6) {
		for (const episode of episodes) {
			turns.push(...episode.turns);
			words += episode.turns.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
		}
	}
	const { transcript } = turnsToTranscript(turns, { seed: 20261126, style: "whisper" });
	const words_ = transcript.words.filter((w) => w.end <= seconds);
	const segments = transcript.segments.filter((s) => s.end <= seconds);
	return { ...transcript, duration: seconds, words: words_, segments, text: segments.map((s) => s.text).join(" ") };
}

/**
 * Shapes of the same talk other recognizers return, ranked offline beside Whisper's: `bare` is every
 * word in one segment, with no punctuation and no pause (a recognizer giving words only). A cost that
 * grows faster than the talk (a join that rereads the text so far took 44 s on 1.3 h of it) shows
 * here first.
 */
const SHAPES = ["whisper", "bare"] as const;
type Shape = (typeof SHAPES)[number];

function shapedLongTranscript(seconds: number, shape: Shape): Transcript {
	const transcript = longTranscript(seconds);
	if (shape === "whisper") return transcript;
	const spoken = transcript.words.map((w) => w.word.replace(/[^\p{L}\p{N}']/gu, "")).filter(Boolean);
	const each = seconds / spoken.length;
	const words = spoken.map((word, k) => ({ word, start: k * each, end: (k + 1) * each }));
	const text = spoken.join(" ");
	return { ...transcript, words, text, segments: [{ start: 0, end: seconds, text, words }] };
}

/** One case, in this process (called in the child). */
async function runCase(which: Case, seconds: number, shape: Shape = "whisper"): Promise<CaseResult> {
	const stored = JSON.stringify(shapedLongTranscript(seconds, shape));
	const llm = which === "offline" ? null : instantModel();
	const config = {
		...defaultConfig(),
		clipModel: which === "ClipPro" ? ("ClipPro" as const) : ("ClipBasic" as const),
	};
	(globalThis as { gc?: () => void }).gc?.();
	const baseline = memoryUsage().heapUsed;
	const before = cpuUsage();
	// As the step does: the transcript read from R2 as JSON, then ranked.
	const transcript = JSON.parse(stored) as Transcript;
	const outcome = await rankMoments(transcript, config, null, llm);
	const cpu = cpuUsage(before);
	const hours = seconds / 3600;
	let chapters: CaseResult["chapters"] = null;
	if (llm) {
		const chapterModel = instantModel();
		const found = await findChapters(transcript, chapterModel);
		if (found.madeByDetail !== chapterModel.name) throw new Error(`chapters: ${found.madeByDetail}`);
		chapters = {
			llmCalls: chapterModel.calls,
			promptCharsPerHour: Math.round(chapterModel.promptChars / hours),
			answerCharsPerHour: Math.round(chapterModel.answerChars / hours),
		};
	}
	const heap = getHeapStatistics();
	return {
		case: which,
		hours: seconds / 3600,
		words: transcript.words.length,
		transcriptJsonMB: round(stored.length / 1e6),
		cpuMs: Math.round((cpu.user + cpu.system) / 1000),
		baselineHeapMB: round(baseline / 2 ** 20),
		heapTotalMB: round(heap.total_heap_size / 2 ** 20),
		heapUsedMB: round(memoryUsage().heapUsed / 2 ** 20),
		clips: outcome.clips.length,
		llmCalls: llm?.calls ?? 0,
		promptCharsPerHour: llm ? Math.round(llm.promptChars / hours) : 0,
		answerCharsPerHour: llm ? Math.round(llm.answerChars / hours) : 0,
		chapters,
	};
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Every case in its own Node process, old space capped at the isolate's memory. */
export function measureRankStep(seconds: number): CaseResult[] {
	return CASES.map((which) => runChild(which, seconds, "whisper"));
}

/** The offline ranker on each recognizer shape of the same talk. */
export function measureShapes(seconds: number): Array<CaseResult & { shape: Shape }> {
	return SHAPES.map((shape) => ({ ...runChild("offline", seconds, shape), shape }));
}

function runChild(which: Case, seconds: number, shape: Shape): CaseResult {
	const out = execFileSync(
		process.execPath,
		[
			`--max-old-space-size=${ISOLATE_MEMORY_MB}`,
			"--expose-gc",
			"--import",
			"tsx",
			import.meta.filename,
			"--case",
			which,
			"--seconds",
			String(seconds),
			"--shape",
			shape,
		],
		{
			encoding: "utf8",
			maxBuffer: 1 << 20,
		},
	);
	return JSON.parse(out.trim().split("\n").at(-1)!) as CaseResult;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const arg = (name: string) => {
		const at = process.argv.indexOf(name);
		return at === -1 ? undefined : process.argv[at + 1];
	};
	const which = arg("--case") as Case | undefined;
	if (which) {
		console.log(
			JSON.stringify(await runCase(which, Number(arg("--seconds")), (arg("--shape") ?? "whisper") as Shape)),
		);
	} else {
		const short = process.argv.includes("--short");
		const seconds = short ? 30 * 60 : 3 * 3600;
		const results = measureRankStep(seconds);
		for (const r of results) {
			console.log(
				`${r.case.padEnd(9)} ${r.hours} h, ${r.words} words (${r.transcriptJsonMB} MB of JSON): CPU ${r.cpuMs} ms of ${STEP_CPU_LIMIT_MS}, heap ${r.heapTotalMB} MB of ${ISOLATE_MEMORY_MB} (used ${r.heapUsedMB}, ${r.baselineHeapMB} before the work), ${r.clips} clips, ${r.llmCalls} model calls, ${r.promptCharsPerHour} prompt characters per hour`,
			);
		}
		const shapes = measureShapes(seconds);
		for (const r of shapes) {
			console.log(
				`offline, ${r.shape.padEnd(7)} shape: ${r.words} words, CPU ${r.cpuMs} ms (${Math.round(r.cpuMs / r.hours)} ms per hour of talk), heap ${r.heapTotalMB} MB, ${r.clips} clips`,
			);
		}
		if (!short) {
			const dir = join(import.meta.dirname, "..", "bench-results");
			mkdirSync(dir, { recursive: true });
			writeFileSync(
				join(dir, "rank-step.json"),
				`${JSON.stringify({ measuredAt: new Date().toISOString(), stepCpuLimitMs: STEP_CPU_LIMIT_MS, isolateMemoryMB: ISOLATE_MEMORY_MB, node: process.version, results, shapes }, null, 2)}\n`,
			);
		}
	}
}
