import { isLocalHostname, isPrivateAddress } from "@clipforge/contract";
import { settingsOf } from "../settings";
import { ApiError } from "../errors";

/**
 * First SSRF gate (for sources and webhook receivers alike), on the literal URL: http(s) only, no credentials, no private or loopback host
 * unless ALLOW_PRIVATE_SOURCES=true. The render tier checks again after DNS resolution.
 */
export function parseSourceUrl(raw: string, env: Pick<Env, "ALLOW_PRIVATE_SOURCES">, field = "hostedUrl"): URL {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new ApiError("invalid_url", `${field} is not a valid URL.`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw new ApiError("invalid_url", `${field} must be an http or https URL.`);
	}
	if (url.username || url.password) throw new ApiError("invalid_url", `${field} must not contain credentials.`);
	const host = url.hostname.replace(/^\[|\]$/g, "");
	if (!settingsOf(env).allowPrivateSources && (isLocalHostname(host) || isPrivateAddress(host))) {
		throw new ApiError("invalid_url", `The service does not fetch from ${url.hostname}: it is not a public address.`);
	}
	return url;
}
