/**
 * One error type for everything the SDK can throw. `code` is the API's error code (from its
 * `{ "error": { code, message, details, requestId } }` body) or one of the client's own:
 * `network_error`, `timeout`, `aborted`, `video_failed` (processing ended failed).
 */
import type { components } from "./api-types.ts";

export type ApiErrorCode = components["schemas"]["Error"]["error"]["code"];
export type ErrorCode = ApiErrorCode | "network_error" | "timeout" | "aborted" | "video_failed";

export class ClipforgeError extends Error {
	readonly code: ErrorCode;
	/** HTTP status (0 when no response arrived). */
	readonly status: number;
	readonly details: unknown;
	/** The API's request id (X-Request-Id): quote it when reporting a problem. */
	readonly requestId: string | null;

	constructor(
		code: ErrorCode,
		message: string,
		init: { status: number; details?: unknown; requestId?: string | null },
	) {
		super(message);
		this.name = "ClipforgeError";
		this.code = code;
		this.status = init.status;
		this.details = init.details;
		this.requestId = init.requestId ?? null;
	}

	/** Reads the API's error body; a body that is not one (a proxy's HTML page) still gives a useful error. */
	static async fromResponse(response: Response): Promise<ClipforgeError> {
		const text = await response.text().catch(() => "");
		try {
			const { error } = JSON.parse(text) as components["schemas"]["Error"];
			return new ClipforgeError(error.code, error.message, {
				status: response.status,
				details: error.details,
				requestId: error.requestId,
			});
		} catch {
			const code: ErrorCode =
				response.status === 404
					? "not_found"
					: response.status === 403
						? "forbidden"
						: response.status >= 500
							? "internal_error"
							: "invalid_request";
			return new ClipforgeError(code, `HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`, {
				status: response.status,
				requestId: response.headers.get("x-request-id"),
			});
		}
	}
}

/**
 * Worth another try: the network, rate limits, and server-side trouble. Not `queue_full`: the
 * workspace has too many videos waiting, which takes minutes to clear; the caller decides.
 */
export function isRetryable(error: ClipforgeError): boolean {
	return (
		error.code === "network_error" ||
		error.code === "rate_limited" ||
		error.code === "service_unavailable" ||
		error.code === "internal_error" ||
		(error.status >= 500 && error.status !== 501)
	);
}

/** CLI exit codes by error class (documented in docs/sdk.md). */
export const EXIT_CODES = {
	ok: 0,
	unexpected: 1,
	usage: 2,
	auth: 3,
	minutes: 4,
	notFound: 5,
	videoFailed: 6,
	unavailable: 7,
	source: 8,
} as const;

export function exitCodeFor(error: unknown): number {
	if (!(error instanceof ClipforgeError)) return EXIT_CODES.unexpected;
	switch (error.code) {
		case "invalid_request":
		case "conflict":
		case "video_processing":
		case "clip_processing":
		case "method_not_allowed":
		case "payload_too_large":
			return EXIT_CODES.usage;
		case "unauthorized":
		case "forbidden":
		case "url_expired":
			return EXIT_CODES.auth;
		case "insufficient_minutes":
		case "no_active_plan":
		case "video_too_long":
		case "quota_exceeded":
			return EXIT_CODES.minutes;
		case "not_found":
		case "source_deleted":
			return EXIT_CODES.notFound;
		case "video_failed":
			return EXIT_CODES.videoFailed;
		case "invalid_url":
		case "unsupported_source":
		case "unsupported_language":
			return EXIT_CODES.source;
		case "rate_limited":
		case "queue_full":
		case "service_unavailable":
		case "network_error":
		case "timeout":
		case "internal_error":
			return EXIT_CODES.unavailable;
		case "aborted":
			return 130;
	}
}
