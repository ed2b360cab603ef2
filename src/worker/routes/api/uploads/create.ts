/** POST /api/uploads: starts a resumable upload of a video file (its parts, then POST …/complete). */
import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { createUpload, uploadView } from "../../../services/uploads";
import { UPLOAD_LIMITS } from "../../../domain/upload-limits";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { CreateUploadBody, originOf, Upload } from "./schemas";

const route = createRoute({
	method: "post",
	path: "/uploads",
	tags: ["uploads"],
	summary: "Start uploading a video file (resumable, in parts)",
	security: BEARER_OR_SESSION,
	description:
		"Then PUT each part to `partUrlTemplate` (any order, in parallel, again after a failure), POST /api/uploads/{id}/complete, and submit it with POST /api/videos/upload. " +
		`At most ${UPLOAD_LIMITS.maxOpenPerWorkspace} uploads of a workspace may be open (not yet made into videos): 409 \`quota_exceeded\` beyond. An upload expires ${UPLOAD_LIMITS.ttlSeconds / 3600} h after it starts.`,
	request: { body: jsonBody(CreateUploadBody) },
	responses: {
		201: jsonOk(Upload, "Upload started: send its parts."),
		...errorResponses(400, 401, 402, 403, 409, 413, 422),
	},
});

export const registerCreateUpload = (api: Api) =>
	api.openapi(route, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const db = getDb(c.env);
		const upload = await createUpload(c.env, db, {
			workspaceId,
			fileName: body.fileName,
			size: body.size,
			contentType: body.contentType,
			partSize: body.partSize,
		});
		return c.json(await uploadView(c.env, db, upload, originOf(c.req.url)), 201);
	});
