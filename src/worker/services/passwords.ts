/**
 * Password hashes: PBKDF2-HMAC-SHA-256 through WebCrypto, stored as
 * `pbkdf2$sha256$<iterations>$<salt b64url>$<hash b64url>`. 100,000 iterations is the most the
 * Workers runtime allows; the iteration count is in the string, so it can be raised later.
 * scripts/admin.ts writes the same format with node:crypto.
 */
import { base64UrlDecode, base64UrlEncode, timingSafeEqual } from "./crypto";

export const PBKDF2_ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
	const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
		"deriveBits",
	]);
	const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
	return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
	const salt = crypto.getRandomValues(new Uint8Array(16));
	const hash = await derive(password, salt, PBKDF2_ITERATIONS);
	return `pbkdf2$sha256$${PBKDF2_ITERATIONS}$${base64UrlEncode(salt)}$${base64UrlEncode(hash)}`;
}

/** Constant-time check; a malformed or missing hash verifies as false after the same work. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
	const [scheme, digest, iterations, salt, hash] = (stored ?? "").split("$");
	const saltBytes = salt ? base64UrlDecode(salt) : null;
	const expected = hash ? base64UrlDecode(hash) : null;
	const valid =
		scheme === "pbkdf2" &&
		digest === "sha256" &&
		saltBytes &&
		expected &&
		Number(iterations) > 0 &&
		Number(iterations) <= PBKDF2_ITERATIONS;
	// Unknown users still pay for one derivation, so timing does not tell which emails exist.
	const actual = await derive(
		password,
		valid ? saltBytes : new Uint8Array(16),
		valid ? Number(iterations) : PBKDF2_ITERATIONS,
	);
	return Boolean(valid && expected && timingSafeEqual(actual, expected));
}
