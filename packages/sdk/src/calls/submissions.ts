/** The calls that start work: submit a URL or a completed upload, configure a pending video, reprocess a finished one. */
import type {
	ReprocessConfig,
	ReprocessOptions,
	ReprocessResponse,
	Schemas,
	SubmitOptions,
	SubmitResponse,
	VideoConfig,
	VideoDetail,
} from "../client-types.ts";
import { body, newIdempotencyKey, pathId, type CallContext } from "./context.ts";

/** The submission's body and headers, for a URL or an upload alike: the config only when given, one Idempotency-Key per call. */
function submission<S extends { hostedUrl: string } | { uploadId: string }>(
	source: S,
	config: VideoConfig | undefined,
	opts: SubmitOptions,
) {
	const { idempotencyKey = newIdempotencyKey(), signal, ...rest } = opts;
	const payload = { ...source, ...(config ? { config: config as Schemas["VideoConfig"] } : {}), ...rest };
	return { body: payload, params: { header: { "idempotency-key": idempotencyKey } }, signal };
}

export function submissionCalls({ api }: CallContext) {
	return {
		/** POST /api/videos/hosted. Without `config` the video waits in pending_config (see `configure`). */
		submit(hostedUrl: string, config?: VideoConfig, opts: SubmitOptions = {}): Promise<SubmitResponse> {
			return body(api.POST("/api/videos/hosted", submission({ hostedUrl }, config, opts)));
		},
		/**
		 * POST /api/videos/upload: a completed upload (see `createUpload`, or `uploadFile` in the Node
		 * client, which does all of it) with the same config, options and charging as `submit`.
		 */
		submitUpload(uploadId: string, config?: VideoConfig, opts: SubmitOptions = {}): Promise<SubmitResponse> {
			return body(api.POST("/api/videos/upload", submission({ uploadId }, config, opts)));
		},
		/** PUT /api/videos/:id/config: starts a pending_config video. */
		configure(videoId: string, config: VideoConfig): Promise<VideoDetail> {
			return body(
				api.PUT("/api/videos/{id}/config", { params: pathId(videoId), body: config as Schemas["VideoConfig"] }),
			);
		},
		/**
		 * POST /api/videos/:id/reprocess: new settings for a finished video's clips (analyzing and
		 * generating_clips again, no download or transcription). Wait for it with waitForCompletion.
		 */
		reprocess(
			videoId: string,
			config: ReprocessConfig = {},
			opts: ReprocessOptions = {},
		): Promise<ReprocessResponse> {
			const idempotencyKey = opts.idempotencyKey ?? `sdk-reprocess-${crypto.randomUUID()}`;
			const params = { ...pathId(videoId), header: { "idempotency-key": idempotencyKey } };
			return body(api.POST("/api/videos/{id}/reprocess", { params, body: { config }, signal: opts.signal }));
		},
	};
}
