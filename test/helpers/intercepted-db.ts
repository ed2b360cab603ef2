/**
 * env.DB with every execution passing through `around` (db/d1-intercept.ts), its sessions too: the
 * API reads through D1's Sessions API, so a test that wraps only `prepare` and `batch` misses them.
 */
import { env } from "cloudflare:workers";
import { interceptD1, type D1Interceptor } from "../../src/worker/db/d1-intercept";

export function interceptedEnvDb(around: D1Interceptor): D1Database {
	return new Proxy(env.DB, {
		get(target, property) {
			if (property === "withSession")
				return (constraint: string) =>
					interceptD1(target.withSession(constraint) as unknown as D1Database, around);
			if (property === "prepare" || property === "batch")
				return (interceptD1(target, around) as unknown as Record<string, unknown>)[property];
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? (value as () => unknown).bind(target) : value;
		},
	});
}
