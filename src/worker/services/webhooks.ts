/**
 * Webhook events: `video.completed` / `video.failed`, POSTed as JSON `{event, video, clipsCount}`
 * to the video's webhookUrl (or its workspace's), signed with the workspace's secret:
 *
 *   X-Clipforge-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>.<raw body>")>
 *
 * Receivers recompute v1 over the raw body, compare in constant time, and refuse a `t` older than
 * five minutes (replays). Every attempt is recorded (GET /api/videos/:id/webhooks).
 */
import { base64UrlEncode, hmacSha256, toHex } from "./crypto";

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
	payload: { event: WebhookEvent; video: Record<string, unknown>; clipsCount: number };
}

/** Where and what to send for a finished video, or null when nobody asked for webhooks. */
export async function webhookTarget(db: D1Database, videoId: string, event: WebhookEvent): Promise<Target | null> {
	const row = await db
		.prepare(
			`SELECT v.id, v.title, v.status, v.error_message AS errorMessage, v.source_url AS sourceUrl, v.workspace_id AS workspaceId, v.created_at AS createdAt,
			        v.completed_at AS completedAt, COALESCE(v.webhook_url, w.webhook_url) AS url, w.webhook_secret AS secret,
			        (SELECT COUNT(*) FROM clips c WHERE c.video_id = v.id AND c.status = 'completed') AS clipsCount
			 FROM videos v JOIN workspaces w ON w.id = v.workspace_id WHERE v.id = ?`,
		)
		.bind(videoId)
		.first<{ url: string | null; secret: string | null; clipsCount: number } & Record<string, unknown>>();
	if (!row?.url) return null;
	let secret = row.secret;
	if (!secret) {
		// First webhook of the workspace: give it a secret (kept if another request set one first).
		await db.prepare("UPDATE workspaces SET webhook_secret = ?2 WHERE id = ?1 AND webhook_secret IS NULL").bind(row.workspaceId, newWebhookSecret()).run();
		secret = (await db.prepare("SELECT webhook_secret AS s FROM workspaces WHERE id = ?").bind(row.workspaceId).first<string>("s"))!;
	}
	const { url, clipsCount, secret: _secret, ...video } = row;
	return { url, secret, payload: { event, video: { ...video, sourceType: "hosted" }, clipsCount } };
}

/** One delivery attempt, recorded; throws when the receiver did not answer 2xx (so the step retries). */
export async function deliverWebhook(db: D1Database, videoId: string, target: Target): Promise<void> {
	const body = JSON.stringify(target.payload);
	const timestamp = Math.floor(Date.now() / 1000);
	const attempt =
		((await db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE video_id = ?1 AND event = ?2").bind(videoId, target.payload.event).first<number>("n")) ?? 0) + 1;
	const started = Date.now();
	let statusCode: number | null = null;
	let error: string | null = null;
	try {
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
		error = `receiver unreachable: ${(cause as Error).message}`.slice(0, 300);
	}
	await db
		.prepare("INSERT INTO webhook_deliveries (video_id, event, url, attempt, status_code, error, duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
		.bind(videoId, target.payload.event, target.url, attempt, statusCode, error, Date.now() - started)
		.run();
	if (error) throw new Error(`Webhook delivery ${attempt} failed: ${error}`);
}
