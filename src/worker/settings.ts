/**
 * The operator's settings (wrangler.toml `[vars]`), parsed once per `env` with one zod schema, so no
 * code reads a raw string var or repeats its default. A missing, empty, zero or unreadable number
 * falls back to its default.
 */
import {
	DEFAULT_BACKGROUND_LIMITS,
	DEFAULT_IMAGE_LIMITS,
	DEFAULT_SOURCE_LIMITS,
	type ImportLimits,
	type SourceLimits,
} from "@clipforge/contract";
import { z } from "zod";
import { SOURCE_RETENTION_DAYS } from "./domain/sources";

const numberOr = (fallback: number) =>
	z.coerce
		.number()
		.catch(fallback)
		.transform((n) => n || fallback);

export const DEFAULT_DNS_RESOLVER = "https://cloudflare-dns.com/dns-query";

export const Settings = z.object({
	/** `workers-ai` (production: Whisper through the AI binding) or `local` (pocketsphinx in the render tier). */
	TRANSCRIBER: z
		.string()
		.optional()
		.transform((v): "workers-ai" | "local" => (v === "workers-ai" ? "workers-ai" : "local")),
	/** Loopback and private sources are fetched only where this is "true" (the `local` environment). */
	ALLOW_PRIVATE_SOURCES: z
		.string()
		.optional()
		.transform((v) => v === "true"),
	/** Seconds of audio per transcription chunk (shorter chunks: more of them transcribed at once). */
	AUDIO_CHUNK_SECONDS: numberOr(600),
	/** Transcription chunks of one video in flight at once (concurrent Workers AI calls; local: pocketsphinx processes). */
	TRANSCRIBE_PARALLELISM: numberOr(2),
	/** Clip renders of one video in flight at once, spread over the render pool (docs/performance.md sizes it). */
	RENDER_PARALLELISM: numberOr(3),
	/** Container instances for videos' own work (download, upload, audio, signals); with RENDER_INSTANCES and the fixed probe and import pools, max_instances. */
	VIDEO_INSTANCES: numberOr(4),
	/** Container instances clip renders spread over (a video's clip n goes to the pool's instance n after its own). */
	RENDER_INSTANCES: numberOr(3),
	/** A render job silent for this long is retried (the tier sends a heartbeat every 15 s). */
	RENDER_IDLE_TIMEOUT_SECONDS: numberOr(60),
	/** Minutes without progress before the cron reconciler checks a video's workflow. */
	RECONCILE_STALE_MINUTES: numberOr(10),
	/** DNS-over-HTTPS resolver (JSON API) that webhook receivers' hosts are resolved with before each delivery. */
	DNS_RESOLVER_URL: z.url({ protocol: /^https?$/ }).catch(DEFAULT_DNS_RESOLVER),
	/** Width × height of a source the render tier fetches (a plan's `max_source_pixels` wins). 4096×2160. */
	MAX_SOURCE_PIXELS: numberOr(DEFAULT_SOURCE_LIMITS.maxPixels),
	/** Bytes of a downloaded source (a plan's `max_source_bytes` wins). 4 GiB: a 3 h talk at 1080p fits; a Container's disk holds it twice. */
	MAX_SOURCE_BYTES: numberOr(DEFAULT_SOURCE_LIMITS.maxBytes),
	/** Width × height of a watermark image, read from its header before decoding. 4096×4096 (64 MB as RGBA). */
	MAX_IMAGE_PIXELS: numberOr(DEFAULT_IMAGE_LIMITS.maxPixels),
	/** Bytes of an imported watermark image. */
	MAX_IMAGE_BYTES: numberOr(DEFAULT_IMAGE_LIMITS.maxBytes),
	/** Bytes of an imported background video (its first 60 s are kept). */
	MAX_BACKGROUND_BYTES: numberOr(DEFAULT_BACKGROUND_LIMITS.maxBytes),
	/** Videos a workspace may have processing at once, unless its plan says otherwise; more wait their turn. */
	MAX_CONCURRENT_VIDEOS: numberOr(2),
	/** Videos a workspace may have waiting for a slot; a submission beyond that is refused (429 `queue_full`). */
	MAX_QUEUED_VIDEOS: numberOr(50),
	/** Days a video's stored source is kept after the video completed; then the cron deletes it (domain/sources.ts). */
	SOURCE_RETENTION_DAYS: numberOr(SOURCE_RETENTION_DAYS),
});

/** How many of one video's pieces run at once. */
export interface FanOut {
	/** Clip renders in flight (spread over the render pool's instances). */
	renders: number;
	/** Transcription chunks in flight (concurrent Workers AI calls in production). */
	transcriptions: number;
}

export interface OperatorSettings {
	transcriber: "workers-ai" | "local";
	allowPrivateSources: boolean;
	audioChunkSeconds: number;
	/** How many of one video's chunks and clips run at once (workflows/video-plan.ts). */
	fanOut: FanOut;
	/** The configurable container pools (services/render-instances.ts adds the fixed probe and import pools). */
	instances: { video: number; render: number };
	renderIdleTimeoutSeconds: number;
	reconcileStaleMinutes: number;
	dnsResolverUrl: string;
	maxConcurrentVideos: number;
	maxQueuedVideos: number;
	/** Days a stored source is kept after its video completed. */
	sourceRetentionDays: number;
	/** Defaults for every plan; a plan's own columns win (limitsFor). */
	sourceLimits: SourceLimits;
	imageLimits: ImportLimits;
	backgroundLimits: ImportLimits;
}

type SettingsEnv = Partial<
	Pick<
		Env,
		| "TRANSCRIBER"
		| "ALLOW_PRIVATE_SOURCES"
		| "AUDIO_CHUNK_SECONDS"
		| "TRANSCRIBE_PARALLELISM"
		| "RENDER_PARALLELISM"
		| "VIDEO_INSTANCES"
		| "RENDER_INSTANCES"
		| "RENDER_IDLE_TIMEOUT_SECONDS"
		| "RECONCILE_STALE_MINUTES"
		| "DNS_RESOLVER_URL"
		| "MAX_CONCURRENT_VIDEOS"
		| "MAX_QUEUED_VIDEOS"
	>
> & {
	MAX_SOURCE_PIXELS?: string;
	MAX_SOURCE_BYTES?: string;
	MAX_IMAGE_PIXELS?: string;
	MAX_IMAGE_BYTES?: string;
	MAX_BACKGROUND_BYTES?: string;
	SOURCE_RETENTION_DAYS?: string;
};

const parsed = new WeakMap<object, OperatorSettings>();
const whole = (n: number) => Math.max(1, Math.floor(n));

/**
 * @example settingsOf(env).audioChunkSeconds // 600 unless AUDIO_CHUNK_SECONDS says otherwise
 */
export function settingsOf(env: SettingsEnv): OperatorSettings {
	let settings = parsed.get(env);
	if (!settings) {
		const vars = Settings.parse(env);
		settings = {
			transcriber: vars.TRANSCRIBER,
			allowPrivateSources: vars.ALLOW_PRIVATE_SOURCES,
			audioChunkSeconds: vars.AUDIO_CHUNK_SECONDS,
			fanOut: { transcriptions: whole(vars.TRANSCRIBE_PARALLELISM), renders: whole(vars.RENDER_PARALLELISM) },
			instances: { video: whole(vars.VIDEO_INSTANCES), render: whole(vars.RENDER_INSTANCES) },
			renderIdleTimeoutSeconds: vars.RENDER_IDLE_TIMEOUT_SECONDS,
			reconcileStaleMinutes: vars.RECONCILE_STALE_MINUTES,
			dnsResolverUrl: vars.DNS_RESOLVER_URL,
			sourceLimits: { maxPixels: vars.MAX_SOURCE_PIXELS, maxBytes: vars.MAX_SOURCE_BYTES },
			imageLimits: { maxPixels: vars.MAX_IMAGE_PIXELS, maxBytes: vars.MAX_IMAGE_BYTES },
			// Backgrounds are video: the same picture bound as sources.
			backgroundLimits: { maxPixels: vars.MAX_SOURCE_PIXELS, maxBytes: vars.MAX_BACKGROUND_BYTES },
			maxConcurrentVideos: Math.max(1, Math.floor(vars.MAX_CONCURRENT_VIDEOS)),
			maxQueuedVideos: Math.max(0, Math.floor(vars.MAX_QUEUED_VIDEOS)),
			sourceRetentionDays: vars.SOURCE_RETENTION_DAYS,
		};
		parsed.set(env, settings);
	}
	return settings;
}

/**
 * What the render tier may fetch for a workspace: its plan's own limits where set, else the
 * operator's.
 * @example sourceLimitsFor(env, { maxSourcePixels: 1280 * 720, maxSourceBytes: null }) // { maxPixels: 921600, maxBytes: 4294967296 }
 */
export function sourceLimitsFor(
	env: SettingsEnv,
	plan: { maxSourcePixels: number | null; maxSourceBytes: number | null } | null | undefined,
): SourceLimits {
	const defaults = settingsOf(env).sourceLimits;
	return {
		maxPixels: plan?.maxSourcePixels || defaults.maxPixels,
		maxBytes: plan?.maxSourceBytes || defaults.maxBytes,
	};
}
