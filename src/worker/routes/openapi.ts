import type { z } from "@hono/zod-openapi";
import { ErrorBody } from "../errors";

/** A required JSON request body of `schema`. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({
	content: { "application/json": { schema } },
	required: true as const,
});

/** A JSON response of `schema`. */
export const jsonOk = <S extends z.ZodType>(schema: S, description: string) => ({
	content: { "application/json": { schema } },
	description,
});

const DESCRIPTIONS: Record<number, string> = {
	400: "Invalid request (`invalid_request`, `invalid_url`); `details` lists each field and problem.",
	401: "Missing, malformed, unknown or revoked credentials (`unauthorized`).",
	402: "Not enough minutes (`insufficient_minutes`); `details: {required, balance}`.",
	403: "No active plan (`no_active_plan`), workspace not accessible (`forbidden`), or a bad/expired signed URL (`forbidden`/`url_expired`).",
	404: "Unknown resource, or one of another workspace (`not_found`).",
	409: "Wrong state for the operation (`conflict`); still processing (`video_processing`, or a clip being rendered again: `clip_processing`); or a workspace quota reached (`quota_exceeded`, e.g. its plan's number of backgrounds; `details: {limit, used}`).",
	410: "The video's stored source or transcript has been deleted (`source_deleted`).",
	413: "The source is longer than the plan allows (`video_too_long`), or the request body is over the limit (`payload_too_large`).",
	422: "No playable video at the URL (`unsupported_source`), or speech in a language the transcriber cannot hear and no captions or subtitles to read instead (`unsupported_language`).",
	429: "Too many requests (`rate_limited`), or too many of the workspace's videos already waiting for a processing slot (`queue_full`); wait the `Retry-After` header's seconds.",
	503: "A dependency is temporarily unavailable (`service_unavailable`); nothing was charged.",
};

/** The documented error responses of a route, all with the one error body. */
export function errorResponses<const S extends readonly number[]>(...statuses: S) {
	return Object.fromEntries(
		statuses.map((status) => [
			status,
			{ content: { "application/json": { schema: ErrorBody } }, description: DESCRIPTIONS[status] ?? "Error." },
		]),
	) as { [K in S[number]]: { content: { "application/json": { schema: typeof ErrorBody } }; description: string } };
}

type Security = Record<string, string[]>[];
/** An API key or a signed-in session. */
export const BEARER_OR_SESSION: Security = [{ bearerAuth: [] }, { sessionCookie: [] }];
/** A signed-in session only (key management). */
export const SESSION_ONLY: Security = [{ sessionCookie: [] }];
/** The description of a write only a workspace's managers may make (the role matrix: SECURITY.md). */
export const MANAGERS =
	"Needs the workspace's owner or an admin (a signed-in member gets 403 `forbidden`), or one of the workspace's API keys.";
