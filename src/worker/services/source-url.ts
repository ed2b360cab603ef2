import { isForbiddenHost } from "@clipforge/contract";
import { settingsOf } from "../settings";
import { ApiError } from "../errors";

/**
 * First SSRF gate (for sources and webhook receivers alike), on the literal URL: http(s) only, no credentials, no host that is a local
 * name or a non-public IP literal in any spelling (the contract's address policy) unless ALLOW_PRIVATE_SOURCES=true. The render
 * tier's egress proxy checks every resolved address again at connect time; webhook deliveries resolve the host first (webhooks.ts).
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
	if (!settingsOf(env).allowPrivateSources && isForbiddenHost(url.hostname)) {
		throw new ApiError(
			"invalid_url",
			`The service does not fetch from ${url.hostname}: it is not a public address.`,
		);
	}
	return url;
}
