/**
 * Where a request's milliseconds go, as a `Server-Timing` header (`auth;dur=0.4, d1;dur=3.1, …`),
 * only when the operator turns it on (`SERVER_TIMING = "true"`, which `npm run bench:api` does for
 * its profile): the phases of a status poll are then measured on the real stack instead of guessed.
 * Off, `timed` is a plain await and no header is written. The runtime's clock moves with I/O, so a
 * phase measures its waits (D1, the limiter, the cache), and pure computation shows as ~0.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Timings } from "../env";

/** Times `work` into the phase `name` (phases of the same name add up). */
export async function timed<T>(c: Context<AppEnv>, name: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
	const timings = c.get("timings");
	if (!timings) return typeof work === "function" ? work() : work;
	const started = performance.now();
	try {
		return await (typeof work === "function" ? work() : work);
	} finally {
		timings.set(name, (timings.get(name) ?? 0) + performance.now() - started);
	}
}

/** Adds a measured duration to phase `name`. */
export function addTiming(c: Context<AppEnv>, name: string, ms: number): void {
	const timings = c.get("timings");
	if (timings) timings.set(name, (timings.get(name) ?? 0) + ms);
}

export const serverTiming = createMiddleware<AppEnv>(async (c, next) => {
	if ((c.env as { SERVER_TIMING?: string }).SERVER_TIMING !== "true") return next();
	const timings: Timings = new Map();
	c.set("timings", timings);
	const started = performance.now();
	await next();
	timings.set("app", performance.now() - started);
	c.res.headers.set("Server-Timing", [...timings].map(([name, ms]) => `${name};dur=${ms.toFixed(2)}`).join(", "));
});
