/**
 * Workers AI's published requests-a-minute limits, and at what submission rate clipforge reaches
 * them: from the requests one video makes (model-calls.ts, counted by running the code), the
 * run's connection slots (a video's Whisper calls at most five at once) and the Whisper speed
 * `bench:plan` assumes. Arithmetic, not a measurement of Workers AI: no account is reachable here.
 */
import { SLOW_CALL_SLOTS } from "../../src/worker/lib/outgoing-slots.ts";
import { PLATFORM } from "../plan/costs.ts";
import type { ModelCalls } from "./model-calls.ts";

/**
 * https://developers.cloudflare.com/workers-ai/platform/limits/ (the page "Last updated Sep 17,
 * 2026", read 2026-11-28): limits are per task type, with per-model exceptions; neither
 * `@cf/meta/llama-3.3-70b-instruct-fp8-fast` nor `@cf/meta/llama-4-scout-17b-16e-instruct` is one.
 * Past a limit the binding throws `3021: rate limiting: inference request per min rate reached`
 * (HTTP 429; not in the errors page's table: cloudflare/ai issue 657, 2026-09-10).
 */
export const WORKERS_AI_RATE_LIMITS = {
	source: "https://developers.cloudflare.com/workers-ai/platform/limits/",
	pageUpdated: "2026-09-17",
	read: "2026-11-28",
	automaticSpeechRecognitionPerMinute: 720,
	textGenerationPerMinute: 300,
} as const;

/**
 * Prices as Cloudflare's model pages list them (read when docs/deploy.md's costs were written), in
 * dollars, and the price of a neuron: $0.011 per 1,000 beyond the 10,000 free each day
 * (https://developers.cloudflare.com/workers-ai/platform/pricing/).
 */
export const WORKERS_AI_PRICES = {
	dollarsPerThousandNeurons: 0.011,
	freeNeuronsPerDay: 10_000,
	whisperPerAudioMinute: 0.0005,
	fastModelPerMillionInputTokens: 0.27,
	fastModelPerMillionOutputTokens: 0.85,
	/** About four characters a token (English prompts). */
	charactersPerToken: 4,
} as const;

export interface RateFigures {
	/** Requests of one `minutes`-long video. */
	whisperPerVideo: number;
	clipBasicLlmPerVideo: number;
	clipProLlmPerVideo: number;
	/** Videos of that length submitted a minute that reach each limit (their requests spread over the minute). */
	videosPerMinuteAtAsrLimit: number;
	videosPerMinuteAtTextLimitClipBasic: number;
	videosPerMinuteAtTextLimitClipPro: number;
	/** Minutes of source a minute that reach the speech-recognition limit, whatever the videos' lengths. */
	sourceMinutesPerMinuteAtAsrLimit: number;
	/** One video's Whisper requests a minute while it transcribes (five at a time, each as long as bench:plan assumes). */
	whisperPerMinuteWhileTranscribing: number;
	/** Videos transcribing at the same moment that reach the speech-recognition limit. */
	videosTranscribingAtOnceAtAsrLimit: number;
}

export function rateFigures(calls: ModelCalls, chunkSeconds: number): RateFigures {
	const limits = WORKERS_AI_RATE_LIMITS;
	const clipBasic = calls.rank.ClipBasic + calls.chapters;
	const clipPro = calls.rank.ClipPro + calls.chapters;
	const whisperSeconds = chunkSeconds / PLATFORM.whisperRealtimeFactor + PLATFORM.whisperCallSeconds;
	const whisperPerMinute = (SLOW_CALL_SLOTS * 60) / whisperSeconds;
	return {
		whisperPerVideo: calls.whisper,
		clipBasicLlmPerVideo: clipBasic,
		clipProLlmPerVideo: clipPro,
		videosPerMinuteAtAsrLimit: Math.floor(limits.automaticSpeechRecognitionPerMinute / calls.whisper),
		videosPerMinuteAtTextLimitClipBasic: Math.floor(limits.textGenerationPerMinute / clipBasic),
		videosPerMinuteAtTextLimitClipPro: Math.floor(limits.textGenerationPerMinute / clipPro),
		sourceMinutesPerMinuteAtAsrLimit: Math.floor((limits.automaticSpeechRecognitionPerMinute * chunkSeconds) / 60),
		whisperPerMinuteWhileTranscribing: Math.round(whisperPerMinute),
		videosTranscribingAtOnceAtAsrLimit: Math.ceil(limits.automaticSpeechRecognitionPerMinute / whisperPerMinute),
	};
}

/** Neurons an hour of source costs: Whisper's (by the audio minute) and ClipBasic's (by its measured prompt size). */
export function neuronsPerHour(promptCharsPerHourClipBasic: number, outputTokensPerHourClipBasic: number) {
	const p = WORKERS_AI_PRICES;
	const neurons = (dollars: number) => Math.round((dollars / p.dollarsPerThousandNeurons) * 1000);
	const inputTokens = promptCharsPerHourClipBasic / p.charactersPerToken;
	return {
		whisper: neurons(60 * p.whisperPerAudioMinute),
		clipBasic: neurons(
			(inputTokens * p.fastModelPerMillionInputTokens +
				outputTokensPerHourClipBasic * p.fastModelPerMillionOutputTokens) /
				1e6,
		),
		whisperHoursFreePerDay: Math.round((p.freeNeuronsPerDay / neurons(60 * p.whisperPerAudioMinute)) * 10) / 10,
	};
}
