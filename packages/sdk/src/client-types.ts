/** The SDK's names for the API's shapes (from the generated api-types.ts) and the options of its calls. */
import type { ExportFormat } from "@clipforge/domain";
import type { components } from "./api-types.ts";

export type Schemas = components["schemas"];
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
export type VideoChapters = Schemas["Chapters"];
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
export type CaptionTemplateList = {
	templates: CaptionTemplate[];
	fonts: { id: string; name: string }[];
	positions: string[];
};
export type NewCaptionTemplate = Schemas["CreateCaptionTemplate"];
export type CaptionTemplateChanges = Schemas["UpdateCaptionTemplate"];

export interface ClientOptions {
	/** e.g. http://127.0.0.1:8787 (CLIPFORGE_URL). */
	baseUrl: string;
	/**
	 * `cf_live_…` (CLIPFORGE_API_KEY). Left out only by a page of the dashboard's own origin, whose
	 * signed-in session cookie goes with every same-origin request instead.
	 */
	apiKey?: string;
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
	/** The video's captions (SRT or WebVTT, by URL or as text), read instead of transcribing. */
	captions?: { url: string } | { text: string };
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
