/**
 * The clipforge API as typed functions, on openapi-fetch over the `paths` generated from the API's
 * OpenAPI document (api-types.ts), so every call is checked against the document. Errors are
 * ClipforgeError with the API's error code. Web-standard only (fetch, AbortSignal, timers), so it
 * also runs inside the Worker (the MCP server's tools); `createClient` in node-client.ts adds the
 * Node-side clip downloads.
 *
 * @example
 * const cf = createApiClient({ baseUrl: process.env.CLIPFORGE_URL!, apiKey: process.env.CLIPFORGE_API_KEY! });
 * const { video } = await cf.submit("https://example.com/talk.mp4", { enableCaptions: true });
 * await cf.waitForCompletion(video.id, { onProgress: (s) => console.log(s.job.progress) });
 */
import createFetchClient from "openapi-fetch";
import type { ExportFormat } from "@clipforge/domain";
import type { components, paths } from "./api-types.ts";
import { ClipforgeError, isRetryable, type ErrorCode } from "./errors.ts";
import { withBookmarks, withConditionalGets } from "./transport.ts";

type Schemas = components["schemas"];
/** Every field optional: the API fills the seed's defaults. */
export type VideoConfig = Partial<NonNullable<Schemas["VideoConfig"]>>;
export type SubmitResponse = Schemas["SubmitHostedVideoResponse"];
export type VideoStatus = Schemas["VideoStatus"];
export type VideoDetail = Schemas["VideoDetail"];
export type Clip = Schemas["Clip"];
export type ClipsPage = Schemas["ClipList"];
export type Workspace = Schemas["Workspace"];
export type VideoList = Schemas["VideoList"];
/** Only the fields to change: the others keep the video's current values. */
export type ReprocessConfig = Schemas["ReprocessConfig"];
export type ReprocessResponse = Schemas["ReprocessResponse"];
export type ReprocessList = Schemas["ReprocessList"];
export type DeletedVideo = Schemas["DeletedVideo"];
export type Upload = Schemas["Upload"];
export type UploadPart = Schemas["UploadPart"];
export type NewUpload = Schemas["CreateUpload"];
/** GET /api/clips/:id: the list's view plus its caption words. */
export type ClipDetail = Schemas["ClipDetail"];
/** PATCH /api/clips/:id: only the fields to change. */
export type ClipChanges = Schemas["UpdateClip"];
export type CaptionFormat = "srt" | "vtt";
export type { ExportFormat };
export type CaptionTemplate = Schemas["CaptionTemplate"];
export type CaptionTemplateList = { templates: CaptionTemplate[]; fonts: { id: string; name: string }[]; positions: string[] };
export type NewCaptionTemplate = Schemas["CreateCaptionTemplate"];
export type CaptionTemplateChanges = Schemas["UpdateCaptionTemplate"];

export interface ClientOptions {
	/** e.g. http://127.0.0.1:8787 (CLIPFORGE_URL). */
	baseUrl: string;
	/** `cf_live_…` (CLIPFORGE_API_KEY). */
	apiKey: string;
	/**
	 * Tries per request (with backoff); 1 = no retry. Default 4. Reads and submissions (which always
	 * carry an Idempotency-Key) are retried on network errors, 429 and 5xx; other writes only on
	 * 429, which the API answers before doing anything.
	 */
	maxAttempts?: number;
	fetch?: typeof fetch;
}

export interface SubmitOptions {
	projectId?: string;
	webhookUrl?: string;
	workspaceId?: string;
	/**
	 * Sent as Idempotency-Key: the same key within 24 h is charged once. Without one the SDK makes
	 * one per `submit` call (and reuses it for that call's retries), so a retry after a lost
	 * response never charges twice. Pass your own to make your own retries of `submit` safe too.
	 */
	idempotencyKey?: string;
	signal?: AbortSignal;
}

export interface ReprocessOptions {
	/** Sent as Idempotency-Key (one is generated when left out, and kept across the client's retries): a retried reprocess is charged once. */
	idempotencyKey?: string;
	signal?: AbortSignal;
}

export interface VideoQuery {
	status?: VideoDetail["status"];
	projectId?: string;
	limit?: number;
	cursor?: string;
}

export interface WaitOptions {
	/** Poll interval; the API advises 10-15 s. Default 12 s. */
	intervalMs?: number;
	/** Give up after this long (ClipforgeError `timeout`). Default: no limit. */
	timeoutMs?: number;
	signal?: AbortSignal;
	/** Called with every status seen (progress display). */
	onProgress?: (status: VideoStatus) => void;
}

export interface ClipFilters {
	minScore?: number;
	maxScore?: number;
	status?: Clip["status"];
	favorited?: boolean;
	sortBy?: "score" | "duration" | "startTime" | "createdAt";
	sortOrder?: "asc" | "desc";
	/** The seed's order (`sortBy`/`sortOrder` win when given). */
	sort?: "score" | "time";
}

export interface ClipQuery extends ClipFilters {
	limit?: number;
	cursor?: string;
}

/** The query string form of the filters (`favorited` as "true"/"false"). */
const filterQuery = <Q extends ClipFilters>(query: Q) => ({ ...query, favorited: query.favorited === undefined ? undefined : (String(query.favorited) as "true" | "false") });

export const DEFAULT_POLL_MS = 12_000;

export function createApiClient(options: ClientOptions) {
	const doFetch = options.fetch ?? fetch;
	const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
	const api = createFetchClient<paths>({
		baseUrl: options.baseUrl.replace(/\/+$/, ""),
		fetch: retrying(withConditionalGets(withBookmarks((input, init) => doFetch(input, init))), maxAttempts, options.baseUrl),
		headers: { authorization: `Bearer ${options.apiKey}`, accept: "application/json" },
	});
	/** The body of a call `retrying` let through (it throws on anything but a 2xx). */
	const body = async <T>(call: Promise<{ data?: T }>): Promise<T> => (await call).data as T;
	const id = (videoId: string) => ({ path: { id: videoId } });

	const client = {
		/** POST /api/videos/hosted. Without `config` the video waits in pending_config (see `configure`). */
		submit(hostedUrl: string, config?: VideoConfig, opts: SubmitOptions = {}): Promise<SubmitResponse> {
			const { idempotencyKey = newIdempotencyKey(), signal, ...rest } = opts;
			return body(api.POST("/api/videos/hosted", {
				body: { hostedUrl, ...(config ? { config: config as Schemas["VideoConfig"] } : {}), ...rest },
				params: { header: { "idempotency-key": idempotencyKey } },
				signal,
			}));
		},
		/**
		 * POST /api/videos/upload: a completed upload (see `createUpload`, or `uploadFile` in the Node
		 * client, which does all of it) with the same config, options and charging as `submit`.
		 */
		submitUpload(uploadId: string, config?: VideoConfig, opts: SubmitOptions = {}): Promise<SubmitResponse> {
			const { idempotencyKey = newIdempotencyKey(), signal, ...rest } = opts;
			return body(api.POST("/api/videos/upload", {
				body: { uploadId, ...(config ? { config: config as Schemas["VideoConfig"] } : {}), ...rest },
				params: { header: { "idempotency-key": idempotencyKey } },
				signal,
			}));
		},
		/** POST /api/uploads: starts a resumable upload; send its parts with `putPart`, then `completeUpload`. */
		createUpload(upload: NewUpload, signal?: AbortSignal): Promise<Upload> {
			return body(api.POST("/api/uploads", { body: upload, signal }));
		},
		/** GET /api/uploads/:id: its stored parts and `missingParts` (where to resume), and a fresh part URL. */
		upload(uploadId: string, signal?: AbortSignal): Promise<Upload> {
			return body(api.GET("/api/uploads/{id}", { params: id(uploadId), signal }));
		},
		/** POST /api/uploads/:id/complete (409 `conflict` with `details.missingParts` while parts are missing). */
		completeUpload(uploadId: string, signal?: AbortSignal): Promise<Upload> {
			return body(api.POST("/api/uploads/{id}/complete", { params: id(uploadId), signal }));
		},
		/** DELETE /api/uploads/:id: aborts it (or deletes a completed one no video uses). */
		abortUpload(uploadId: string): Promise<{ id: string; deleted: true }> {
			return body(api.DELETE("/api/uploads/{id}", { params: id(uploadId) }));
		},
		/**
		 * PUTs one part's bytes (exactly `partSize`, the last part the rest) to the upload's signed part
		 * URL, retried on network errors, 429 and 5xx (sending a part again is harmless: it replaces itself).
		 */
		async putPart(upload: Pick<Upload, "id" | "partUrlTemplate">, partNumber: number, bytes: Uint8Array | Blob, signal?: AbortSignal): Promise<UploadPart> {
			if (!upload.partUrlTemplate) throw new ClipforgeError("conflict", `Upload ${upload.id} takes no more parts.`, { status: 409 });
			const url = upload.partUrlTemplate.replace("{partNumber}", String(partNumber));
			return sendWithRetries(() => doFetch(url, { method: "PUT", body: bytes as BodyInit, headers: { "content-type": "application/octet-stream" }, signal }), maxAttempts, signal);
		},
		/** PUT /api/videos/:id/config: starts a pending_config video. */
		configure(videoId: string, config: VideoConfig): Promise<VideoDetail> {
			return body(api.PUT("/api/videos/{id}/config", { params: id(videoId), body: config as Schemas["VideoConfig"] }));
		},
		status(videoId: string, signal?: AbortSignal): Promise<VideoStatus> {
			return body(api.GET("/api/videos/{id}/status", { params: id(videoId), signal }));
		},
		video(videoId: string): Promise<VideoDetail> {
			return body(api.GET("/api/videos/{id}", { params: id(videoId) }));
		},
		/**
		 * Polls until the video is completed (resolves with its last status) or failed (throws
		 * ClipforgeError `video_failed` carrying the errorMessage). Transient errors are retried.
		 */
		waitForCompletion(videoId: string, opts: WaitOptions = {}): Promise<VideoStatus> {
			return pollUntilDone((signal) => client.status(videoId, signal), videoId, opts);
		},
		listClips(videoId: string, query: ClipQuery = {}): Promise<ClipsPage> {
			return body(api.GET("/api/videos/{id}/clips", { params: { ...id(videoId), query: filterQuery(query) } }));
		},
		/** GET /api/clips/:id: one clip with fresh signed URLs and its caption words. */
		clip(clipId: string, signal?: AbortSignal): Promise<ClipDetail> {
			return body(api.GET("/api/clips/{id}", { params: id(clipId), signal }));
		},
		/**
		 * PATCH /api/clips/:id. `favorited` and `title` are saved at once; a trim (`startTime`/`endTime`,
		 * snapped to word edges), `captionStyle`, `captionWords` or a drawn `hookTitle` re-render the
		 * clip (`status: "generating"`; wait with waitForClip). Edits are free up to a cap per clip.
		 */
		updateClip(clipId: string, changes: ClipChanges): Promise<ClipDetail> {
			return body(api.PATCH("/api/clips/{id}", { params: id(clipId), body: changes }));
		},
		/** Polls until the clip is no longer `generating`; check `editError` for a render that failed (the clip then kept its previous version). */
		async waitForClip(clipId: string, opts: Omit<WaitOptions, "onProgress"> = {}): Promise<ClipDetail> {
			const interval = opts.intervalMs ?? 3000;
			const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
			for (;;) {
				const clip = await client.clip(clipId, opts.signal);
				if (clip.status !== "generating") return clip;
				if (Date.now() + interval > deadline) throw new ClipforgeError("timeout", `Clip ${clipId} was still generating after ${opts.timeoutMs} ms.`, { status: 0 });
				await sleep(interval, opts.signal);
			}
		},
		/** GET /api/clips/:id/captions: the clip's captions as SRT or WebVTT text. */
		clipCaptions(clipId: string, format: CaptionFormat = "srt"): Promise<string> {
			return body(api.GET("/api/clips/{id}/captions", { params: { ...id(clipId), query: { format } }, parseAs: "text" })) as Promise<string>;
		},
		/**
		 * GET /api/videos/:id/export: the clips as an FCPXML or Premiere XML timeline on the source
		 * (`mediaUrl`: where your copy of the source is), or a ZIP of the MP4s, as a stream.
		 */
		exportClips(videoId: string, format: ExportFormat, query: ClipFilters & { mediaUrl?: string } = {}, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
			return body(api.GET("/api/videos/{id}/export", { params: { ...id(videoId), query: { ...filterQuery(query), format } }, parseAs: "stream", signal })) as Promise<ReadableStream<Uint8Array>>;
		},
		/** Every clip of a completed video, following the cursor. */
		async allClips(videoId: string, query: Omit<ClipQuery, "cursor"> = {}): Promise<Clip[]> {
			const clips: Clip[] = [];
			let cursor: string | undefined;
			do {
				const page = await client.listClips(videoId, { ...query, cursor });
				clips.push(...page.clips);
				cursor = page.nextCursor ?? undefined;
			} while (cursor);
			return clips;
		},
		workspaces(): Promise<Workspace[]> {
			return body(api.GET("/api/workspaces"));
		},
		/** GET /api/videos: newest first. */
		listVideos(query: VideoQuery = {}): Promise<VideoList> {
			return body(api.GET("/api/videos", { params: { query } }));
		},
		/**
		 * POST /api/videos/:id/reprocess: new settings for a finished video's clips (analyzing and
		 * generating_clips again, no download or transcription). Wait for it with waitForCompletion.
		 */
		reprocess(videoId: string, config: ReprocessConfig = {}, opts: ReprocessOptions = {}): Promise<ReprocessResponse> {
			const idempotencyKey = opts.idempotencyKey ?? `sdk-reprocess-${crypto.randomUUID()}`;
			return body(api.POST("/api/videos/{id}/reprocess", { params: { ...id(videoId), header: { "idempotency-key": idempotencyKey } }, body: { config }, signal: opts.signal }));
		},
		/** GET /api/videos/:id/reprocesses: each reprocess, and what the next would cost. */
		reprocesses(videoId: string): Promise<ReprocessList> {
			return body(api.GET("/api/videos/{id}/reprocesses", { params: id(videoId) }));
		},
		/** DELETE /api/videos/:id: stops processing, refunds what was not delivered, deletes its files. */
		deleteVideo(videoId: string): Promise<DeletedVideo> {
			return body(api.DELETE("/api/videos/{id}", { params: id(videoId) }));
		},
		/** GET /api/caption-templates: the preset looks, then the workspace's own, each with a signed preview image URL; and the fonts and positions a template may use. */
		captionTemplates(workspaceId?: string): Promise<CaptionTemplateList> {
			return body(api.GET("/api/caption-templates", { params: { query: workspaceId ? { workspaceId } : {} } }));
		},
		/** POST /api/caption-templates: a preset with the workspace's font, colours and position; use its `id` (`custom:…`) as `captionTemplateId`. */
		createCaptionTemplate(template: NewCaptionTemplate): Promise<CaptionTemplate> {
			return body(api.POST("/api/caption-templates", { body: template }));
		},
		/** PATCH /api/caption-templates/:id (`custom:ct_…` or `ct_…`); null resets a field to the preset's. */
		updateCaptionTemplate(templateId: string, changes: CaptionTemplateChanges): Promise<CaptionTemplate> {
			return body(api.PATCH("/api/caption-templates/{id}", { params: { path: { id: savedId(templateId) } }, body: changes }));
		},
		/** DELETE /api/caption-templates/:id; videos already submitted with it keep its look. */
		async deleteCaptionTemplate(templateId: string): Promise<void> {
			await api.DELETE("/api/caption-templates/{id}", { params: { path: { id: savedId(templateId) } } });
		},
	};
	return client;
}

/** `custom:ct_…` (as listed and as `captionTemplateId`) or the bare `ct_…` the template routes take. */
const savedId = (templateId: string) => templateId.replace(/^custom:/, "");

/** The API's calls, without file downloads (see ClipforgeClient in node-client.ts). */
export type ApiClient = ReturnType<typeof createApiClient>;
export type { ErrorCode };

/** A fresh Idempotency-Key for one `submit` call (visible ASCII, as the API wants). */
export function newIdempotencyKey(): string {
	return `sdk-${crypto.randomUUID()}`;
}

/**
 * Whether a request may be sent again when its answer was lost: reads, and writes the API
 * deduplicates (an Idempotency-Key). Anything else may have been done once already.
 */
export function isSafeToRepeat(method: string, headers: Record<string, string>): boolean {
	return ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase()) || Boolean(headers["idempotency-key"]);
}

/**
 * How openapi-fetch's requests are sent: with retries on what is worth retrying, and anything
 * else that is not a 2xx thrown as ClipforgeError. A request that is safe to repeat is retried
 * on network errors, 429 (after its Retry-After) and 5xx; any other only on 429 `rate_limited`,
 * which the API answers before it acts. The same headers, Idempotency-Key included, go with
 * every try.
 */
function retrying(doFetch: (input: string, init: RequestInit) => Promise<Response>, maxAttempts: number, baseUrl: string): (request: Request) => Promise<Response> {
	return async (request) => {
		const body = request.body ? await request.text() : undefined;
		const headers: Record<string, string> = {};
		request.headers.forEach((value, name) => {
			headers[name] = value;
		});
		const init = { method: request.method, headers, body, signal: request.signal };
		const repeatable = isSafeToRepeat(request.method, headers);
		for (let attempt = 1; ; attempt++) {
			let response: Response;
			try {
				response = await doFetch(request.url, init);
			} catch (error) {
				if (request.signal.aborted) throw new ClipforgeError("aborted", "The request was aborted.", { status: 0 });
				const failure = new ClipforgeError("network_error", `Could not reach ${baseUrl.replace(/\/+$/, "")}: ${(error as Error).message}`, { status: 0 });
				if (!repeatable || attempt >= maxAttempts) throw failure;
				await sleep(backoffMs(attempt), request.signal);
				continue;
			}
			if (response.ok) return response;
			const failure = await ClipforgeError.fromResponse(response);
			const retry = repeatable ? isRetryable(failure) : failure.code === "rate_limited";
			if (!retry || attempt >= maxAttempts) throw failure;
			const retryAfter = Number(response.headers.get("retry-after"));
			await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoffMs(attempt), request.signal);
		}
	};
}

/** A request that is safe to repeat, sent until it answers 2xx (parsed as JSON) or fails for good. */
async function sendWithRetries<T>(send: () => Promise<Response>, maxAttempts: number, signal?: AbortSignal): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		let failure: ClipforgeError;
		let retryAfterMs = 0;
		try {
			const response = await send();
			if (response.ok) return (await response.json()) as T;
			failure = await ClipforgeError.fromResponse(response);
			retryAfterMs = Number(response.headers.get("retry-after")) * 1000 || 0;
		} catch (error) {
			if (signal?.aborted) throw new ClipforgeError("aborted", "The request was aborted.", { status: 0 });
			failure = new ClipforgeError("network_error", `The upload failed: ${(error as Error).message}`, { status: 0 });
		}
		if (!isRetryable(failure) || attempt >= maxAttempts) throw failure;
		await sleep(retryAfterMs || backoffMs(attempt), signal);
	}
}

/**
 * Polls until the video is completed (resolves with its last status) or failed (throws
 * ClipforgeError `video_failed` carrying the errorMessage). Transient errors are retried.
 */
async function pollUntilDone(status: (signal?: AbortSignal) => Promise<VideoStatus>, videoId: string, opts: WaitOptions): Promise<VideoStatus> {
	const interval = opts.intervalMs ?? DEFAULT_POLL_MS;
	const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
	for (;;) {
		const current = await status(opts.signal);
		opts.onProgress?.(current);
		if (current.video.status === "completed") return current;
		if (current.video.status === "failed") {
			throw new ClipforgeError("video_failed", current.video.errorMessage ?? "Processing failed.", { status: 200, details: current });
		}
		if (Date.now() + interval > deadline) throw new ClipforgeError("timeout", `Video ${videoId} was still ${current.video.status} after ${opts.timeoutMs} ms.`, { status: 0 });
		await sleep(interval, opts.signal);
	}
}

/** 1 s, 2 s, 4 s … capped at 30 s, with ±20% jitter so many clients do not retry in step. */
export function backoffMs(attempt: number): number {
	const base = Math.min(30_000, 1000 * 2 ** (attempt - 1));
	return Math.round(base * (0.8 + Math.random() * 0.4));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new ClipforgeError("aborted", "Cancelled.", { status: 0 }));
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(new ClipforgeError("aborted", "Cancelled.", { status: 0 }));
		};
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
