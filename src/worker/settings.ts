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

export const DEFAULT_DNS_RESOLVER = "https://cloudflare-dns.com/dns-query";

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
	/** DNS-over-HTTPS resolver (JSON API) that webhook receivers' hosts are resolved with before each delivery. */
	DNS_RESOLVER_URL: z.url({ protocol: /^https?$/ }).catch(DEFAULT_DNS_RESOLVER),
});

export interface OperatorSettings {
	transcriber: "workers-ai" | "local";
	allowPrivateSources: boolean;
	audioChunkSeconds: number;
	renderIdleTimeoutSeconds: number;
	reconcileStaleMinutes: number;
	dnsResolverUrl: string;
}

type SettingsEnv = Partial<Pick<Env, "TRANSCRIBER" | "ALLOW_PRIVATE_SOURCES" | "AUDIO_CHUNK_SECONDS" | "RENDER_IDLE_TIMEOUT_SECONDS" | "RECONCILE_STALE_MINUTES" | "DNS_RESOLVER_URL">>;

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
			dnsResolverUrl: vars.DNS_RESOLVER_URL,
		};
		parsed.set(env, settings);
	}
	return settings;
}
