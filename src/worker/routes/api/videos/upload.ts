/** POST /api/videos/upload: submit a completed upload (POST /api/uploads) with a config, like a hosted URL (Idempotency-Key aware). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { withIdempotency } from "../../../services/idempotency";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";
import { submitUploadedVideo } from "../../../services/submit-video";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { SubmitHostedVideoResponse, SubmitUploadedVideoBody } from "./schemas";
import { submittedResponse } from "./submitted";

const submitRoute = createRoute({
	method: "post",
	path: "/videos/upload",
	tags: ["videos"],
	summary: "Submit an uploaded video file for processing",
	security: BEARER_OR_SESSION,
	request: {
		body: jsonBody(SubmitUploadedVideoBody),
		headers: z.object({
			"idempotency-key": z.string().optional().openapi({ description: "Same key and body within 24 h → the first response again, charged once; same key, other body → 409." }),
		}),
	},
	description:
		"The upload must be completed (POST /api/uploads/{id}/complete; else 409 `conflict`) and not yet submitted (409). The file is probed like a hosted URL: " +
		"not a video → 422 `unsupported_source`, longer than the plan allows → 413 `video_too_long`, nothing charged. Then the same config, stages, charging and " +
		"processing slots as POST /api/videos/hosted; the video's `sourceType` is `upload`, and its id is the one the upload reserved.",
	responses: { 201: jsonOk(SubmitHostedVideoResponse, "Video created; minutes charged."), ...errorResponses(400, 401, 402, 403, 404, 409, 413, 422, 429, 503) },
});

export const registerSubmitUpload = (api: Api) => api.openapi(submitRoute, async (c) => {
	const body = c.req.valid("json");
	const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
	const db = getDb(c.env);
	const outcome = await withIdempotency(db, workspaceId, c.req.header("idempotency-key"), body, async () => {
		const { videoId } = await submitUploadedVideo(c.env, db, createRenderClient(c.env, renderInstance.probe(workspaceId)), {
			workspaceId,
			uploadId: body.uploadId,
			config: body.config ?? null,
			projectId: body.projectId ?? null,
			webhookUrl: body.webhookUrl ?? null,
		});
		return { status: 201, body: await submittedResponse(db, videoId, workspaceId, Boolean(body.config)) };
	});
	if (outcome.replayed) c.header("Idempotent-Replayed", "true");
	return c.json(outcome.body as z.infer<typeof SubmitHostedVideoResponse>, 201);
});
