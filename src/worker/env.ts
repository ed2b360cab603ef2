import type { OpenAPIHono } from "@hono/zod-openapi";

/** What the auth middleware resolved for this request. */
export interface Principal {
	kind: "api_key";
	apiKeyId: string;
	workspaceId: string;
}

export interface AppEnv {
	Bindings: Env;
	Variables: {
		requestId: string;
		principal: Principal;
	};
}

export type App = OpenAPIHono<AppEnv>;
