/**
 * The render tier's jobs as one table: `name → { path, request, progress?, result }`. The tier's
 * server registers one route per row and validates each request with it; the Worker's client
 * checks each answer with it; the test fake answers from it. Adding a job is one row here.
 *
 * A row with `progress` streams NDJSON (progress events, then a result or an error: see
 * job-protocol.ts), so a workflow step reports progress while it waits; a row without it answers
 * one JSON body.
 */
import { z } from "zod";
import { JobProgress } from "./job-protocol.ts";
import { FRAMINGS, SPLIT_RATIO } from "./layouts.ts";
import { renderOptionsShape } from "./render-option-schemas.ts";
import { AspectRatio, AudioSignals, BuiltinBackgroundId, CaptionLook, Segment, Word } from "./vocabulary.ts";

const httpUrl = z.url({ protocol: /^https?$/ });

/**
 * What an id the tier turns into a file or folder name may be: letters, digits, `_` and `-`,
 * starting with a letter or digit, at most 128 characters. So never `.`/`..`, a `/` or `\`, an
 * absolute path, a percent-encoding, a NUL, or the tier's own `_shared` folder. (The Worker's ids,
 * `vid_…` and `clp_…_N`, are of this shape.)
 */
export const PATH_SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
export const PathSafeId = z
	.string()
	.regex(PATH_SAFE_ID, "must be 1-128 letters, digits, _ or -, starting with a letter or digit");

// ---------------------------------------------------------------- limits

/**
 * What the tier may fetch for a video: the Worker sets them per plan (settings.ts holds the
 * operator's defaults); a request without them gets these defaults.
 */
export const SourceLimits = z.object({
	/** Width × height of the source's picture (4096×2160 by default: 4K, never 8K or a 16000² frame). */
	maxPixels: z.number().int().positive(),
	/** Bytes of the downloaded file. */
	maxBytes: z.number().int().positive(),
});
export type SourceLimits = z.infer<typeof SourceLimits>;
export const DEFAULT_SOURCE_LIMITS: SourceLimits = { maxPixels: 4096 * 2160, maxBytes: 4 * 1024 ** 3 };

/** What an imported background video or watermark image may be (checked from its header, before decoding). */
export const ImportLimits = z.object({
	maxPixels: z.number().int().positive(),
	maxBytes: z.number().int().positive(),
});
export type ImportLimits = z.infer<typeof ImportLimits>;
/** A watermark of 4096×4096 (64 MB as RGBA) at most; a 16000×16000 PNG would decode to 1 GB. */
export const DEFAULT_IMAGE_LIMITS: ImportLimits = { maxPixels: 4096 * 4096, maxBytes: 20 * 1024 ** 2 };
export const DEFAULT_BACKGROUND_LIMITS: ImportLimits = { maxPixels: 4096 * 2160, maxBytes: 512 * 1024 ** 2 };

// ---------------------------------------------------------------- probe (synchronous JSON)

export const ProbeRequest = z.object({
	url: httpUrl,
	limits: SourceLimits.default(DEFAULT_SOURCE_LIMITS),
	/**
	 * A stored upload (the Worker's signed URL of a user's file): never read by yt-dlp, whose
	 * metadata would stand in for the file's; ffprobe alone reads it, under the limits and a list
	 * of container formats (no playlists or manifests that open other inputs).
	 */
	upload: z.boolean().default(false),
	/** Whose probe it is: a workspace runs at most WORKSPACE_JOB_LIMITS.probe at once. */
	workspaceId: PathSafeId.optional(),
});
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
	/**
	 * The source's own subtitle tracks (yt-dlp's `subtitles`, made by people, and
	 * `automatic_captions`): what may replace transcription. At most 200 listed.
	 */
	subtitles: z
		.array(z.object({ lang: z.string().min(1).max(35), automatic: z.boolean() }))
		.max(200)
		.default([]),
	/** The language the source says it speaks (yt-dlp `language`), when it says. */
	language: z.string().min(1).max(35).nullable().default(null),
});
export type ProbeResult = z.infer<typeof ProbeResult>;

/** A source's own subtitle track, fetched by the `subtitles` job into R2 (WebVTT). */
export const SubtitlesRequest = z.object({
	videoId: PathSafeId,
	url: httpUrl,
	lang: z.string().min(1).max(35),
	automatic: z.boolean(),
	putUrl: httpUrl,
});
export const SubtitlesResult = z.object({
	bytes: z.number().int().nonnegative(),
	/** The file's format as stored (converted to WebVTT when the site gave another). */
	format: z.enum(["vtt", "srt"]),
});

// ---------------------------------------------------------------- source, audio, transcription

/** A stretch of the source, in seconds into it. */
export const SourceFrame = z
	.object({ start: z.number().nonnegative(), end: z.number().positive() })
	.refine((f) => f.end > f.start, { message: "end must be after start", path: ["end"] });
export type SourceFrame = z.infer<typeof SourceFrame>;

/**
 * Where the stored source begins in the source, in seconds: its time frame's start when it was
 * cut to it (0: the whole source, as every source stored before cuts existed). Every other time of
 * a request that carries it is in the source's seconds; the tier seeks `time - sourceStart` in the
 * stored file.
 */
const SourceStart = z.number().nonnegative().default(0);

export const DownloadRequest = z.object({
	videoId: PathSafeId,
	url: httpUrl,
	limits: SourceLimits.default(DEFAULT_SOURCE_LIMITS),
	/**
	 * Seconds the probe found at submission (what was charged). The downloaded file must last as
	 * long, within a small tolerance: a server that answers the probe with a short video and the
	 * download with a long one is refused.
	 */
	expectedDuration: z.number().positive().nullable().default(null),
	/**
	 * Only this stretch is kept (what the video was charged for): the checked download is cut to it
	 * without re-encoding, and the kept file's time 0 is `frame.start` of the source. Null: the
	 * whole source is kept.
	 */
	frame: SourceFrame.nullable().default(null),
	/**
	 * `url` is a user's stored upload (the Worker's signed URL): never read by yt-dlp, only by
	 * ffmpeg under the upload formats, which copies `frame` out of it.
	 */
	upload: z.boolean().default(false),
});
export type DownloadRequest = z.infer<typeof DownloadRequest>;
export const DownloadResult = z.object({ bytes: z.number().int().nonnegative() });
export type DownloadResult = z.infer<typeof DownloadResult>;

/** Streams the downloaded source to a signed PUT URL; downloads again first if the file is gone. */
export const UploadSourceRequest = DownloadRequest.extend({ putUrl: httpUrl });
export type UploadSourceRequest = z.infer<typeof UploadSourceRequest>;
export const UploadSourceResult = z.object({ bytes: z.number().int().nonnegative() });
export type UploadSourceResult = z.infer<typeof UploadSourceResult>;

export const AudioChunkSpec = z.object({
	index: z.number().int().nonnegative().max(100_000),
	/** Seconds into the source. */
	start: z.number().nonnegative(),
	duration: z.number().positive(),
	putUrl: httpUrl,
});
export type AudioChunkSpec = z.infer<typeof AudioChunkSpec>;

export const ExtractAudioRequest = z.object({
	videoId: PathSafeId,
	sourceUrl: httpUrl,
	sourceStart: SourceStart,
	chunks: z.array(AudioChunkSpec).min(1),
});
export type ExtractAudioRequest = z.infer<typeof ExtractAudioRequest>;
export const ExtractAudioResult = z.object({
	chunks: z.array(
		z.object({ index: z.number().int(), start: z.number(), duration: z.number(), bytes: z.number().int() }),
	),
});
export type ExtractAudioResult = z.infer<typeof ExtractAudioResult>;

/** Offline transcription of one audio chunk with pocketsphinx (English only). */
export const TranscribeRequest = z.object({
	audioUrl: httpUrl,
	language: z.string().nullable(),
	/** The video the chunk is of, and its workspace (the tier shares its cores fairly between workspaces, then their videos). */
	videoId: PathSafeId.optional(),
	workspaceId: PathSafeId.optional(),
});
export type TranscribeRequest = z.infer<typeof TranscribeRequest>;
export const TranscribeResult = z.object({
	language: z.string(),
	segments: z.array(Segment),
});
export type TranscribeResult = z.infer<typeof TranscribeResult>;

/**
 * Loudness per half second of the charged time frame [start, end) of the source, written as JSON
 * (AudioSignals, indexed from the source's start; slots before the frame are silent) to `putUrl`.
 */
export const SignalsRequest = z
	.object({
		videoId: PathSafeId,
		sourceUrl: httpUrl,
		sourceStart: SourceStart,
		/** Seconds the source lasts. */
		duration: z.number().positive(),
		/** The time frame, seconds into the source. */
		start: z.number().nonnegative(),
		end: z.number().positive(),
		putUrl: httpUrl,
	})
	.refine((r) => r.end > r.start, { message: "end must be after start", path: ["end"] });
export type SignalsRequest = z.infer<typeof SignalsRequest>;
export const SignalsResult = z.object({ intervals: z.number().int().nonnegative(), bytes: z.number().int() });
export type SignalsResult = z.infer<typeof SignalsResult>;
export { AudioSignals };

// ---------------------------------------------------------------- render a clip

/**
 * Burned-in captions: the clip's words with times in seconds from the clip's start (on the source's
 * timeline: with jump cuts the tier retimes them), drawn in `look` (the Worker resolved the template).
 */
/** `language`: the transcript's (ISO 639-1), for the rules of its script and case (Turkish İ/ı); null when unknown. */
export const CaptionSpec = z.object({
	look: CaptionLook,
	words: z.array(Word).max(20_000),
	language: z.string().min(1).max(35).nullable().optional(),
});
export type CaptionSpec = z.infer<typeof CaptionSpec>;

/** A stretch of the clip in seconds from its start. */
export const Interval = z
	.object({ start: z.number().nonnegative(), end: z.number().positive() })
	.refine((i) => i.end > i.start, "end must be after start");
export type Interval = z.infer<typeof Interval>;

/**
 * Remove silences: pauses inside the clip (from the transcript's word timings, already shortened
 * by the padding kept around words) cut out as jump cuts in the same pass. With `confirmWithAudio`
 * the tier keeps only the part of each pause that ffmpeg's silencedetect also hears as silent, so
 * speech the transcript missed is never cut.
 */
export const JumpCutSpec = z.object({
	pauses: z.array(Interval).max(2000),
	confirmWithAudio: z.boolean().default(true),
});
export type JumpCutSpec = z.input<typeof JumpCutSpec>;

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
	ratio: z.number().min(SPLIT_RATIO.min).max(SPLIT_RATIO.max),
});
export type SplitScreenSpec = z.infer<typeof SplitScreenSpec>;

export const RenderClipRequest = z.object({
	videoId: PathSafeId,
	/** The video's workspace: the tier shares its cores fairly between workspaces, then their videos. */
	workspaceId: PathSafeId.optional(),
	clipId: PathSafeId,
	sourceUrl: httpUrl,
	sourceStart: SourceStart,
	/** The clip's stretch, in seconds into the source. */
	start: z.number().nonnegative(),
	end: z.number().positive(),
	aspectRatio: AspectRatio,
	captions: CaptionSpec.nullable().default(null),
	/** Hook line shown over the first seconds (escaped for libass by the tier). */
	hookTitle: z.string().max(200).nullable().default(null),
	/** Null: no mark (the config's `enableWatermark: false`). */
	watermark: WatermarkSpec.nullable().default(null),
	splitScreen: SplitScreenSpec.nullable().default(null),
	/** smartCrop, layout, …: the render options (render-options.ts, one row each). */
	...renderOptionsShape,
	/** Null: the clip plays as it was said. */
	jumpCuts: JumpCutSpec.nullable().default(null),
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
	/** What the clip showed: the centre, one followed face, the active speaker, or both stacked. */
	framing: z.enum(FRAMINGS).default("centre"),
	thumbnailBytes: z.number().int().positive(),
	width: z.number().int(),
	height: z.number().int(),
	duration: z.number().positive(),
	/** Seconds of pauses cut out (jump cuts), and how many cuts. */
	removedSeconds: z.number().nonnegative().default(0),
	cuts: z.number().int().nonnegative().default(0),
	/** The stretches cut, in seconds from the clip's start on the source's timeline (the Worker retimes exported captions by them). */
	cutStretches: z.array(Interval).max(2000).default([]),
});
export type RenderClipResult = z.infer<typeof RenderClipResult>;

// ---------------------------------------------------------------- caption previews

/** One PNG frame of sample words drawn in `look` over a neutral background (9:16, `width` wide). */
export const CaptionPreviewRequest = z.object({
	look: CaptionLook,
	width: z.number().int().min(90).max(1080).default(360),
	putUrl: httpUrl,
});
export type CaptionPreviewRequest = z.input<typeof CaptionPreviewRequest>;
export const CaptionPreviewResult = z.object({
	bytes: z.number().int().positive(),
	width: z.number().int(),
	height: z.number().int(),
});
export type CaptionPreviewResult = z.infer<typeof CaptionPreviewResult>;

// ---------------------------------------------------------------- backgrounds and imported media

export const MakeBackgroundRequest = z.object({ backgroundId: BuiltinBackgroundId, putUrl: httpUrl });
export type MakeBackgroundRequest = z.infer<typeof MakeBackgroundRequest>;

/**
 * Fetches a user's media (a background video or a watermark image) through the source guard,
 * checks it, and uploads a normalised copy: an H.264 loop for `background`, a PNG for `watermark`.
 */
export const ImportMediaRequest = z.object({
	kind: z.enum(["background", "watermark"]),
	url: httpUrl,
	putUrl: httpUrl,
	/** Defaults by kind: DEFAULT_BACKGROUND_LIMITS or DEFAULT_IMAGE_LIMITS. */
	limits: ImportLimits.nullable().default(null),
	/** Whose import it is: a workspace runs at most WORKSPACE_JOB_LIMITS.importMedia at once. */
	workspaceId: PathSafeId.optional(),
});
export type ImportMediaRequest = z.infer<typeof ImportMediaRequest>;
export const MediaFileResult = z.object({
	bytes: z.number().int().positive(),
	width: z.number().int(),
	height: z.number().int(),
	duration: z.number().nonnegative(),
});
export type MediaFileResult = z.infer<typeof MediaFileResult>;

export const CleanupRequest = z.object({ videoId: PathSafeId });
export type CleanupRequest = z.infer<typeof CleanupRequest>;
export const CleanupResult = z.object({ ok: z.literal(true) });

// ---------------------------------------------------------------- the table

export interface JobSpec {
	path: string;
	request: z.ZodType;
	/** Present when the job streams progress (NDJSON); absent when it answers one JSON body. */
	progress?: typeof JobProgress;
	result: z.ZodType;
}

export const renderJobs = {
	probe: { path: "/probe", request: ProbeRequest, result: ProbeResult },
	subtitles: { path: "/jobs/subtitles", request: SubtitlesRequest, progress: JobProgress, result: SubtitlesResult },
	download: { path: "/jobs/download", request: DownloadRequest, progress: JobProgress, result: DownloadResult },
	uploadSource: {
		path: "/jobs/upload-source",
		request: UploadSourceRequest,
		progress: JobProgress,
		result: UploadSourceResult,
	},
	extractAudio: {
		path: "/jobs/extract-audio",
		request: ExtractAudioRequest,
		progress: JobProgress,
		result: ExtractAudioResult,
	},
	transcribe: {
		path: "/jobs/transcribe",
		request: TranscribeRequest,
		progress: JobProgress,
		result: TranscribeResult,
	},
	renderClip: {
		path: "/jobs/render-clip",
		request: RenderClipRequest,
		progress: JobProgress,
		result: RenderClipResult,
	},
	signals: { path: "/jobs/signals", request: SignalsRequest, progress: JobProgress, result: SignalsResult },
	makeBackground: {
		path: "/jobs/make-background",
		request: MakeBackgroundRequest,
		progress: JobProgress,
		result: MediaFileResult,
	},
	importMedia: {
		path: "/jobs/import-media",
		request: ImportMediaRequest,
		progress: JobProgress,
		result: MediaFileResult,
	},
	cleanup: { path: "/jobs/cleanup", request: CleanupRequest, result: CleanupResult },
	captionPreview: {
		path: "/jobs/caption-preview",
		request: CaptionPreviewRequest,
		progress: JobProgress,
		result: CaptionPreviewResult,
	},
} as const satisfies Record<string, JobSpec>;

export type RenderJobs = typeof renderJobs;

/**
 * Jobs of one workspace an instance runs at once, for the jobs of the small pools every tenant
 * shares and that a request waits on (probes, imports of users' media: issue 45, N3 and N4). A
 * request beyond it is refused with 429 `workspace_busy` (the Worker answers its client 429), so
 * one workspace holds at most this share of an instance's RENDER_MAX_JOBS (16) and the others
 * keep the rest. The job names its workspace (`workspaceId`); a request that names none is not counted.
 */
export const WORKSPACE_JOB_LIMITS = { probe: 4, importMedia: 2 } as const satisfies Partial<
	Record<keyof typeof renderJobs, number>
>;
export type JobName = keyof RenderJobs;
export const JOB_NAMES = Object.keys(renderJobs) as JobName[];
/** What a caller sends (defaults not yet filled). */
export type JobRequest<N extends JobName> = z.input<RenderJobs[N]["request"]>;
/** What the tier's handler receives (validated, defaults filled). */
export type JobInput<N extends JobName> = z.output<RenderJobs[N]["request"]>;
/** What the tier's handler returns (before the result schema fills defaults). */
export type JobOutput<N extends JobName> = z.input<RenderJobs[N]["result"]>;
/** What the caller gets back (validated). */
export type JobResult<N extends JobName> = z.output<RenderJobs[N]["result"]>;
/** True for the jobs that stream progress. */
export const streamsProgress = (name: JobName): boolean => "progress" in renderJobs[name];

/** The tier's liveness path (not a job: no request, no result). */
export const HEALTH_PATH = "/healthz";
