/** POST /api/uploads/{id}/complete: every part stored, the upload can be submitted. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { completeUpload, uploadView } from "../../../services/uploads";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { originOf, requestedUpload, Upload, UploadId, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "post",
	path: "/uploads/{id}/complete",
	tags: ["uploads"],
	summary: "Finish an upload once every part is stored",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: UploadId }), query: WorkspaceQuery },
	description:
		"409 `conflict` with `details.missingParts` while parts are missing. Completing a completed upload answers it again.",
	responses: {
		200: jsonOk(Upload, "Completed: submit it with POST /api/videos/upload."),
		...errorResponses(401, 403, 404, 409),
	},
});

export const registerCompleteUpload = (api: Api) =>
	api.openapi(route, async (c) => {
		const db = getDb(c.env);
		const upload = await requestedUpload(c, db);
		return c.json(await uploadView(c.env, db, await completeUpload(c.env, db, upload), originOf(c.req.url)), 200);
	});
