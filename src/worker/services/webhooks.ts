/**
 * Webhook events: `video.completed` / `video.failed`, POSTed as JSON `{event, video, clipsCount}`
 * (plus, for `video.completed`, `chapters: {count, madeBy}`: whether GET …/chapters has chapters
 * to give; count 0 when the video is too short for them) to the video's webhookUrl (or its workspace's), signed with the workspace's secret:
 *
 *   X-Clipforge-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>.<raw body>")>
 *
 * Receivers recompute v1 over the raw body, compare in constant time, and refuse a `t` older than
 * five minutes (replays). Every attempt is recorded (GET /api/videos/:id/webhooks). Before each
 * attempt the receiver's host is resolved and checked (public-host.ts): a name that now points at a
 * private address gets nothing, and the attempt is recorded as refused.
 */
import type { Db } from "../db/client";
import { recordWebhookDelivery, webhookAttempts, webhookTargetOf } from "../db/webhooks";
import { ensureWebhookSecret } from "../db/workspaces";
import { base64UrlEncode, hmacSha256, toHex } from "./crypto";
import { refusedHostReason } from "./public-host";

export type WebhookEvent = "video.completed" | "video.failed";
const TIMEOUT_MS = 10_000;

export function newWebhookSecret(): string {
	return `whsec_${base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)))}`;
}

export async function signWebhook(secret: string, timestamp: number, body: string): Promise<string> {
	return `t=${timestamp},v1=${toHex(await hmacSha256(secret, `${timestamp}.${body}`))}`;
}

interface Target {
	url: string;
	secret: string;
	payload: {
		event: WebhookEvent;
		video: Record<string, unknown>;
		clipsCount: number;
		chapters?: { count: number; madeBy: string } | null;
	};
}

/** Where and what to send for a finished video, or null when nobody asked for webhooks. */
export async function webhookTarget(db: Db, videoId: string, event: WebhookEvent): Promise<Target | null> {
	const row = await webhookTargetOf(db, videoId);
	if (!row?.url) return null;
	// First webhook of the workspace: give it a secret (kept if another request set one first).
	const secret = row.secret ?? (await ensureWebhookSecret(db, row.video.workspaceId, newWebhookSecret()));
	return {
		url: row.url,
		secret,
		payload: {
			event,
			video: { ...row.video, sourceType: row.video.sourceType === "upload" ? "upload" : "hosted" },
			clipsCount: row.clipsCount,
		},
	};
}

/** One delivery attempt, recorded; throws when the receiver did not answer 2xx (so the step retries). */
export async function deliverWebhook(
	db: Db,
	videoId: string,
	target: Target,
	env: Pick<Env, "ALLOW_PRIVATE_SOURCES" | "DNS_RESOLVER_URL">,
): Promise<void> {
	const body = JSON.stringify(target.payload);
	const timestamp = Math.floor(Date.now() / 1000);
	const attempt = (await webhookAttempts(db, videoId, target.payload.event)) + 1;
	const started = Date.now();
	let statusCode: number | null = null;
	let error: string | null = null;
	try {
		const refused = await refusedHostReason(new URL(target.url), env);
		if (refused) throw new RefusedReceiverError(refused);
		const response = await fetch(target.url, {
			method: "POST",
			headers: {
				"content-type": "application/json",
				"user-agent": "clipforge-webhooks/1",
				"x-clipforge-event": target.payload.event,
				"x-clipforge-delivery": `${videoId}:${target.payload.event}:${attempt}`,
				"x-clipforge-signature": await signWebhook(target.secret, timestamp, body),
			},
			body,
			redirect: "manual", // a receiver must answer itself; following redirects would reopen SSRF
			signal: AbortSignal.timeout(TIMEOUT_MS),
		});
		statusCode = response.status;
		await response.body?.cancel();
		if (statusCode < 200 || statusCode >= 300) error = `receiver answered ${statusCode}`;
	} catch (cause) {
		error =
			cause instanceof RefusedReceiverError
				? cause.message
				: `receiver unreachable: ${(cause as Error).message}`.slice(0, 300);
	}
	await recordWebhookDelivery(db, {
		videoId,
		event: target.payload.event,
		url: target.url,
		attempt,
		statusCode,
		error,
		durationMs: Date.now() - started,
	});
	if (error) throw new Error(`Webhook delivery ${attempt} failed: ${error}`);
}

/** The receiver's host was refused before anything was sent to it. */
class RefusedReceiverError extends Error {
	constructor(reason: string) {
		super(`not sent: ${reason}`.slice(0, 300));
	}
}
