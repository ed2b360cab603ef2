/**
 * /api/uploads: a video file uploaded in parts (resumable), to submit with POST /api/videos/upload.
 * The part route is public: its credential is the upload's signed token (as an R2 presigned URL
 * would be), and it is the one route whose body may exceed 64 KiB (middleware/body-limit.ts).
 */
import { UPLOAD_STATUSES } from "@clipforge/domain";
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../db/client";
import { findUpload } from "../../db/uploads";
import { UPLOAD_LIMITS } from "../../domain/upload-limits";
import { ApiError } from "../../errors";
import { resolveWorkspace, workspaceScope } from "../../middleware/auth";
import type { Api, Principal } from "../../env";
import { checkUploadToken } from "../../services/signing";
import { completeUpload, createUpload, deleteUpload, putPart, uploadView } from "../../services/uploads";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../openapi";

export const PUBLIC_UPLOAD_PATHS = ["/uploads/:id/parts/:partNumber"];

const UploadId = z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" }, example: "upl_3kTq9bX2mZpQ" });
const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });

const UploadPart = z.object({ partNumber: z.number().int(), size: z.number().int(), etag: z.string() }).openapi("UploadPart");

const Upload = z
	.object({
		id: z.string(),
		status: z.enum(UPLOAD_STATUSES).openapi({ description: "`uploading` → `completed` (every part stored) → `used` (a video was made of it)." }),
		fileName: z.string(),
		contentType: z.string(),
		size: z.number().int(),
		partSize: z.number().int().openapi({ description: "Bytes of every part but the last, which has the rest." }),
		partCount: z.number().int(),
		partUrlTemplate: z.string().nullable().openapi({
			description: "While uploading: PUT each part's bytes to this URL with `{partNumber}` (1-based) replaced; no other credentials. Valid until `expiresAt`.",
		}),
		parts: z.array(UploadPart).openapi({ description: "The parts stored so far (the resume point)." }),
		missingParts: z.array(z.number().int()).openapi({ description: "Part numbers still to send (empty once completed)." }),
		videoId: z.string().nullable().openapi({ description: "The video made of it, once `used`." }),
		expiresAt: z.string().openapi({ description: "An upload not made into a video by then is deleted." }),
		createdAt: z.string(),
		completedAt: z.string().nullable(),
	})
	.openapi("Upload");

const CreateUploadBody = z
	.strictObject({
		fileName: z.string().trim().min(1).max(255),
		size: z.number().int().positive().openapi({ description: "Bytes of the whole file; at most the plan's source size (MAX_SOURCE_BYTES, 4 GiB by default)." }),
		contentType: z.string().min(1).max(100).openapi({ example: "video/mp4", description: "A `video/*` type (or `application/octet-stream`)." }),
		partSize: z
			.number()
			.int()
			.min(UPLOAD_LIMITS.minPartBytes)
			.max(UPLOAD_LIMITS.maxPartBytes)
			.optional()
			.openapi({ description: `Bytes per part, ${UPLOAD_LIMITS.minPartBytes}-${UPLOAD_LIMITS.maxPartBytes} (default ${UPLOAD_LIMITS.defaultPartBytes}); raised so a file needs at most ${UPLOAD_LIMITS.maxParts} parts.` }),
		workspaceId: z.string().min(1).max(64).optional(),
	})
	.openapi("CreateUpload");

const createRouteDef = createRoute({
	method: "post",
	path: "/uploads",
	tags: ["uploads"],
	summary: "Start uploading a video file (resumable, in parts)",
	security: BEARER_OR_SESSION,
	description:
		"Then PUT each part to `partUrlTemplate` (any order, in parallel, again after a failure), POST /api/uploads/{id}/complete, and submit it with POST /api/videos/upload. " +
		`At most ${UPLOAD_LIMITS.maxOpenPerWorkspace} uploads of a workspace may be open (not yet made into videos): 409 \`quota_exceeded\` beyond. An upload expires ${UPLOAD_LIMITS.ttlSeconds / 3600} h after it starts.`,
	request: { body: jsonBody(CreateUploadBody) },
	responses: { 201: jsonOk(Upload, "Upload started: send its parts."), ...errorResponses(400, 401, 402, 403, 409, 413, 422) },
});

const getRouteDef = createRoute({
	method: "get",
	path: "/uploads/{id}",
	tags: ["uploads"],
	summary: "An upload: which parts are stored (to resume), its status",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: UploadId }), query: WorkspaceQuery },
	responses: { 200: jsonOk(Upload, "The upload, with a fresh part URL while uploading."), ...errorResponses(401, 403, 404) },
});

const partRouteDef = createRoute({
	method: "put",
	path: "/uploads/{id}/parts/{partNumber}",
	tags: ["uploads"],
	summary: "Store one part (the URL comes from partUrlTemplate)",
	description: `The body is the part's bytes, exactly \`partSize\` (the last part: the rest), with its Content-Length; at most ${UPLOAD_LIMITS.maxPartBytes} bytes. Sending a part again replaces it.`,
	request: {
		params: z.object({ id: UploadId, partNumber: z.coerce.number().int().min(1).max(UPLOAD_LIMITS.maxParts).openapi({ param: { name: "partNumber", in: "path" } }) }),
		query: z.object({ token: z.string().min(1).max(200).openapi({ description: "From partUrlTemplate." }) }),
		body: { content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } }, required: true },
	},
	responses: { 200: jsonOk(UploadPart, "Stored."), ...errorResponses(400, 403, 404, 409, 413) },
});

const completeRouteDef = createRoute({
	method: "post",
	path: "/uploads/{id}/complete",
	tags: ["uploads"],
	summary: "Finish an upload once every part is stored",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: UploadId }), query: WorkspaceQuery },
	description: "409 `conflict` with `details.missingParts` while parts are missing. Completing a completed upload answers it again.",
	responses: { 200: jsonOk(Upload, "Completed: submit it with POST /api/videos/upload."), ...errorResponses(401, 403, 404, 409) },
});

const deleteRouteDef = createRoute({
	method: "delete",
	path: "/uploads/{id}",
	tags: ["uploads"],
	summary: "Abort an upload (or delete a completed one no video uses)",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: UploadId }), query: WorkspaceQuery },
	responses: { 200: jsonOk(z.object({ id: z.string(), deleted: z.literal(true) }).openapi("DeletedUpload"), "Aborted; its parts are deleted."), ...errorResponses(401, 403, 404, 409) },
});

const originOf = (url: string) => new URL(url).origin;

export function registerUploads(api: Api) {
	api.openapi(createRouteDef, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const db = getDb(c.env);
		const upload = await createUpload(c.env, db, { workspaceId, fileName: body.fileName, size: body.size, contentType: body.contentType, partSize: body.partSize });
		return c.json(await uploadView(c.env, db, upload, originOf(c.req.url)), 201);
	});

	api.openapi(getRouteDef, async (c) => {
		const db = getDb(c.env);
		const upload = await ownUpload(db, c.req.valid("param").id, c.get("principal"), c.req.valid("query").workspaceId);
		return c.json(await uploadView(c.env, db, upload, originOf(c.req.url)), 200);
	});

	api.openapi(partRouteDef, async (c) => {
		const { id, partNumber } = c.req.valid("param");
		const verdict = await checkUploadToken(c.env, id, c.req.valid("query").token);
		if (verdict === "expired") throw new ApiError("url_expired", "This upload has expired; start a new one.");
		if (verdict !== "valid") throw new ApiError("forbidden", "This part URL is not valid.");
		const length = Number(c.req.header("content-length"));
		const part = await putPart(c.env, getDb(c.env), id, partNumber, c.req.raw.body, Number.isFinite(length) ? length : -1);
		return c.json({ partNumber: part.partNumber, size: part.size, etag: part.etag }, 200);
	});

	api.openapi(completeRouteDef, async (c) => {
		const db = getDb(c.env);
		const upload = await ownUpload(db, c.req.valid("param").id, c.get("principal"), c.req.valid("query").workspaceId);
		return c.json(await uploadView(c.env, db, await completeUpload(c.env, db, upload), originOf(c.req.url)), 200);
	});

	api.openapi(deleteRouteDef, async (c) => {
		const db = getDb(c.env);
		const upload = await ownUpload(db, c.req.valid("param").id, c.get("principal"), c.req.valid("query").workspaceId);
		await deleteUpload(c.env, db, upload);
		return c.json({ id: upload.id, deleted: true as const }, 200);
	});
}

/** An upload of the caller's workspaces, or 404 (also for another workspace's: never reveal it exists). */
async function ownUpload(db: ReturnType<typeof getDb>, id: string, principal: Principal, requested: string | undefined) {
	const upload = await findUpload(db, id, workspaceScope(principal, requested));
	if (!upload) throw new ApiError("not_found", `Upload ${id} was not found.`);
	return upload;
}
