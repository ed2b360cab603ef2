/**
 * The one contract between the Worker and the render tier (Container in production, a native Node
 * process in dev/tests). Both sides import this file: the tier validates every request with it and
 * the Worker validates every answer with it.
 *
 * Long operations answer with NDJSON: zero or more `progress` events, then exactly one `result` or
 * `error` event. That lets a workflow step report progress while it waits, and lets a failure that
 * happens after the 200 status line still arrive as a typed error.
 */
import { z } from "zod";

export const ASPECT_RATIOS = ["9:16", "16:9", "1:1"] as const;
export const AspectRatio = z.enum(ASPECT_RATIOS);
export type AspectRatio = z.infer<typeof AspectRatio>;

/** Output frame size per aspect ratio (even numbers, as libx264 with yuv420p needs). */
export const OUTPUT_SIZE: Record<AspectRatio, { width: number; height: number }> = {
	"9:16": { width: 1080, height: 1920 },
	"16:9": { width: 1920, height: 1080 },
	"1:1": { width: 1080, height: 1080 },
};

const httpUrl = z.url({ protocol: /^https?$/ });

/** Error codes the tier can answer with. `retryable` tells the workflow whether to try again. */
export const RenderErrorCode = z.enum([
	"invalid_request",
	"invalid_url",
	"unsupported_source",
	"source_unreachable",
	"source_missing",
	"process_failed",
	"timeout",
	"upload_failed",
	"internal_error",
]);
export type RenderErrorCode = z.infer<typeof RenderErrorCode>;

export const RenderError = z.object({
	code: RenderErrorCode,
	message: z.string(),
	retryable: z.boolean(),
});
export type RenderError = z.infer<typeof RenderError>;

/** Body of a non-streaming error answer (4xx/5xx before any NDJSON was written). */
export const RenderErrorBody = z.object({ error: RenderError });

// ---------------------------------------------------------------- probe (synchronous JSON)

export const ProbeRequest = z.object({ url: httpUrl });
export type ProbeRequest = z.infer<typeof ProbeRequest>;

export const ProbeResult = z.object({
	/** Identifier on the source platform (yt-dlp `id`). */
	id: z.string(),
	title: z.string(),
	/** Seconds; yt-dlp leaves it null for direct files, then ffprobe fills it. */
	duration: z.number().positive(),
	thumbnail: z.string(),
	channelName: z.string(),
	width: z.number().int().nullable(),
	height: z.number().int().nullable(),
	hasAudio: z.boolean(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;

// ---------------------------------------------------------------- jobs (NDJSON)

export const DownloadRequest = z.object({ videoId: z.string().min(1), url: httpUrl });
export type DownloadRequest = z.infer<typeof DownloadRequest>;
export const DownloadResult = z.object({ bytes: z.number().int().nonnegative() });
export type DownloadResult = z.infer<typeof DownloadResult>;

/** Streams the downloaded source to a signed PUT URL; downloads again first if the file is gone. */
export const UploadSourceRequest = DownloadRequest.extend({ putUrl: httpUrl });
export type UploadSourceRequest = z.infer<typeof UploadSourceRequest>;
export const UploadSourceResult = z.object({ bytes: z.number().int().nonnegative() });
export type UploadSourceResult = z.infer<typeof UploadSourceResult>;

export const AudioChunkSpec = z.object({
	index: z.number().int().nonnegative(),
	/** Seconds into the source. */
	start: z.number().nonnegative(),
	duration: z.number().positive(),
	putUrl: httpUrl,
});
export type AudioChunkSpec = z.infer<typeof AudioChunkSpec>;

export const ExtractAudioRequest = z.object({
	videoId: z.string().min(1),
	sourceUrl: httpUrl,
	chunks: z.array(AudioChunkSpec).min(1),
});
export type ExtractAudioRequest = z.infer<typeof ExtractAudioRequest>;
export const ExtractAudioResult = z.object({
	chunks: z.array(
		z.object({ index: z.number().int(), start: z.number(), duration: z.number(), bytes: z.number().int() }),
	),
});
export type ExtractAudioResult = z.infer<typeof ExtractAudioResult>;

export const Word = z.object({ word: z.string(), start: z.number(), end: z.number() });
export type Word = z.infer<typeof Word>;

/** One recognised utterance: the local engine splits on pauses, Whisper on its own segments. */
export const Segment = z.object({
	start: z.number(),
	end: z.number(),
	text: z.string(),
	words: z.array(Word),
});
export type Segment = z.infer<typeof Segment>;

/** Offline transcription of one audio chunk with pocketsphinx (English only). */
export const TranscribeRequest = z.object({
	audioUrl: httpUrl,
	language: z.string().nullable(),
});
export type TranscribeRequest = z.infer<typeof TranscribeRequest>;
export const TranscribeResult = z.object({
	language: z.string(),
	segments: z.array(Segment),
});
export type TranscribeResult = z.infer<typeof TranscribeResult>;

/** Loudness per half second of the source, written as JSON to `putUrl` (ranking's energy feature). */
export const SignalsRequest = z.object({
	videoId: z.string().min(1),
	sourceUrl: httpUrl,
	/** Seconds the source lasts, for progress. */
	duration: z.number().positive(),
	putUrl: httpUrl,
});
export type SignalsRequest = z.infer<typeof SignalsRequest>;
export const AudioSignals = z.object({
	intervalSeconds: z.number().positive(),
	/** Momentary loudness (EBU R128, LUFS) per interval; empty when the source has no audio. */
	loudness: z.array(z.number()),
});
export type AudioSignals = z.infer<typeof AudioSignals>;
export const SignalsResult = z.object({ intervals: z.number().int().nonnegative(), bytes: z.number().int() });
export type SignalsResult = z.infer<typeof SignalsResult>;

export const CAPTION_STYLES = ["karaoke", "word-by-word", "sentence"] as const;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;

/** Burned-in captions: the clip's words with times in seconds from the clip's start. */
export const CaptionSpec = z.object({ style: CaptionStyle, words: z.array(Word).max(20_000) });
export type CaptionSpec = z.infer<typeof CaptionSpec>;

/** The workspace's mark: its text, or a PNG image the Worker stored in R2 (read through `imageUrl`). */
export const WatermarkSpec = z.discriminatedUnion("kind", [
	z.object({ kind: z.literal("text"), text: z.string().min(1).max(64) }),
	z.object({ kind: z.literal("image"), imageUrl: httpUrl }),
]);
export type WatermarkSpec = z.infer<typeof WatermarkSpec>;

export const SplitScreenSpec = z.object({
	/** A short looping background video (built-in or a workspace upload) read through a signed URL. */
	backgroundUrl: httpUrl,
	/** Stable name of that background, so an instance fetches it once for all of a video's clips. */
	backgroundKey: z.string().min(1).max(256),
	/** Percent of the output height the main video takes (top); the background fills the rest. */
	ratio: z.number().min(10).max(90),
});
export type SplitScreenSpec = z.infer<typeof SplitScreenSpec>;

export const RenderClipRequest = z.object({
	videoId: z.string().min(1),
	clipId: z.string().min(1),
	sourceUrl: httpUrl,
	start: z.number().nonnegative(),
	end: z.number().positive(),
	aspectRatio: AspectRatio,
	captions: CaptionSpec.nullable().default(null),
	/** Hook line shown over the first seconds (escaped for libass by the tier). */
	hookTitle: z.string().max(200).nullable().default(null),
	/** Null: no mark (the config's `enableWatermark: false`). */
	watermark: WatermarkSpec.nullable().default(null),
	splitScreen: SplitScreenSpec.nullable().default(null),
	/** Follow the main face instead of cropping the centre. */
	smartCrop: z.boolean().default(false),
	videoPutUrl: httpUrl,
	thumbnailPutUrl: httpUrl,
});
export type RenderClipRequest = z.input<typeof RenderClipRequest>;
export type RenderClipSpec = z.output<typeof RenderClipRequest>;
export const RenderClipResult = z.object({
	bytes: z.number().int().positive(),
	/** Faces found on sampled frames (smart crop only), and whether the crop followed one. */
	faceFrames: z.number().int().nonnegative().default(0),
	sampledFrames: z.number().int().nonnegative().default(0),
	thumbnailBytes: z.number().int().positive(),
	width: z.number().int(),
	height: z.number().int(),
	duration: z.number().positive(),
});
export type RenderClipResult = z.infer<typeof RenderClipResult>;

export const JobEvent = z.discriminatedUnion("type", [
	z.object({ type: z.literal("progress"), fraction: z.number().min(0).max(1), message: z.string().optional() }),
	z.object({ type: z.literal("result"), result: z.unknown() }),
	z.object({ type: z.literal("error"), error: RenderError }),
]);
export type JobEvent = z.infer<typeof JobEvent>;

/** Paths of the tier's endpoints, so neither side spells them twice. */
export const RENDER_PATHS = {
	health: "/healthz",
	probe: "/probe",
	download: "/jobs/download",
	uploadSource: "/jobs/upload-source",
	extractAudio: "/jobs/extract-audio",
	transcribe: "/jobs/transcribe",
	renderClip: "/jobs/render-clip",
	signals: "/jobs/signals",
	makeBackground: "/jobs/make-background",
	importMedia: "/jobs/import-media",
	cleanup: "/jobs/cleanup",
} as const;

export const CleanupRequest = z.object({ videoId: z.string().min(1) });
export type CleanupRequest = z.infer<typeof CleanupRequest>;

// ---------------------------------------------------------------- split-screen backgrounds

/**
 * The built-in background library. The tier draws each one with ffmpeg's own sources (nothing is
 * downloaded); the Worker asks for it once and keeps the result in R2.
 */
export const BUILTIN_BACKGROUNDS = [
	{ id: "abstract-gradient", name: "Drifting gradient", categoryId: "abstract" },
	{ id: "abstract-sierpinski", name: "Sierpinski carpet", categoryId: "abstract" },
	{ id: "satisfying-life", name: "Game of life", categoryId: "satisfying" },
	{ id: "satisfying-mandelbrot", name: "Mandelbrot zoom", categoryId: "satisfying" },
	{ id: "retro-bars", name: "Test card", categoryId: "retro" },
	{ id: "retro-automaton", name: "Cellular automaton", categoryId: "retro" },
] as const;
export const BACKGROUND_CATEGORIES = [
	{ id: "abstract", name: "Abstract" },
	{ id: "satisfying", name: "Satisfying" },
	{ id: "retro", name: "Retro" },
] as const;
export const DEFAULT_BACKGROUND_CATEGORY = "satisfying";
export type BuiltinBackgroundId = (typeof BUILTIN_BACKGROUNDS)[number]["id"];
export const BuiltinBackgroundId = z.enum(BUILTIN_BACKGROUNDS.map((b) => b.id) as [BuiltinBackgroundId, ...BuiltinBackgroundId[]]);

export const MakeBackgroundRequest = z.object({ backgroundId: BuiltinBackgroundId, putUrl: httpUrl });
export type MakeBackgroundRequest = z.infer<typeof MakeBackgroundRequest>;

/**
 * Fetches a user's media (a background video or a watermark image) through the source guard,
 * checks it, and uploads a normalised copy: an H.264 loop for `background`, a PNG for `watermark`.
 */
export const ImportMediaRequest = z.object({ kind: z.enum(["background", "watermark"]), url: httpUrl, putUrl: httpUrl });
export type ImportMediaRequest = z.infer<typeof ImportMediaRequest>;
export const MediaFileResult = z.object({ bytes: z.number().int().positive(), width: z.number().int(), height: z.number().int(), duration: z.number().nonnegative() });
export type MediaFileResult = z.infer<typeof MediaFileResult>;
