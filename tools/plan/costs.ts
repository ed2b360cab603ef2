/**
 * What each stage of a video costs, for the production time budget (docs/performance.md):
 * measured here (CPU seconds, which the load of a shared machine barely moves, unlike wall time),
 * and the platform's figures, each with where it comes from. `npm run bench:plan -- --measure`
 * measures the first kind again into bench-results/stage-costs.json.
 */

/** Measured on this machine with the tier's own ffmpeg arguments. */
export interface MeasuredCosts {
	measuredAt: string;
	machine: string;
	/** CPU seconds per second of a 1080x1920 clip encoded from a 1080p source (x264 veryfast, crf 21, one thread). */
	encodeCpuPerClipSecond: number;
	/** CPU seconds per second of source to cut its audio into 16 kHz mono MP3 chunks. */
	audioCpuPerSourceSecond: number;
	/** CPU seconds per second of source to measure its loudness (ebur128). */
	loudnessCpuPerSourceSecond: number;
	/** Seconds from starting the tier's server to its first /healthz answer. */
	tierStartSeconds: number;
	/** Seconds the Worker's rank step took on the offline ranker for a 30-minute talk (bench:pipeline), or null. */
	offlineRankSeconds: number | null;
}

/** Figures the platform publishes, or, where it publishes none, the assumption used and why. */
export const PLATFORM = {
	/** Containers FAQ (developers.cloudflare.com/containers/faq): "Container cold starts can often be in the 1-3 second range". The upper end. */
	containerColdStartSeconds: 3,
	/** Containers instance types (developers.cloudflare.com/containers/platform-details/limits): vCPUs per type. */
	vcpus: {
		lite: 1 / 16,
		basic: 1 / 4,
		"standard-1": 1 / 2,
		"standard-2": 1,
		"standard-3": 2,
		"standard-4": 4,
	} as Record<string, number>,
	/** x264 at 1080x1920 gains about 0.92 of a core per doubling of threads (an assumption; not measured on Cloudflare). */
	threadEfficiencyPerDoubling: 0.92,
	/**
	 * R2 throughput for one object stream, MB/s. Cloudflare publishes no per-object figure; a
	 * third-party measurement of large uploads gave a median of 104 MB/s. Assumed 100 for R2, and
	 * for the source's own host (which is not ours: a slow host makes the download the critical path).
	 */
	r2MegabytesPerSecond: 100,
	originMegabytesPerSecond: 100,
	/**
	 * Whisper large-v3-turbo on Workers AI. Cloudflare publishes its price ($0.00051 per audio
	 * minute) and the ASR rate limit (720 requests a minute, developers.cloudflare.com/workers-ai/platform/limits),
	 * not its speed. Assumed: 40 s of audio per second of inference plus 1 s per call; the budget is
	 * printed at 20× and 100× too.
	 */
	whisperRealtimeFactor: 40,
	whisperCallSeconds: 1,
	whisperRequestsPerMinute: 720,
	/**
	 * ClipBasic's LLM pass on a 30-minute transcript: two 15-minute chunks asked at once
	 * (ranking/llm/basic.ts), each answer up to ~1,000 tokens. Assumed 12 s (about 80 tokens a
	 * second for the fast model, plus the prompt); not published per model.
	 */
	llmRankSeconds: 12,
	/** Workflows: a step's result is persisted before the next starts. Assumed 0.2 s per step. */
	stepSeconds: 0.2,
} as const;

/** The video the budget is for. */
export const BUDGET_VIDEO = {
	minutes: 30,
	/** A 1080p30 H.264 talk at about 4 Mb/s. */
	sourceMegabits: 4,
	/**
	 * The default config (clips of 15-90 s) and the ranker's usual count for a long talk (MAX_CLIPS
	 * 9, the LLM up to 11): ten clips, the longest at the default maximum, since the longest clip
	 * sets the render stage's length.
	 */
	clipSeconds: [90, 75, 60, 60, 45, 45, 30, 30, 20, 15],
	/** A rendered 1080x1920 clip at crf 21 is about 5 Mb/s. */
	clipMegabits: 5,
} as const;

/** Used when bench-results/stage-costs.json is missing: measured here on 2026-11-26 (shared machine, CPU time). */
export const DEFAULT_COSTS: MeasuredCosts = {
	measuredAt: "2026-11-26",
	machine: "2-core shared development machine, ffmpeg 5.1 (Debian)",
	encodeCpuPerClipSecond: 0.93,
	audioCpuPerSourceSecond: 0.0058,
	loudnessCpuPerSourceSecond: 0.004,
	tierStartSeconds: 1,
	offlineRankSeconds: null,
};
