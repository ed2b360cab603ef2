/**
 * The operator's settings (wrangler.toml `[vars]`), parsed once per `env` with one zod schema, so no
 * code reads a raw string var or repeats its default. A missing, empty, zero or unreadable number
 * falls back to its default.
 */
import { z } from "zod";

const numberOr = (fallback: number) =>
	z.coerce
		.number()
		.catch(fallback)
		.transform((n) => n || fallback);

export const Settings = z.object({
	/** `workers-ai` (production: Whisper through the AI binding) or `local` (pocketsphinx in the render tier). */
	TRANSCRIBER: z.string().optional().transform((v): "workers-ai" | "local" => (v === "workers-ai" ? "workers-ai" : "local")),
	/** Loopback and private sources are fetched only where this is "true" (the `local` environment). */
	ALLOW_PRIVATE_SOURCES: z.string().optional().transform((v) => v === "true"),
	/** Seconds of audio per transcription chunk. */
	AUDIO_CHUNK_SECONDS: numberOr(600),
	/** A render job silent for this long is retried (the tier sends a heartbeat every 15 s). */
	RENDER_IDLE_TIMEOUT_SECONDS: numberOr(60),
	/** Minutes without progress before the cron reconciler checks a video's workflow. */
	RECONCILE_STALE_MINUTES: numberOr(10),
	/** Videos a workspace may have processing at once, unless its plan says otherwise; more wait their turn. */
	MAX_CONCURRENT_VIDEOS: numberOr(2),
	/** Videos a workspace may have waiting for a slot; a submission beyond that is refused (429 `queue_full`). */
	MAX_QUEUED_VIDEOS: numberOr(50),
});

export interface OperatorSettings {
	transcriber: "workers-ai" | "local";
	allowPrivateSources: boolean;
	audioChunkSeconds: number;
	renderIdleTimeoutSeconds: number;
	reconcileStaleMinutes: number;
	maxConcurrentVideos: number;
	maxQueuedVideos: number;
}

type SettingsEnv = Partial<
	Pick<Env, "TRANSCRIBER" | "ALLOW_PRIVATE_SOURCES" | "AUDIO_CHUNK_SECONDS" | "RENDER_IDLE_TIMEOUT_SECONDS" | "RECONCILE_STALE_MINUTES" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">
>;

const parsed = new WeakMap<object, OperatorSettings>();

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
			renderIdleTimeoutSeconds: vars.RENDER_IDLE_TIMEOUT_SECONDS,
			reconcileStaleMinutes: vars.RECONCILE_STALE_MINUTES,
			maxConcurrentVideos: Math.max(1, Math.floor(vars.MAX_CONCURRENT_VIDEOS)),
			maxQueuedVideos: Math.max(0, Math.floor(vars.MAX_QUEUED_VIDEOS)),
		};
		parsed.set(env, settings);
	}
	return settings;
}
