/**
 * Everything under /api. Authentication is the default: every route here needs an API key or a
 * session, then is rate-limited and must send JSON writes, unless its path is one of the public
 * exceptions named below. A path no route answers is a 404 for anyone.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Api, AppEnv } from "../../env";
import { handleZodError } from "../../errors";
import { authenticate } from "../../middleware/auth";
import { rateLimit } from "../../middleware/rate-limit";
import { requireJson } from "../../middleware/require-json";
import { sameOriginWrites } from "../../middleware/same-origin";
import { registerApiKeys } from "./api-keys";
import { PUBLIC_AUTH_PATHS, registerAuth } from "./auth";
import { registerBackgrounds } from "./backgrounds";
import { PUBLIC_CAPTION_PREVIEW_PATHS, registerCaptionPreviews } from "./caption-previews";
import { registerCaptionTemplates } from "./caption-templates";
import { PUBLIC_CLIP_PATHS, registerClip, registerClipFiles } from "./clips";
import { registerProjects } from "./projects";
import { PUBLIC_UPLOAD_PATHS, registerUploads } from "./uploads";
import {
	PUBLIC_SOURCE_PATHS,
	registerChapters,
	registerClips,
	registerConfigure,
	registerDeleteVideo,
	registerExport,
	registerReprocess,
	registerSourceFile,
	registerSourceUrl,
	registerStatus,
	registerSubmitHosted,
	registerSubmitUpload,
	registerTranscript,
	registerVideo,
	registerVideoList,
	registerVideoWebhooks,
} from "./videos";
import { registerWatermark, registerWorkspaceList, registerWorkspaceWebhook } from "./workspaces";

export const API_BASE = "/api";
/** The only routes under /api callers reach without credentials: signing in and out, signed clip URLs, a video's signed source URL, signed upload part URLs, signed caption previews, the OpenAPI document. */
export const PUBLIC_API_PATHS = new Set(
	[
		...PUBLIC_AUTH_PATHS,
		...PUBLIC_CLIP_PATHS,
		...PUBLIC_SOURCE_PATHS,
		...PUBLIC_UPLOAD_PATHS,
		...PUBLIC_CAPTION_PREVIEW_PATHS,
		"/openapi.json",
	].map((path) => API_BASE + path),
);

/** Credentials (and a session's writes from this site), then the caller's rate limit, then JSON writes: the order a caller hears about problems in. */
const guard: MiddlewareHandler<AppEnv> = (c, next) =>
	authenticate(c, async () => {
		await sameOriginWrites(c, async () => {
			await rateLimit(c, async () => {
				await requireJson(c, next);
			});
		});
	});

const authenticateByDefault = createMiddleware<AppEnv>(async (c, next) => {
	const endpoints = matchedRoutes(c).filter((route) => route.method !== "ALL");
	if (endpoints.length === 0 || endpoints.every((route) => PUBLIC_API_PATHS.has(route.path))) return next();
	return guard(c, next);
});

/** In the order they appear in the OpenAPI document. */
const REGISTER: ((api: Api) => unknown)[] = [
	registerAuth,
	registerVideoList,
	registerDeleteVideo,
	registerSubmitHosted,
	registerSubmitUpload,
	registerConfigure,
	registerStatus,
	registerClips,
	registerVideo,
	registerTranscript,
	registerChapters,
	registerSourceUrl,
	registerReprocess,
	registerClip,
	registerExport,
	registerUploads,
	registerWorkspaceList,
	registerApiKeys,
	registerProjects,
	registerBackgrounds,
	registerWorkspaceWebhook,
	registerVideoWebhooks,
	registerWatermark,
	registerClipFiles,
	registerSourceFile,
	registerCaptionTemplates,
	registerCaptionPreviews,
];

export function createApi(): Api {
	const api = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError });
	api.use("*", authenticateByDefault);
	for (const register of REGISTER) register(api);
	return api;
}
