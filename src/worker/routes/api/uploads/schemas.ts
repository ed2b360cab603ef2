/** The schemas of /api/uploads (a video file uploaded in parts, resumable), and finding the caller's upload. */
import { UPLOAD_STATUSES } from "@clipforge/domain";
import { z } from "@hono/zod-openapi";
import type { Db } from "../../../db/client";
import { findUpload } from "../../../db/uploads";
import { UPLOAD_LIMITS } from "../../../domain/upload-limits";
import type { Context } from "hono";
import type { AppEnv, Principal } from "../../../env";
import { ApiError } from "../../../errors";
import { workspaceScope } from "../../../middleware/auth";

export const UploadId = z
	.string()
	.min(1)
	.max(64)
	.openapi({ param: { name: "id", in: "path" }, example: "upl_3kTq9bX2mZpQ" });
export const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });

export const UploadPart = z
	.object({ partNumber: z.number().int(), size: z.number().int(), etag: z.string() })
	.openapi("UploadPart");

export const Upload = z
	.object({
		id: z.string(),
		status: z.enum(UPLOAD_STATUSES).openapi({
			description:
				"`uploading` → `completed` (every part stored) → `used` (a video was made of it); `deleting` after a DELETE or its expiry, until its storage is released (then it is gone).",
		}),
		fileName: z.string(),
		contentType: z.string(),
		size: z.number().int(),
		partSize: z.number().int().openapi({ description: "Bytes of every part but the last, which has the rest." }),
		partCount: z.number().int(),
		partUrlTemplate: z.string().nullable().openapi({
			description:
				"While uploading: PUT each part's bytes to this URL with `{partNumber}` (1-based) replaced; no other credentials. Valid until `expiresAt`.",
		}),
		parts: z.array(UploadPart).openapi({ description: "The parts stored so far (the resume point)." }),
		missingParts: z
			.array(z.number().int())
			.openapi({ description: "Part numbers still to send (empty once completed)." }),
		videoId: z.string().nullable().openapi({ description: "The video made of it, once `used`." }),
		expiresAt: z.string().openapi({ description: "An upload not made into a video by then is deleted." }),
		createdAt: z.string(),
		completedAt: z.string().nullable(),
	})
	.openapi("Upload");

export const CreateUploadBody = z
	.strictObject({
		fileName: z.string().trim().min(1).max(255),
		size: z.number().int().positive().openapi({
			description:
				"Bytes of the whole file; at most the plan's source size (MAX_SOURCE_BYTES, 4 GiB by default).",
		}),
		contentType: z
			.string()
			.min(1)
			.max(100)
			.openapi({ example: "video/mp4", description: "A `video/*` type (or `application/octet-stream`)." }),
		partSize: z
			.number()
			.int()
			.min(UPLOAD_LIMITS.minPartBytes)
			.max(UPLOAD_LIMITS.maxPartBytes)
			.optional()
			.openapi({
				description: `Bytes per part, ${UPLOAD_LIMITS.minPartBytes}-${UPLOAD_LIMITS.maxPartBytes} (default ${UPLOAD_LIMITS.defaultPartBytes}); raised so a file needs at most ${UPLOAD_LIMITS.maxParts} parts.`,
			}),
		workspaceId: z.string().min(1).max(64).optional(),
	})
	.openapi("CreateUpload");

export const originOf = (url: string) => new URL(url).origin;

/** An upload of the caller's workspaces, or 404 (also for another workspace's: never reveal it exists). */
export async function ownUpload(db: Db, id: string, principal: Principal, requested: string | undefined) {
	const upload = await findUpload(db, id, workspaceScope(principal, requested));
	if (!upload) throw new ApiError("not_found", `Upload ${id} was not found.`);
	return upload;
}

/** The upload a route's `{id}` names (already validated by the route), among the caller's workspaces (`?workspaceId=` narrows). */
export function requestedUpload(c: Context<AppEnv>, db: Db) {
	return ownUpload(db, c.req.param("id")!, c.get("principal"), c.req.query("workspaceId"));
}
