/**
 * Only the Worker may run jobs here. Every job request must carry the Worker's HMAC signature
 * (@clipforge/contract request-auth.ts) over its method, path, timestamp, nonce and body, as
 * `Content-Type: application/json`; a nonce is accepted once. Any request with an `Origin` header
 * comes from a browser (the Worker never sends one) and is refused before anything else, so a web
 * page cannot reach the tier even with a CORS-simple `text/plain` POST.
 */
import {
	isUsableRenderSecret,
	MIN_RENDER_SECRET_LENGTH,
	RENDER_AUTH_WINDOW_SECONDS,
	verifyRenderRequest,
	type RenderError,
} from "@clipforge/contract";
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type GuardEnv = { Variables: { rawBody: string } };

const refusal = (c: Context, status: ContentfulStatusCode, code: RenderError["code"], message: string) =>
	c.json({ error: { code, message, retryable: false } satisfies RenderError }, status);

/** The tier's secret from its environment; the server does not start without one. */
export function renderSecretFromEnv(env: NodeJS.ProcessEnv = process.env): string {
	const secret = env.RENDER_SECRET;
	if (!isUsableRenderSecret(secret)) {
		throw new Error(
			`RENDER_SECRET is ${secret ? `shorter than ${MIN_RENDER_SECRET_LENGTH} characters` : "not set"}: the render tier accepts only requests signed by the Worker with it.`,
		);
	}
	return secret;
}

/** Any route: a browser's request (it names its Origin) is refused. */
export function refuseBrowsers(): MiddlewareHandler {
	return async (c, next) => {
		if (c.req.header("origin") !== undefined)
			return refusal(c, 403, "forbidden", "The render tier serves only the clipforge Worker.");
		await next();
	};
}

/**
 * Job routes: JSON only (415 otherwise), then a valid, fresh, unused signature (401 otherwise).
 * The verified body text is left in `c.var.rawBody` for the handler.
 */
export function requireWorkerSignature(
	secret: string,
	nonces = new NonceLedger(),
	now: () => number = Date.now,
): MiddlewareHandler<GuardEnv> {
	return async (c, next) => {
		const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
		if (type !== "application/json")
			return refusal(c, 415, "invalid_request", "Job requests must be Content-Type: application/json.");
		const header = c.req.header("authorization");
		if (!header) return refusal(c, 401, "unauthorized", "The request is not signed by the Worker.");
		const url = new URL(c.req.url);
		const body = await c.req.text();
		const verdict = await verifyRenderRequest(
			secret,
			header,
			{ method: c.req.method, path: url.pathname + url.search, body },
			now(),
		);
		if (!verdict.ok) return refusal(c, 401, "unauthorized", `The request's signature is ${verdict.reason}.`);
		if (!nonces.claim(verdict.nonce, now()))
			return refusal(c, 401, "unauthorized", "The request was already received (replay).");
		c.set("rawBody", body);
		await next();
	};
}

/**
 * Nonces seen within the signature window. Only correctly signed requests add one, so its size is
 * bounded by the Worker's own request rate; entries older than the window are dropped as it grows.
 */
export class NonceLedger {
	private readonly seen = new Map<string, number>();

	/** True the first time `nonce` is seen within the window. */
	claim(nonce: string, now: number): boolean {
		if (this.seen.size > 1000) this.prune(now);
		if (this.seen.has(nonce)) return false;
		this.seen.set(nonce, now + 2 * RENDER_AUTH_WINDOW_SECONDS * 1000);
		return true;
	}

	private prune(now: number): void {
		for (const [nonce, until] of this.seen) if (until < now) this.seen.delete(nonce);
	}
}
