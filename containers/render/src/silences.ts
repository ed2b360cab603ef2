/**
 * The I/O half of remove-silences: reads the source's frame rate and whether it has sound, asks
 * ffmpeg's silencedetect which parts of the clip are really silent (when the request wants the
 * transcript's pauses confirmed), and plans the cuts (jump-cuts.ts).
 */
import type { JumpCutSpec, Word } from "@clipforge/contract";
import { silenceDetectArgs, streamInfoArgs } from "./ffmpeg/source-args.ts";
import type { JumpCutArgs } from "./ffmpeg/filters.ts";
import { jobTimeouts } from "./runtime/job-timeouts.ts";
import {
	frameRateOf,
	MIN_CUT_SECONDS,
	parseSilences,
	planJumpCuts,
	retimeWords,
	type JumpCutPlan,
} from "./jump-cuts.ts";
import { runProcess } from "./runtime/run-process.ts";
import { tools } from "./runtime/tool-paths.ts";

/** Quieter than this counts as silence (speech sits around -20 dBFS; room noise below -45). */
const SILENCE_NOISE = "-35dB";

export interface PreparedCuts {
	plan: JumpCutPlan;
	args: JumpCutArgs;
	/** The clip's words on the cut timeline. */
	words: Word[] | null;
}

/**
 * @param fixedFps The rate the graph uses anyway (split-screen's 30), or null to keep the source's.
 */
export async function prepareJumpCuts(
	spec: Required<JumpCutSpec>,
	source: { url: string; start: number; end: number },
	words: Word[] | null,
	fixedFps: number | null,
	signal: AbortSignal,
): Promise<PreparedCuts | null> {
	const duration = source.end - source.start;
	const pauses = spec.pauses.filter((p) => p.start < duration);
	if (pauses.length === 0) return null;
	const stream = await streamsOf(source.url, signal);
	const rate = fixedFps ? { fps: fixedFps, expression: String(fixedFps) } : frameRateOf(stream.frameRate);
	const silences =
		spec.confirmWithAudio && stream.hasAudio
			? await detectSilences(source.url, source.start, duration, signal)
			: null;
	const plan = planJumpCuts(pauses, duration, rate.fps, silences);
	if (plan.cuts.length === 0) return null;
	return {
		plan,
		args: { keeps: plan.keeps, fps: rate.expression, duration: plan.duration, audio: stream.hasAudio },
		words: words ? retimeWords(words, plan.cuts) : null,
	};
}

async function streamsOf(url: string, signal: AbortSignal): Promise<{ frameRate: string; hasAudio: boolean }> {
	const { stdout } = await runProcess(tools.ffprobe, streamInfoArgs(url), { timeoutMs: 30_000, signal });
	const streams =
		(JSON.parse(stdout) as { streams?: { codec_type?: string; r_frame_rate?: string }[] }).streams ?? [];
	return {
		frameRate: streams.find((s) => s.codec_type === "video")?.r_frame_rate ?? "30/1",
		hasAudio: streams.some((s) => s.codec_type === "audio"),
	};
}

/** silencedetect over the clip's sound only (no video decode): a second or less for a minute. */
async function detectSilences(url: string, start: number, duration: number, signal: AbortSignal) {
	const lines: string[] = [];
	await runProcess(tools.ffmpeg, silenceDetectArgs(url, start, duration, SILENCE_NOISE, MIN_CUT_SECONDS), {
		timeoutMs: jobTimeouts.silenceDetect(duration),
		signal,
		// stderr keeps only its tail: collect the detector's lines as they come.
		onStderrLine: (line) => line.includes("silence_") && lines.push(line),
	});
	return parseSilences(lines.join("\n"), duration);
}
