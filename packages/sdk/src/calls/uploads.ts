/** The calls of a resumable upload: start it, read its stored parts, send a part, complete or abort it. */
import type { NewUpload, Upload, UploadPart } from "../client-types.ts";
import { ClipforgeError } from "../errors.ts";
import { sendWithRetries } from "../retry.ts";
import { body, pathId, type CallContext } from "./context.ts";

export function uploadCalls({ api, doFetch, maxAttempts }: CallContext) {
	return {
		/** POST /api/uploads: starts a resumable upload; send its parts with `putPart`, then `completeUpload`. */
		createUpload(upload: NewUpload, signal?: AbortSignal): Promise<Upload> {
			return body(api.POST("/api/uploads", { body: upload, signal }));
		},
		/** GET /api/uploads/:id: its stored parts and `missingParts` (where to resume), and a fresh part URL. */
		upload(uploadId: string, signal?: AbortSignal): Promise<Upload> {
			return body(api.GET("/api/uploads/{id}", { params: pathId(uploadId), signal }));
		},
		/** POST /api/uploads/:id/complete (409 `conflict` with `details.missingParts` while parts are missing). */
		completeUpload(uploadId: string, signal?: AbortSignal): Promise<Upload> {
			return body(api.POST("/api/uploads/{id}/complete", { params: pathId(uploadId), signal }));
		},
		/** DELETE /api/uploads/:id: aborts it (or deletes a completed one no video uses). */
		abortUpload(uploadId: string): Promise<{ id: string; deleted: true }> {
			return body(api.DELETE("/api/uploads/{id}", { params: pathId(uploadId) }));
		},
		/**
		 * PUTs one part's bytes (exactly `partSize`, the last part the rest) to the upload's signed part
		 * URL, retried on network errors, 429 and 5xx (sending a part again is harmless: it replaces itself).
		 */
		async putPart(
			upload: Pick<Upload, "id" | "partUrlTemplate">,
			partNumber: number,
			bytes: Uint8Array | Blob,
			signal?: AbortSignal,
		): Promise<UploadPart> {
			if (!upload.partUrlTemplate)
				throw new ClipforgeError("conflict", `Upload ${upload.id} takes no more parts.`, { status: 409 });
			const url = upload.partUrlTemplate.replace("{partNumber}", String(partNumber));
			const init = {
				method: "PUT",
				body: bytes as BodyInit,
				headers: { "content-type": "application/octet-stream" },
				signal,
			};
			return sendWithRetries(() => doFetch(url, init), maxAttempts, signal);
		},
	};
}
