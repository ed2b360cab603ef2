/**
 * Reads through D1's Sessions API, so a client far from the primary reads from the nearest replica
 * and still sees its own writes. The client sends back the bookmark of its last answer
 * (`X-Clipforge-Bookmark`, the SDK does it); without one, a read starts anywhere. A write always
 * starts at the primary, whatever it sends: authenticating and authorising a write must see the
 * latest revocations and roles, and the primary is at least as new as any bookmark. A bookmark can
 * only move a read forward, so the session constraints (`first-unconstrained`, `first-primary`)
 * are not accepted as one. Every answer carries the session's latest bookmark. Locally (no
 * replicas) the same code runs against the one database.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

export const BOOKMARK_HEADER = "X-Clipforge-Bookmark";
/** D1 bookmarks are short opaque strings of hex groups; anything else is ignored rather than trusted. */
const BOOKMARK = /^[\w.:-]{1,200}$/;

/** Where a request's D1 session starts: a constraint, or the bookmark the client sent. */
export function sessionStart(method: string, sent: string | undefined): string {
	const isRead = method === "GET" || method === "HEAD";
	if (!isRead) return "first-primary";
	return sent && BOOKMARK.test(sent) && !sent.startsWith("first-") ? sent : "first-unconstrained";
}

export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
	const base = c.env.DB;
	const session = base.withSession(sessionStart(c.req.method, c.req.header(BOOKMARK_HEADER)));
	// Credentials are verified against the primary (a replica may not have seen a revocation yet);
	// a verified key is cached, so this costs a primary read only on a cache miss.
	c.set("primaryDb", base.withSession("first-primary") as unknown as D1Database);
	// Everything below reads `c.env.DB` (getDb(c.env)): this request's copy of env points at the session.
	c.env = { ...c.env, DB: session as unknown as D1Database };
	await next();
	const bookmark = session.getBookmark();
	if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
});
