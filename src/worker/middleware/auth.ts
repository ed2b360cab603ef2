/**
 * Resolves the caller: `Authorization: Bearer cf_live_…` (an API key: one workspace) or the
 * `__Host-cf_session` cookie of a signed-in user (every workspace they are a member of). A Bearer
 * header wins when both are sent. Anything missing, malformed, unknown, revoked or expired is a 401.
 *
 * The cookie's `__Host-` prefix makes browsers accept it only when set Secure, for this exact host,
 * with Path=/: a sibling subdomain or a plain-http response cannot plant or overwrite it (session
 * fixation). The old `cf_session` name is not accepted: honouring it, even for a transition, would
 * keep exactly that hole open, and the cost of refusing it is one more sign-in.
 */
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { findActiveKey, findLiveSession, rolesOfUser, stampKeyUsed } from "../db/access";
import { getDb } from "../db/client";
import { MANAGER_ROLES } from "@clipforge/domain";
import type { AppEnv, Principal } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../services/crypto";
import { noteKeyUsed, verifiedKey } from "../services/key-cache";
import type { Logger } from "../lib/log";
import { requestLog } from "./request-log";
import { timed } from "./server-timing";

export const API_KEY_PREFIX = "cf_live_";
/** The cookie's name without its prefix (hono's cookie helpers add `__Host-` with `prefix: "host"`). */
export const SESSION_COOKIE = "cf_session";
export const SESSION_COOKIE_PREFIX = "host" as const;
/** As the browser sends it. */
export const SESSION_COOKIE_NAME = `__Host-${SESSION_COOKIE}`;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
	const header = c.req.header("authorization");
	const cookie = getCookie(c, SESSION_COOKIE, SESSION_COOKIE_PREFIX);
	let principal: Principal;
	// Credentials are read on the primary, never a replica that may not have seen a revocation, a
	// sign-out, a password change or a role change yet (d1-session.ts). A verified key is cached
	// (key-cache.ts); a session costs one primary read of it and its roles per request.
	const primary = c.get("primaryDb");
	const onPrimary = primary ? { ...c.env, DB: primary } : c.env;
	if (header) {
		principal = await timed(
			c,
			"auth",
			fromApiKey(onPrimary, header, (work) => c.executionCtx.waitUntil(work), requestLog(c)),
		);
	} else if (cookie) principal = await timed(c, "auth", fromSession(onPrimary, cookie));
	else throw new ApiError("unauthorized", "Send an API key as `Authorization: Bearer <API_KEY>`, or sign in.");
	c.set("principal", principal);
	await next();
});

/** Routes only a signed-in person may use (key management): an API key gets 403. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
	// No principal: no endpoint matched this path (so nothing authenticated it); refuse rather than guess.
	const principal = c.get("principal") as Principal | undefined;
	if (!principal) throw new ApiError("unauthorized", "Sign in (POST /api/auth/login) to manage API keys.");
	if (principal.kind !== "session")
		throw new ApiError("forbidden", "This needs a signed-in session (POST /api/auth/login), not an API key.");
	await next();
});

/**
 * How stale an API key's `lastUsedAt` may get. Writing it on every request would put a D1 write
 * on every status poll; once per interval per key is enough to tell a live key from a dead one.
 */
export const LAST_USED_RESOLUTION_MS = 5 * 60_000;

async function fromApiKey(
	env: Env,
	header: string,
	inBackground: (work: Promise<unknown>) => void,
	log: Logger,
): Promise<Principal> {
	const token = BEARER.exec(header)?.[1];
	if (!token || !token.startsWith(API_KEY_PREFIX))
		throw new ApiError("unauthorized", "The Authorization header must be `Bearer cf_live_…`.");
	const db = getDb(env);
	const keyHash = await sha256Hex(token);
	// A cached verification needs no D1 read: a status poll then reads D1 once, for the video.
	const key = await verifiedKey(keyHash, () => findActiveKey(db, keyHash), inBackground);
	if (!key) throw new ApiError("unauthorized", "The API key is unknown or revoked.");
	const now = Date.now();
	if (!key.lastUsedAt || now - Date.parse(key.lastUsedAt) >= LAST_USED_RESOLUTION_MS) {
		// After the response, so the caller never waits on it; a lost update only delays the stamp.
		const at = new Date(now).toISOString();
		noteKeyUsed(keyHash, at);
		const stamp = stampKeyUsed(db, key.id, at);
		inBackground(
			stamp.catch((error: unknown) =>
				log.error("api_key_last_used_failed", { workspaceId: key.workspaceId, apiKeyId: key.id, error }),
			),
		);
	}
	return { kind: "api_key", apiKeyId: key.id, workspaceIds: [key.workspaceId] };
}

async function fromSession(env: Env, token: string): Promise<Principal> {
	const db = getDb(env);
	const session = await findLiveSession(db, await sha256Hex(token));
	if (!session) throw new ApiError("unauthorized", "The session has expired or was signed out; sign in again.");
	const roles = await rolesOfUser(db, session.userId);
	return { kind: "session", sessionId: session.id, userId: session.userId, workspaceIds: Object.keys(roles), roles };
}

/**
 * The workspace a write acts on. An API key's own (a different `workspaceId` → 403); a session
 * user must name one of theirs (missing → 400, not a member → 403).
 */
export function resolveWorkspace(principal: Principal, requested: string | undefined): string {
	if (principal.kind === "api_key") {
		const own = principal.workspaceIds[0];
		if (requested && requested !== own)
			throw new ApiError("forbidden", "This API key belongs to another workspace than workspaceId.");
		return own;
	}
	if (!requested) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{
				path: "workspaceId",
				message: "required when signed in with a session (you may belong to several workspaces)",
			},
		]);
	}
	return workspaceScope(principal, requested)[0]!;
}

/** The workspaces a read covers: the one asked for (403 unless it is yours), or all of yours. */
export function workspaceScope(principal: Principal, requested: string | undefined): string[] {
	if (!requested) return principal.workspaceIds;
	if (!principal.workspaceIds.includes(requested))
		throw new ApiError("forbidden", "You are not a member of that workspace.");
	return [requested];
}

/**
 * The workspace a managing write acts on (as resolveWorkspace), refused with 403 `forbidden` for a
 * signed-in member who is not its owner or an admin. An API key was minted by an owner or admin
 * and acts with the workspace's authority.
 */
export function resolveManagedWorkspace(principal: Principal, requested: string | undefined): string {
	const workspaceId = resolveWorkspace(principal, requested);
	assertManager(principal, workspaceId);
	return workspaceId;
}

/** An owner or admin of the workspace, or one of its API keys (minted by one and acting with its authority). */
export function isManager(principal: Principal, workspaceId: string): boolean {
	return principal.kind !== "session" || (MANAGER_ROLES as readonly string[]).includes(principal.roles[workspaceId]!);
}

export function assertManager(principal: Principal, workspaceId: string): void {
	if (principal.kind === "session" && !isManager(principal, workspaceId)) {
		throw new ApiError("forbidden", "Only the workspace's owner or an admin can do this; members cannot.", {
			role: principal.roles[workspaceId] ?? null,
		});
	}
}
