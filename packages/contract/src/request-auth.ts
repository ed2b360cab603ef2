/**
 * How the render tier knows a request comes from the Worker: an HMAC-SHA-256, keyed with the shared
 * `RENDER_SECRET`, over the method, the path, a timestamp, a nonce and the SHA-256 of the body. The
 * tier refuses a signature older or newer than `RENDER_AUTH_WINDOW_SECONDS` and a nonce it has seen
 * in that window (a replay), so a captured request can neither be changed nor sent again. WebCrypto
 * only: the same code runs in the Worker and in Node.
 *
 * Header: `Authorization: Clipforge-HMAC-SHA256 t=<unix seconds>,n=<nonce>,s=<hex signature>`
 */

export const RENDER_AUTH_SCHEME = "Clipforge-HMAC-SHA256";
/** A signature is accepted this long either side of the tier's clock. */
export const RENDER_AUTH_WINDOW_SECONDS = 300;
/** Shorter secrets are refused by both ends (the stack and `openssl rand -base64 48` make 64 characters). */
export const MIN_RENDER_SECRET_LENGTH = 32;

export interface SignedRequestParts {
	method: string;
	/** Path and query, e.g. `/jobs/cleanup`. */
	path: string;
	/** The exact body text sent (the tier hashes the bytes it receives). */
	body: string;
}

export type RenderAuthVerdict =
	| { ok: true; nonce: string; timestamp: number }
	| { ok: false; reason: "missing" | "malformed" | "stale" | "invalid" };

const encoder = new TextEncoder();

/** True when `secret` is long enough to sign with. */
export const isUsableRenderSecret = (secret: string | undefined): secret is string =>
	typeof secret === "string" && secret.length >= MIN_RENDER_SECRET_LENGTH;

/**
 * The Authorization header value for one request.
 * @example
 * const body = JSON.stringify({ videoId: "vid_1" });
 * headers.authorization = await signRenderRequest(secret, { method: "POST", path: "/jobs/cleanup", body });
 */
export async function signRenderRequest(
	secret: string,
	parts: SignedRequestParts,
	now = Date.now(),
	nonce = randomNonce(),
): Promise<string> {
	const timestamp = Math.floor(now / 1000);
	const signature = await hmacHex(secret, await canonical(parts, timestamp, nonce));
	return `${RENDER_AUTH_SCHEME} t=${timestamp},n=${nonce},s=${signature}`;
}

/** Checks an Authorization header against the request it came with (constant-time comparison). */
export async function verifyRenderRequest(
	secret: string,
	header: string | null | undefined,
	parts: SignedRequestParts,
	now = Date.now(),
): Promise<RenderAuthVerdict> {
	if (!header) return { ok: false, reason: "missing" };
	const match = /^Clipforge-HMAC-SHA256 t=(\d{1,12}),n=([A-Za-z0-9_-]{16,64}),s=([0-9a-f]{64})$/.exec(header);
	if (!match) return { ok: false, reason: "malformed" };
	const [, t, nonce, given] = match as unknown as [string, string, string, string];
	const timestamp = Number(t);
	if (Math.abs(now / 1000 - timestamp) > RENDER_AUTH_WINDOW_SECONDS) return { ok: false, reason: "stale" };
	const expected = await hmacHex(secret, await canonical(parts, timestamp, nonce));
	return constantTimeEqual(expected, given) ? { ok: true, nonce, timestamp } : { ok: false, reason: "invalid" };
}

async function canonical(parts: SignedRequestParts, timestamp: number, nonce: string): Promise<string> {
	const bodyHash = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(parts.body))));
	return [RENDER_AUTH_SCHEME, parts.method.toUpperCase(), parts.path, String(timestamp), nonce, bodyHash].join("\n");
}

async function hmacHex(secret: string, message: string): Promise<string> {
	const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
		"sign",
	]);
	return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message))));
}

/** Same-length hex strings compared without an early exit, so timing says nothing about where they differ. */
function constantTimeEqual(a: string, b: string): boolean {
	if (a.length !== b.length) return false;
	let diff = 0;
	for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
	return diff === 0;
}

function randomNonce(): string {
	return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

function toHex(bytes: Uint8Array): string {
	return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
