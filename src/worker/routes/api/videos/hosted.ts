/** POST /api/videos/hosted: submit a hosted video URL (Idempotency-Key aware). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { withIdempotency } from "../../../services/idempotency";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";
import { submitHostedVideo } from "../../../services/submit-video";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { SubmitHostedVideoBody, SubmitHostedVideoResponse } from "./schemas";
import { submittedResponse } from "./submitted";

const submitRoute = createRoute({
	method: "post",
	path: "/videos/hosted",
	tags: ["videos"],
	summary: "Submit a hosted video URL for processing",
	security: BEARER_OR_SESSION,
	request: {
		body: jsonBody(SubmitHostedVideoBody),
		headers: z.object({
			"idempotency-key": z.string().optional().openapi({ description: "Same key and body within 24 h → the first response again, charged once; same key, other body → 409." }),
		}),
	},
	description:
		"Charges the minutes at once. A workspace processes at most its plan's number of videos at once (default 2); a video over that is still accepted (201, charged) " +
		"and waits its turn in `downloading` with `job.queuePosition` in its status. At most 50 may wait: past that the submission is refused with 429 `queue_full` (nothing charged).",
	responses: { 201: jsonOk(SubmitHostedVideoResponse, "Video created; minutes charged."), ...errorResponses(400, 401, 402, 403, 404, 409, 413, 422, 429, 503) },
});

export const registerSubmitHosted = (api: Api) => api.openapi(submitRoute, async (c) => {
	const body = c.req.valid("json");
	const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
	const db = getDb(c.env);
	const outcome = await withIdempotency(db, workspaceId, c.req.header("idempotency-key"), body, async () => {
		const { videoId } = await submitHostedVideo(c.env, db, createRenderClient(c.env, renderInstance.probe(workspaceId)), {
			workspaceId,
			hostedUrl: body.hostedUrl,
			config: body.config ?? null,
			projectId: body.projectId ?? null,
			webhookUrl: body.webhookUrl ?? null,
		});
		return { status: 201, body: await submittedResponse(db, videoId, workspaceId, Boolean(body.config)) };
	});
	if (outcome.replayed) c.header("Idempotent-Replayed", "true");
	return c.json(outcome.body as z.infer<typeof SubmitHostedVideoResponse>, 201);
});
