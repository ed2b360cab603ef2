/**
 * D1's documented transient errors (https://developers.cloudflare.com/d1/observability/debug-d1/#error-list):
 * a lost connection, an object reset, a remote node's transient issue, an overloaded database.
 * Read here by the data layer's seam (db/d1-retry.ts), which retries reads after one, and by the
 * one error handler (errors.ts), which answers one as 503 with Retry-After instead of 500.
 */
const TRANSIENT = [
	"Network connection lost",
	"reset because its code was updated",
	"caused object to be reset",
	"Cannot resolve D1 DB due to transient issue",
	"D1 DB is overloaded",
	"client disconnected",
];

/** One of D1's documented transient errors (above), whatever the wrapping. */
export function isTransientD1Error(error: unknown): boolean {
	const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
	return TRANSIENT.some((text) => message.includes(text));
}
