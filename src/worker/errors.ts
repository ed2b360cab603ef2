/**
 * The one error model: every failure leaves as
 * `{ "error": { "code", "message", "details"?, "requestId" } }` with the status of its code.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env";
import { requestLog } from "./middleware/request-log";

export const ERROR_CODES = [
	"invalid_request",
	"invalid_url",
	"unauthorized",
	"insufficient_minutes",
	"no_active_plan",
	"forbidden",
	"url_expired",
	"not_found",
	"method_not_allowed",
	"conflict",
	"quota_exceeded",
	"video_processing",
	"clip_processing",
	"source_deleted",
	"video_too_long",
	"payload_too_large",
	"unsupported_source",
	"unsupported_language",
	"rate_limited",
	"queue_full",
	"internal_error",
	"service_unavailable",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
	invalid_request: 400,
	invalid_url: 400,
	unauthorized: 401,
	insufficient_minutes: 402,
	no_active_plan: 403,
	forbidden: 403,
	url_expired: 403,
	not_found: 404,
	method_not_allowed: 405,
	conflict: 409,
	quota_exceeded: 409,
	/** Reprocessing a video that is still being processed. */
	video_processing: 409,
	/** Editing a clip that is being rendered again after another edit. */
	clip_processing: 409,
	/** Reprocessing a video (or re-rendering a clip) whose stored source or transcript is gone. */
	source_deleted: 410,
	video_too_long: 413,
	payload_too_large: 413,
	unsupported_source: 422,
	/** Speech in a language the transcriber cannot hear, with no captions or subtitles to read instead. */
	unsupported_language: 422,
	rate_limited: 429,
	queue_full: 429,
	internal_error: 500,
	service_unavailable: 503,
};

/** The code of an HTTPException that is not ours, by status (where several codes share one). */
const GENERIC_CODE: Partial<Record<number, ErrorCode>> = {
	403: "forbidden",
	413: "payload_too_large",
	429: "rate_limited",
};

export const ErrorBody = z
	.object({
		error: z.object({
			code: z.enum(ERROR_CODES),
			message: z.string(),
			details: z.unknown().optional(),
			requestId: z.string(),
		}),
	})
	.openapi("Error");
export type ErrorBody = z.infer<typeof ErrorBody>;

export class ApiError extends HTTPException {
	readonly code: ErrorCode;
	readonly details: unknown;
	constructor(code: ErrorCode, message: string, details?: unknown) {
		super(STATUS[code], { message });
		this.name = "ApiError";
		this.code = code;
		this.details = details;
	}
}

export function errorResponse(c: Context<AppEnv>, code: ErrorCode, message: string, details?: unknown): Response {
	const body: ErrorBody = { error: { code, message, requestId: c.get("requestId") ?? "unknown" } };
	if (details !== undefined) body.error.details = details;
	// Every 429 says when to come back.
	const retryAfter = (details as { retryAfter?: unknown } | undefined)?.retryAfter;
	if (STATUS[code] === 429 && typeof retryAfter === "number" && !c.res.headers.get("retry-after"))
		c.header("Retry-After", String(retryAfter));
	return c.json(body, STATUS[code]);
}

/** Each zod issue as `{ path, message }`, the `details` of a 400. */
export function zodIssues(error: z.ZodError): { path: string; message: string }[] {
	return error.issues.map((issue) => ({
		path: issue.path.map(String).join(".") || "(body)",
		message: issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : issue.message,
	}));
}

/** `app.onError`: our errors as they are, Hono's with their status, anything else as a logged 500. */
export function handleError(err: Error, c: Context<AppEnv>): Response {
	if (err instanceof ApiError) return errorResponse(c, err.code, err.message, err.details);
	if (err instanceof z.ZodError)
		return errorResponse(c, "invalid_request", "The request is invalid.", zodIssues(err));
	if (err instanceof HTTPException) {
		const code =
			GENERIC_CODE[err.status] ??
			ERROR_CODES.find((candidate) => STATUS[candidate] === err.status) ??
			"internal_error";
		return errorResponse(c, code, err.message || "The request failed.");
	}
	requestLog(c).error("unhandled_error", { method: c.req.method, path: c.req.path, error: err });
	return errorResponse(c, "internal_error", "Something went wrong on our side; the request id helps us find it.");
}

/** `defaultHook` of every OpenAPI route: validation failures in the same body shape. */
export function handleZodError(
	result: { success: true } | { success: false; error: z.ZodError; target?: string },
	c: Context<AppEnv>,
): Response | undefined {
	if (result.success) return undefined;
	return errorResponse(c, "invalid_request", "The request is invalid.", zodIssues(result.error));
}
