import { OpenAPIHono } from "@hono/zod-openapi";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./env";
import { errorResponse, handleError, handleZodError } from "./errors";
import { d1Session } from "./middleware/d1-session";
import { limitBodies, MAX_BODY_BYTES } from "./middleware/body-limit";
import { SESSION_COOKIE_NAME } from "./middleware/auth";
import { createApi } from "./routes/api";
import { dashboardRoutes } from "./routes/dashboard";
import { renderDocsPage } from "./routes/docs";
import { refuseDevelopmentSecrets } from "./middleware/refuse-dev-secrets";
import { serverTiming } from "./middleware/server-timing";
import { internalObjectRoutes } from "./routes/internal/objects";
import { smokeRoutes } from "./routes/admin/smoke";
import { internalOperatorRoutes } from "./routes/internal/operator";
import { mcpRoutes } from "./routes/mcp";

export function createApp() {
	const app = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError });

	app.use("*", serverTiming);
	app.use("*", requestId({ headerName: "X-Request-Id" }));
	app.use("*", refuseDevelopmentSecrets());
	app.use("*", limitBodies);
	app.onError(handleError);
	app.notFound((c) => errorResponse(c, "not_found", `No route ${c.req.method} ${c.req.path}.`));

	app.get("/healthz", (c) => c.json({ ok: true, service: "clipforge" }));
	app.route("/", dashboardRoutes);
	app.route("/internal", internalObjectRoutes);
	// The operator's smoke check: its own secret, not tenant credentials (routes/admin/smoke/).
	app.route("/admin", smokeRoutes);
	app.route("/internal", internalOperatorRoutes);
	app.use("/api/*", d1Session);
	app.route("/api", createApi());
	// The MCP server's tools call the API through this same app, in-process.
	app.route(
		"/mcp",
		mcpRoutes((request, env, ctx) => app.fetch(request, env, ctx)),
	);

	app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
		type: "http",
		scheme: "bearer",
		description: "An API key: `cf_live_…`",
	});
	app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", {
		type: "apiKey",
		in: "cookie",
		name: SESSION_COOKIE_NAME,
		description: "Set by POST /api/auth/login.",
	});
	app.doc31("/api/openapi.json", OPENAPI_INFO);
	app.get("/docs", (c) => c.html(renderDocsPage(app.getOpenAPI31Document(OPENAPI_INFO))));
	return app;
}

const OPENAPI_INFO = {
	openapi: "3.1.0",
	info: {
		title: "clipforge API",
		version: "0.1.0",
		description: `Turns a hosted video URL into short, scored, captioned clips. Every request body is limited to ${MAX_BODY_BYTES / 1024} KiB (413 \`payload_too_large\`).`,
	},
};

/** The document GET /api/openapi.json serves, built without serving anything (`npm run sdk:types`). */
export const openApiDocument = () => createApp().getOpenAPI31Document(OPENAPI_INFO);
