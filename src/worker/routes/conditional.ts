/**
 * Conditional GETs for answers clients poll: each answer carries an ETag of its body, and a
 * request whose `If-None-Match` names the current one gets `304 Not Modified` with no body (the
 * SDK polls this way). `Cache-Control: private, no-cache`: only the caller may keep it, and must
 * revalidate every time.
 */
import type { Context } from "hono";

export const notModified = { 304: { description: "Not modified since the ETag sent in If-None-Match." } } as const;

/** FNV-1a over the JSON (64-bit as two 32-bit lanes): a fingerprint, not a secret. */
export function etagOf(body: unknown): string {
	const text = JSON.stringify(body);
	let a = 0x811c9dc5;
	let b = 0x01000193;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		a = Math.imul(a ^ code, 16777619);
		b = Math.imul(b ^ code, 2246822519);
	}
	return `W/"${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}"`;
}

/** Whether the request already holds this ETag (`If-None-Match` may list several, or `*`). */
export function holds(c: Context, etag: string): boolean {
	const sent = c.req.header("if-none-match");
	if (!sent) return false;
	const bare = (tag: string) => tag.trim().replace(/^W\//, "");
	return sent.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

export function setRevalidate(c: Context, etag: string): void {
	c.header("ETag", etag);
	c.header("Cache-Control", "private, no-cache");
}
