/** DELETE /api/uploads/{id}: aborts an upload (or deletes a completed one no video uses). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { deleteUpload } from "../../../services/uploads";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { requestedUpload, UploadId, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "delete",
	path: "/uploads/{id}",
	tags: ["uploads"],
	summary: "Abort an upload (or delete a completed one no video uses)",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: UploadId }), query: WorkspaceQuery },
	responses: {
		200: jsonOk(
			z.object({ id: z.string(), deleted: z.literal(true) }).openapi("DeletedUpload"),
			"Aborted; its parts are deleted.",
		),
		...errorResponses(401, 403, 404, 409, 503),
	},
});

export const registerDeleteUpload = (api: Api) =>
	api.openapi(route, async (c) => {
		const db = getDb(c.env);
		const upload = await requestedUpload(c, db);
		await deleteUpload(c.env, db, upload);
		return c.json({ id: upload.id, deleted: true as const }, 200);
	});
