import { OpenAPIHono } from "@hono/zod-openapi";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./env";
import { errorResponse, handleError, handleZodError } from "./errors";
import { authenticate } from "./middleware/auth";
import { rateLimit } from "./middleware/rate-limit";
import { requireJson } from "./middleware/require-json";
import { apiKeyRoutes } from "./routes/api-keys.routes";
import { authRoutes } from "./routes/auth.routes";
import { backgroundRoutes } from "./routes/backgrounds.routes";
import { projectRoutes } from "./routes/projects.routes";
import { clipFileRoutes } from "./routes/clip-files.routes";
import { dashboardRoutes } from "./routes/dashboard/dashboard.routes";
import { renderDocsPage } from "./routes/docs-page";
import { internalObjectRoutes } from "./routes/internal-objects.routes";
import { transcriptRoutes } from "./routes/videos/transcript.routes";
import { videoCollectionRoutes } from "./routes/videos/video-collection.routes";
import { videoRoutes } from "./routes/videos/videos.routes";
import { watermarkRoutes } from "./routes/watermark.routes";
import { webhookRoutes } from "./routes/webhooks.routes";
import { workspaceRoutes } from "./routes/workspaces.routes";

export function createApp() {
	const app = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError });

	app.use("*", requestId({ headerName: "X-Request-Id" }));
	app.onError(handleError);
	app.notFound((c) => errorResponse(c, "not_found", `No route ${c.req.method} ${c.req.path}.`));

	app.get("/healthz", (c) => c.json({ ok: true, service: "clipforge" }));
	app.route("/", dashboardRoutes);
	app.route("/internal", internalObjectRoutes);
	app.route("/api/clips", clipFileRoutes);

	app.use("/api/auth/login", requireJson);
	app.route("/api/auth", authRoutes);
	for (const prefix of ["/api/videos", "/api/workspaces", "/api/api-keys", "/api/projects", "/api/backgrounds"]) {
		// `/x/*` also matches `/x` itself: one registration, so each request is authenticated and counted once.
		app.use(`${prefix}/*`, authenticate, rateLimit, requireJson);
	}
	app.route("/api/videos", videoCollectionRoutes);
	app.route("/api/videos", videoRoutes);
	app.route("/api/videos", transcriptRoutes);
	app.route("/api/workspaces", workspaceRoutes);
	app.route("/api/api-keys", apiKeyRoutes);
	app.route("/api/projects", projectRoutes);
	app.route("/api/backgrounds", backgroundRoutes);
	app.route("/api", webhookRoutes);
	app.route("/api", watermarkRoutes);

	app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "An API key: `cf_live_…`" });
	app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", { type: "apiKey", in: "cookie", name: "cf_session", description: "Set by POST /api/auth/login." });
	const info = { openapi: "3.1.0", info: { title: "clipforge API", version: "0.1.0", description: "Turns a hosted video URL into short, scored, captioned clips." } };
	app.doc31("/api/openapi.json", info);
	app.get("/docs", (c) => c.html(renderDocsPage(app.getOpenAPI31Document(info))));
	return app;
}
