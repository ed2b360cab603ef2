/**
 * HMAC-signed URLs, each for one purpose:
 * - internal object URLs (`/internal/objects/<key>`), short-lived, GET or PUT, used by the render
 *   tier to read sources and write outputs without R2 credentials;
 * - public clip URLs (`/api/clips/:id/download|thumbnail?token=`), valid one hour;
 * - a video's stored source for a player (`/api/videos/:id/source?token=`), valid one hour;
 * - the operator's smoke check's download (`/admin/smoke/:runId/download?token=`), ten minutes.
 * The signature covers purpose, method, object key and expiry, so no URL can be reused for another.
 */
import { ApiError } from "../errors";
import { base64UrlDecode, base64UrlEncode, hmacSha256, timingSafeEqual } from "./crypto";

export const CLIP_URL_TTL_SECONDS = 60 * 60;
export const INTERNAL_URL_TTL_SECONDS = 6 * 60 * 60;

export type SignatureCheck = "valid" | "expired" | "invalid";

function secretOf(env: Pick<Env, "SIGNING_SECRET">): string {
	const secret = env.SIGNING_SECRET;
	if (!secret || secret.length < 16) {
		throw new ApiError(
			"service_unavailable",
			"The service is not configured: SIGNING_SECRET is missing (wrangler secret put SIGNING_SECRET).",
		);
	}
	return secret;
}

async function sign(env: Pick<Env, "SIGNING_SECRET">, parts: string[]): Promise<string> {
	return base64UrlEncode(await hmacSha256(secretOf(env), parts.join("\n")));
}

/** A URL's `token=<exp>.<sig>` checked against what it was signed for. */
function checkToken(
	env: Pick<Env, "SIGNING_SECRET">,
	parts: string[],
	token: string | undefined,
	now: number,
): Promise<SignatureCheck> {
	// Exactly `<exp>.<sig>`: split(".", 2) would drop anything after a second dot and pass the token.
	const [exp, sig, ...rest] = (token ?? "").split(".");
	if (rest.length) return Promise.resolve("invalid");
	return check(env, parts, exp, sig, now);
}

async function check(
	env: Pick<Env, "SIGNING_SECRET">,
	parts: string[],
	exp: string | undefined,
	sig: string | undefined,
	now: number,
): Promise<SignatureCheck> {
	if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return "invalid";
	const given = base64UrlDecode(sig);
	// Only the canonical spelling: base64 has spare bits, so other spellings decode to the same bytes.
	if (!given || base64UrlEncode(given) !== sig) return "invalid";
	const expected = await hmacSha256(secretOf(env), [...parts, exp].join("\n"));
	if (!timingSafeEqual(given, expected)) return "invalid";
	return Number(exp) * 1000 < now ? "expired" : "valid";
}

/** Keys are paths: keep `/`, encode each segment. */
const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

export async function signInternalObjectUrl(
	env: Pick<Env, "SIGNING_SECRET" | "INTERNAL_BASE_URL">,
	key: string,
	method: "GET" | "PUT",
	now = Date.now(),
): Promise<string> {
	const exp = String(Math.floor(now / 1000) + INTERNAL_URL_TTL_SECONDS);
	const sig = await sign(env, ["internal", method, key, exp]);
	const url = new URL(`/internal/objects/${encodeKey(key)}`, env.INTERNAL_BASE_URL);
	url.searchParams.set("method", method);
	url.searchParams.set("exp", exp);
	url.searchParams.set("sig", sig);
	return url.toString();
}

export function checkInternalObjectSignature(
	env: Pick<Env, "SIGNING_SECRET">,
	key: string,
	method: string,
	exp?: string,
	sig?: string,
	now = Date.now(),
) {
	return check(env, ["internal", method, key], exp, sig, now);
}

export type ClipAsset = "download" | "thumbnail";

/** `/api/clips/:clipId/<asset>?token=<exp>.<sig>` on `origin`, valid one hour from `now`. */
export async function signClipUrl(
	env: Pick<Env, "SIGNING_SECRET">,
	origin: string,
	clipId: string,
	asset: ClipAsset,
	objectKey: string,
	now = Date.now(),
): Promise<string> {
	const exp = String(Math.floor(now / 1000) + CLIP_URL_TTL_SECONDS);
	const sig = await sign(env, ["clip", asset, objectKey, exp]);
	return `${origin}/api/clips/${encodeURIComponent(clipId)}/${asset}?token=${exp}.${sig}`;
}

export function checkClipToken(
	env: Pick<Env, "SIGNING_SECRET">,
	asset: ClipAsset,
	objectKey: string,
	token: string | undefined,
	now = Date.now(),
) {
	return checkToken(env, ["clip", asset, objectKey], token, now);
}

/**
 * `/api/videos/<videoId>/source?token=<exp>.<sig>` on `origin`: the stored source video, for a
 * player (the dashboard's chapter list seeks it), valid one hour from `now` as clip URLs are.
 */
export async function signSourceUrl(
	env: Pick<Env, "SIGNING_SECRET">,
	origin: string,
	videoId: string,
	objectKey: string,
	now = Date.now(),
): Promise<{ url: string; expiresAt: string }> {
	const expSeconds = Math.floor(now / 1000) + CLIP_URL_TTL_SECONDS;
	const sig = await sign(env, ["source", objectKey, String(expSeconds)]);
	return {
		url: `${origin}/api/videos/${encodeURIComponent(videoId)}/source?token=${expSeconds}.${sig}`,
		expiresAt: new Date(expSeconds * 1000).toISOString(),
	};
}

export function checkSourceToken(
	env: Pick<Env, "SIGNING_SECRET">,
	objectKey: string,
	token: string | undefined,
	now = Date.now(),
) {
	return checkToken(env, ["source", objectKey], token, now);
}

/** `/api/caption-previews/<hash>?token=<exp>.<sig>` on `origin`: a look's preview PNG, valid one hour from `now`. */
export async function signCaptionPreviewUrl(
	env: Pick<Env, "SIGNING_SECRET">,
	origin: string,
	hash: string,
	objectKey: string,
	now = Date.now(),
): Promise<string> {
	const exp = String(Math.floor(now / 1000) + CLIP_URL_TTL_SECONDS);
	const sig = await sign(env, ["caption-preview", objectKey, exp]);
	return `${origin}/api/caption-previews/${encodeURIComponent(hash)}?token=${exp}.${sig}`;
}

export function checkCaptionPreviewToken(
	env: Pick<Env, "SIGNING_SECRET">,
	objectKey: string,
	token: string | undefined,
	now = Date.now(),
) {
	return checkToken(env, ["caption-preview", objectKey], token, now);
}

/**
 * The token of an upload's part URLs (`/api/uploads/:id/parts/:n?token=<exp>.<sig>`): it stands in
 * for an R2 presigned URL (which needs S3 credentials, and does not exist in Miniflare). One token
 * covers every part of one upload until the upload expires; the part's number and size are
 * checked against the upload itself.
 */
export async function signUploadToken(
	env: Pick<Env, "SIGNING_SECRET">,
	uploadId: string,
	expiresAtMs: number,
): Promise<string> {
	const exp = String(Math.floor(expiresAtMs / 1000));
	return `${exp}.${await sign(env, ["upload", uploadId, exp])}`;
}

export function checkUploadToken(
	env: Pick<Env, "SIGNING_SECRET">,
	uploadId: string,
	token: string | undefined,
	now = Date.now(),
) {
	return checkToken(env, ["upload", uploadId], token, now);
}

/** `/admin/smoke/<runId>/download?token=<exp>.<sig>` on `origin`: the smoke check's object, signed as clip downloads are, for ten minutes. */
export async function signSmokeDownloadUrl(
	env: Pick<Env, "SIGNING_SECRET">,
	origin: string,
	runId: string,
	objectKey: string,
	now = Date.now(),
): Promise<string> {
	const exp = String(Math.floor(now / 1000) + 600);
	return `${origin}/admin/smoke/${encodeURIComponent(runId)}/download?token=${exp}.${await sign(env, ["smoke", objectKey, exp])}`;
}

export function checkSmokeDownloadToken(
	env: Pick<Env, "SIGNING_SECRET">,
	objectKey: string,
	token: string | undefined,
	now = Date.now(),
) {
	return checkToken(env, ["smoke", objectKey], token, now);
}
