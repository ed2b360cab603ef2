/**
 * A Worker running with a secret that is public (the development value once committed in
 * wrangler.toml) serves loopback only: anyone could sign download and internal object URLs with
 * it. Any other request gets a 500 and the operator a log line saying which secret to set.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { errorResponse } from "../errors";
import { requestLog } from "./request-log";

/** Secret values that have been public. A deployment must never use one. */
export const KNOWN_DEVELOPMENT_SECRETS: ReadonlySet<string> = new Set(["local-dev-signing-secret-not-for-production"]);

const SECRET_NAMES = ["SIGNING_SECRET", "RENDER_SECRET"] as const;

/** The first secret of `env` with a known development value, if any. */
export function developmentSecretIn(env: Partial<Pick<Env, (typeof SECRET_NAMES)[number]>>): string | null {
	return SECRET_NAMES.find((name) => KNOWN_DEVELOPMENT_SECRETS.has(env[name] ?? "")) ?? null;
}

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i;
const LOOPBACK_IP = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/i;

/**
 * Addressed to loopback and, where Cloudflare (or wrangler dev) says who connected, from loopback.
 * In production the URL's host is the Worker's public origin, so this is never true there.
 */
export function isLoopbackRequest(request: Request): boolean {
	if (!LOOPBACK_HOST.test(new URL(request.url).hostname)) return false;
	const client = request.headers.get("cf-connecting-ip");
	return client === null || LOOPBACK_IP.test(client);
}

export function refuseDevelopmentSecrets(): MiddlewareHandler<AppEnv> {
	return async (c, next) => {
		const secret = developmentSecretIn(c.env);
		if (secret && !isLoopbackRequest(c.req.raw)) {
			requestLog(c).error("development_secret_refused", {
				secret,
				message: `clipforge refuses to serve ${new URL(c.req.url).host}: ${secret} is a known development value. Set a real one: openssl rand -base64 48 | npx wrangler secret put ${secret}`,
			});
			return errorResponse(c, "internal_error", "The service is not configured correctly.");
		}
		await next();
	};
}
