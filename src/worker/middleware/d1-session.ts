/**
 * Reads through D1's Sessions API, so a client far from the primary reads from the nearest replica
 * and still sees its own writes. The client sends back the bookmark of its last answer
 * (`X-Clipforge-Bookmark`, the SDK does it); without one, a read starts anywhere and a write at the
 * primary. Every answer carries the session's latest bookmark. Locally (no replicas) the same code
 * runs against the one database.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

export const BOOKMARK_HEADER = "X-Clipforge-Bookmark";
/** D1 bookmarks are short opaque strings; anything else is ignored rather than trusted. */
const BOOKMARK = /^[\w.:-]{1,200}$/;

export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
	const sent = c.req.header(BOOKMARK_HEADER);
	const isRead = c.req.method === "GET" || c.req.method === "HEAD";
	const session = c.env.DB.withSession(
		sent && BOOKMARK.test(sent) ? sent : isRead ? "first-unconstrained" : "first-primary",
	);
	// Everything below reads `c.env.DB` (getDb(c.env)): this request's copy of env points at the session.
	c.env = { ...c.env, DB: session as unknown as D1Database };
	await next();
	const bookmark = session.getBookmark();
	if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
});
