/** GET /api/uploads/{id}: which parts are stored (where to resume), with a fresh part URL. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { uploadView } from "../../../services/uploads";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { originOf, requestedUpload, Upload, UploadId, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "get",
	path: "/uploads/{id}",
	tags: ["uploads"],
	summary: "An upload: which parts are stored (to resume), its status",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: UploadId }), query: WorkspaceQuery },
	responses: {
		200: jsonOk(Upload, "The upload, with a fresh part URL while uploading."),
		...errorResponses(401, 403, 404),
	},
});

export const registerUpload = (api: Api) =>
	api.openapi(route, async (c) => {
		const db = getDb(c.env);
		const upload = await requestedUpload(c, db);
		return c.json(await uploadView(c.env, db, upload, originOf(c.req.url)), 200);
	});
