/** Small WebCrypto helpers shared by API keys, signed URLs and ids. */

const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
	return toHex(new Uint8Array(digest));
}

export async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
	const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
		"sign",
	]);
	return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** Constant-time comparison, so a signature check leaks nothing through timing. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	let diff = 0;
	for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
	return diff === 0;
}

/** Each byte's two hex digits: every API request hashes its key, so this runs on every poll. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function toHex(bytes: Uint8Array): string {
	let hex = "";
	for (const b of bytes) hex += HEX[b]!;
	return hex;
}

export function base64UrlEncode(bytes: Uint8Array): string {
	return base64Encode(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64UrlDecode(text: string): Uint8Array | null {
	if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
	const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
	try {
		return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
	} catch {
		return null;
	}
}

/**
 * Random, URL-safe, sortable-enough identifier with a type prefix.
 * @example newId("vid") // "vid_3kTq9..."
 */
export function newId(prefix: string, bytes = 12): string {
	return `${prefix}_${base64UrlEncode(crypto.getRandomValues(new Uint8Array(bytes))).replace(/[-_]/g, "x")}`;
}

/** Standard base64 (what Workers AI's `audio` field takes), in slices to stay off the call-stack limit. */
export function base64Encode(bytes: Uint8Array): string {
	let binary = "";
	for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(binary);
}
