/**
 * Audio energy per channel around each sampled frame: the audio half of "who is speaking" for the
 * speaker layouts. A stereo podcast often pans each microphone towards its speaker's side; a mono
 * one gives both channels the same energy and leaves the decision to mouth motion.
 */
import { clipStreamInputArgs } from "../ffmpeg/clip-stream-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { ProcessError, runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";

/** Low rate is plenty for loudness and keeps the PCM stream small (32 kB/s for stereo s16). */
const RATE = 8000;

/** Left and right RMS (0-1 of full scale) of the window around one sample time. */
export type ChannelEnergy = [left: number, right: number];

/**
 * RMS per channel of `windowSeconds` centred on each of `times` (seconds from `start`).
 * @returns null when the source has no audio stream
 */
export async function channelEnergy(
	sourceUrl: string,
	start: number,
	duration: number,
	times: number[],
	windowSeconds: number,
	signal: AbortSignal,
): Promise<ChannelEnergy[] | null> {
	const pcm = await stereoPcm(sourceUrl, start, duration, signal);
	if (!pcm) return null;
	return times.map((t) => windowEnergy(pcm, t, windowSeconds));
}

/** The source's first audio stream from `start` for `duration`, as 16-bit stereo PCM at RATE; null without audio. */
async function stereoPcm(sourceUrl: string, start: number, duration: number, signal: AbortSignal) {
	const chunks: Buffer[] = [];
	const pcm = ["-ac", "2", "-ar", String(RATE), "-f", "s16le"];
	const args = [...clipStreamInputArgs(sourceUrl, start, duration, "0:a:0"), ...pcm, "pipe:1"];
	try {
		await runProcess(tools.ffmpeg, args, {
			timeoutMs: jobTimeouts.channelEnergy(duration),
			signal,
			onStdoutBytes: (chunk) => void chunks.push(Buffer.from(chunk)),
		});
	} catch (error) {
		// "-map 0:a:0" matches nothing in a silent (video-only) source: no audio, not a failure.
		const noAudio = error instanceof ProcessError && /matches no streams/i.test(error.stderrTail);
		if (!signal.aborted && noAudio && error.reason === "exit") return null;
		throw error;
	}
	return Buffer.concat(chunks);
}

/** Left and right RMS of `windowSeconds` of PCM centred on `t`. */
function windowEnergy(pcm: Buffer, t: number, windowSeconds: number): ChannelEnergy {
	const frames = Math.floor(pcm.length / 4);
	const from = Math.max(0, Math.floor((t - windowSeconds / 2) * RATE));
	const to = Math.min(frames, Math.ceil((t + windowSeconds / 2) * RATE));
	let left = 0;
	let right = 0;
	for (let i = from; i < to; i++) {
		left += (pcm.readInt16LE(i * 4) / 32768) ** 2;
		right += (pcm.readInt16LE(i * 4 + 2) / 32768) ** 2;
	}
	const n = Math.max(1, to - from);
	return [Math.sqrt(left / n), Math.sqrt(right / n)];
}
