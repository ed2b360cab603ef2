import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AudioSignals, OnProgress, SignalsRequest, SignalsResult } from "@clipforge/contract";
import { downloadedOrUrl } from "../source/download.ts";
import { loudnessArgs } from "../ffmpeg/source-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { ProcessError, runProcess } from "../runtime/run-process.ts";
import { fileTime } from "../source/frame.ts";
import { tools } from "../runtime/tool-paths.ts";
import { putFile } from "../runtime/transfer.ts";
import { videoDir } from "../runtime/workdir.ts";

export const SIGNAL_INTERVAL_SECONDS = 0.5;

/**
 * Loudness per half second (the loudest 100 ms reading in each) over the charged time frame only,
 * stored as JSON at the signed URL. Slots are indexed from the source's start (what the ranking
 * reads); those before the frame are silent (-120 LUFS).
 */
export async function computeSignals(
	req: SignalsRequest,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<SignalsResult> {
	const start = Math.min(req.start, req.duration);
	const end = Math.min(req.end, req.duration);
	const length = Math.max(0.001, end - start);
	const loudness: number[] = [];
	let time = start;
	// The stored file begins at sourceStart of the source (source/frame.ts): seek in its own time.
	const source = await downloadedOrUrl(req.videoId, req.sourceUrl);
	const args = loudnessArgs(source, fileTime(start, req.sourceStart), fileTime(end, req.sourceStart));
	try {
		await runProcess(tools.ffmpeg, args, {
			timeoutMs: jobTimeouts.loudness(length),
			signal,
			collectStdout: false,
			onStdoutLine: (line) => {
				const at = /pts_time:([\d.]+)/.exec(line);
				if (at) {
					// Output times start at 0 at the frame's start (input seeking).
					time = start + Number(at[1]);
					onProgress(Math.min(1, (time - start) / length));
					return;
				}
				const value = /^lavfi\.r128\.M=(-?[\d.]+|-inf)/.exec(line);
				if (!value) return;
				const slot = Math.floor(time / SIGNAL_INTERVAL_SECONDS);
				const lufs = value[1] === "-inf" ? -120 : Math.max(-120, Number(value[1]));
				while (loudness.length <= slot) loudness.push(-120);
				loudness[slot] = Math.max(loudness[slot]!, lufs);
			},
		});
	} catch (error) {
		// A source without an audio stream has no loudness to measure: that is a result, not a failure.
		if (!(
			error instanceof ProcessError && /matches no streams|does not contain any stream/i.test(error.stderrTail)
		))
			throw error;
	}
	const signals: AudioSignals = { intervalSeconds: SIGNAL_INTERVAL_SECONDS, loudness };
	const path = join(await videoDir(req.videoId), "signals.json");
	await writeFile(path, JSON.stringify(signals));
	const bytes = await putFile(path, req.putUrl, "application/json", undefined, signal);
	onProgress(1);
	return { intervals: loudness.length, bytes };
}
