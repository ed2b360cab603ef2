/**
 * The I/O half of remove-silences, read before the plan: the source's frame rate and whether it has
 * sound, and which parts of the clip ffmpeg's silencedetect hears as silent (when the request wants
 * the transcript's pauses confirmed). jump-cuts.ts plans the cuts from them.
 */
import type { Interval, RenderClipSpec } from "@clipforge/contract";
import { silenceDetectArgs, streamInfoArgs } from "../ffmpeg/source-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";
import { MIN_CUT_SECONDS, parseSilences, pausesWithin, type CutInputs } from "./jump-cuts.ts";

/** Quieter than this counts as silence (speech sits around -20 dBFS; room noise below -45). */
const SILENCE_NOISE = "-35dB";

/** What the cuts need to know of the source; null when nothing is to be cut (no pause inside the clip). */
export async function readCutInputs(
	req: Pick<RenderClipSpec, "jumpCuts" | "sourceUrl" | "start" | "end">,
	signal: AbortSignal,
): Promise<CutInputs | null> {
	const duration = req.end - req.start;
	if (!req.jumpCuts || pausesWithin(req.jumpCuts, duration).length === 0) return null;
	const stream = await streamsOf(req.sourceUrl, signal);
	const silences =
		req.jumpCuts.confirmWithAudio && stream.hasAudio
			? await detectSilences(req.sourceUrl, req.start, duration, signal)
			: null;
	return { stream, silences };
}

async function streamsOf(url: string, signal: AbortSignal): Promise<CutInputs["stream"]> {
	const { stdout } = await runProcess(tools.ffprobe, streamInfoArgs(url), { timeoutMs: 30_000, signal });
	const streams =
		(JSON.parse(stdout) as { streams?: { codec_type?: string; r_frame_rate?: string }[] }).streams ?? [];
	return {
		frameRate: streams.find((s) => s.codec_type === "video")?.r_frame_rate ?? "30/1",
		hasAudio: streams.some((s) => s.codec_type === "audio"),
	};
}

/** silencedetect over the clip's sound only (no video decode): a second or less for a minute. */
async function detectSilences(url: string, start: number, duration: number, signal: AbortSignal): Promise<Interval[]> {
	const lines: string[] = [];
	await runProcess(tools.ffmpeg, silenceDetectArgs(url, start, duration, SILENCE_NOISE, MIN_CUT_SECONDS), {
		timeoutMs: jobTimeouts.silenceDetect(duration),
		signal,
		// stderr keeps only its tail: collect the detector's lines as they come.
		onStderrLine: (line) => line.includes("silence_") && lines.push(line),
	});
	return parseSilences(lines.join("\n"), duration);
}
