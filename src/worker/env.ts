import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MembershipRole } from "@clipforge/domain";

/** Who is calling, as the auth middleware resolved it. */
export type Principal =
	| { kind: "api_key"; apiKeyId: string; workspaceIds: [string] }
	| {
			kind: "session";
			sessionId: string;
			userId: string;
			workspaceIds: string[];
			roles: Record<string, MembershipRole>;
	  };

/** Where a request's milliseconds went, by phase (middleware/server-timing.ts). */
export type Timings = Map<string, number>;

export interface AppEnv {
	Bindings: Env;
	Variables: {
		requestId: string;
		principal: Principal;
		/** A D1 session at the primary, for verifying credentials (middleware/d1-session.ts). */
		primaryDb?: D1Database;
		/** Set only when SERVER_TIMING is on (middleware/server-timing.ts). */
		timings?: Timings;
	};
}

export type App = OpenAPIHono<AppEnv>;
/** The `/api` router every API route file registers on. */
export type Api = OpenAPIHono<AppEnv>;
