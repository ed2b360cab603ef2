/**
 * Bounds on what the tier fetches and decodes (the limits come with each job, from the Worker's
 * plan and settings; @clipforge/contract has the defaults). Sizes are read from headers with
 * ffprobe under `-max_pixels`, so an oversized picture is refused without being decoded.
 */
import type { ImportLimits, SourceLimits } from "@clipforge/contract";
import { ffprobeArgs } from "../ffmpeg/source-args.ts";
import { ProcessError, runProcess } from "../runtime/run-process.ts";
import { fetchFailureIn } from "./errors.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools } from "../runtime/tool-paths.ts";

export interface MediaFacts {
	hasVideo: boolean;
	hasAudio: boolean;
	/** 0 when unknown. */
	width: number;
	height: number;
	/** Seconds; NaN when unknown. */
	duration: number;
	/** Bytes of the file (from Content-Length for a URL); null when unknown. */
	bytes: number | null;
}

interface FfprobeJson {
	format?: { duration?: string; size?: string };
	streams?: { codec_type?: string; width?: number; height?: number; duration?: string }[];
}

/**
 * ffprobe's view of a file or URL. A picture above `maxPixels` is not decoded: ffprobe says so on
 * stderr and its size is taken from that line. Null when ffprobe cannot read it at all; a URL it
 * could not fetch throws source-errors' one answer.
 */
export async function mediaFacts(
	input: string,
	maxPixels: number,
	signal?: AbortSignal,
	timeoutMs = 30_000,
	formats?: string,
): Promise<MediaFacts | null> {
	let stdout: string;
	let stderr: string;
	try {
		({ stdout, stderr } = await runProcess(tools.ffprobe, ffprobeArgs(input, maxPixels, formats), {
			timeoutMs,
			signal,
		}));
	} catch (error) {
		if (error instanceof ProcessError && error.reason === "exit") {
			// A URL that could not be fetched reads like any other fetch failure (no port-scan oracle).
			const fetchFailure = fetchFailureIn(error.stderrTail);
			if (fetchFailure) throw fetchFailure;
			const oversized = oversizedPicture(error.stderrTail);
			return oversized
				? { hasVideo: true, hasAudio: false, ...oversized, duration: Number.NaN, bytes: null }
				: null;
		}
		throw error;
	}
	const info = JSON.parse(stdout) as FfprobeJson;
	const video = info.streams?.find((s) => s.codec_type === "video");
	const oversized = oversizedPicture(stderr);
	const size = Number(info.format?.size);
	return {
		hasVideo: Boolean(video),
		hasAudio: info.streams?.some((s) => s.codec_type === "audio") ?? false,
		width: oversized?.width ?? video?.width ?? 0,
		height: oversized?.height ?? video?.height ?? 0,
		duration: Number(info.format?.duration ?? video?.duration ?? Number.NaN),
		bytes: Number.isFinite(size) && size > 0 ? size : null,
	};
}

/** `Picture size 16000x16000 exceeds specified max pixel count 16777216` → its size. */
export function oversizedPicture(stderr: string): { width: number; height: number } | null {
	const match = /Picture size (\d+)x(\d+) (?:is invalid|exceeds)/.exec(stderr);
	return match ? { width: Number(match[1]), height: Number(match[2]) } : null;
}

const megapixels = (pixels: number) => `${(pixels / 1e6).toFixed(1)} MP`;
/** 4.0 GB, 20 MB, 98 KB. */
export const formatBytes = (bytes: number): string =>
	bytes >= 1024 ** 3
		? `${(bytes / 1024 ** 3).toFixed(1)} GB`
		: bytes >= 1024 ** 2
			? `${Math.round(bytes / 1024 ** 2)} MB`
			: `${Math.round(bytes / 1024)} KB`;

/** Refuses (422, permanent) a picture larger than `maxPixels` or a file larger than `maxBytes`. */
export function assertWithinLimits(
	facts: Pick<MediaFacts, "width" | "height" | "bytes">,
	limits: SourceLimits | ImportLimits,
	what: string,
): void {
	const pixels = facts.width * facts.height;
	if (pixels > limits.maxPixels) {
		throw new TierError(
			"unsupported_source",
			`The ${what} is ${facts.width}x${facts.height} (${megapixels(pixels)}); at most ${megapixels(limits.maxPixels)} is accepted.`,
			false,
			422,
		);
	}
	if (facts.bytes !== null && facts.bytes > limits.maxBytes) {
		throw new TierError(
			"unsupported_source",
			`The ${what} is ${formatBytes(facts.bytes)}; at most ${formatBytes(limits.maxBytes)} is accepted.`,
			false,
			422,
		);
	}
}

/** A downloaded file may differ from the probed duration by this much (container rounding, trailing frames). */
export const durationTolerance = (expected: number): number => Math.max(3, expected * 0.01);

/**
 * The downloaded file against the probe and the limits: a video stream, a picture and a size
 * within the limits, and the duration that was charged (± durationTolerance).
 */
export function assertDownloadMatches(
	facts: MediaFacts | null,
	limits: SourceLimits,
	expectedDuration: number | null,
): void {
	if (!facts?.hasVideo)
		throw new TierError("unsupported_source", "The downloaded file has no playable video stream.", false, 422);
	assertWithinLimits(facts, limits, "downloaded video");
	if (expectedDuration !== null) {
		if (
			!Number.isFinite(facts.duration) ||
			Math.abs(facts.duration - expectedDuration) > durationTolerance(expectedDuration)
		) {
			const got = Number.isFinite(facts.duration) ? `${facts.duration.toFixed(1)} s` : "an unknown length";
			throw new TierError(
				"unsupported_source",
				`The downloaded video lasts ${got}, not the ${expectedDuration.toFixed(1)} s found at submission; the source changed and is refused.`,
				false,
				422,
			);
		}
	}
}
