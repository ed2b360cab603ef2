/**
 * The multipart side of the render tier's signed PUT URLs (@clipforge/contract object-upload.ts):
 * a file larger than one request body may be crosses the edge in parts, each written to an R2
 * multipart upload of the signed key. The signature (checked by the route) is for PUT on the key:
 * starting, adding parts, completing and aborting are all writes of that key.
 */
import { CompleteMultipart, MULTIPART_START, OBJECT_UPLOAD_LIMITS } from "@clipforge/contract";
import { ApiError } from "../errors";

/** True when the request is a step of a multipart upload (it names one, or starts one). */
export const isMultipartRequest = (url: URL): boolean =>
	url.searchParams.has(MULTIPART_START) || url.searchParams.has("uploadId");

export async function multipartStep(bucket: R2Bucket, key: string, request: Request): Promise<Response> {
	const url = new URL(request.url);
	if (url.searchParams.has(MULTIPART_START)) {
		if (request.method !== "POST") throw new ApiError("invalid_request", "Start a multipart upload with POST.");
		const upload = await bucket.createMultipartUpload(key, {
			httpMetadata: { contentType: request.headers.get("content-type") ?? "application/octet-stream" },
		});
		return Response.json({ uploadId: upload.uploadId });
	}
	const upload = bucket.resumeMultipartUpload(key, url.searchParams.get("uploadId")!);
	try {
		if (request.method === "PUT") {
			const partNumber = Number(url.searchParams.get("partNumber"));
			if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > OBJECT_UPLOAD_LIMITS.maxParts)
				throw new ApiError("invalid_request", `partNumber must be 1 to ${OBJECT_UPLOAD_LIMITS.maxParts}.`);
			if (!request.body) throw new ApiError("invalid_request", "PUT needs a body.");
			const part = await upload.uploadPart(partNumber, request.body);
			return Response.json({ partNumber: part.partNumber, etag: part.etag });
		}
		if (request.method === "POST") {
			const parsed = CompleteMultipart.safeParse(await request.json().catch(() => null));
			if (!parsed.success)
				throw new ApiError(
					"invalid_request",
					"Completing a multipart upload needs { parts: [{ partNumber, etag }] }.",
				);
			const object = await upload.complete([...parsed.data.parts].sort((a, b) => a.partNumber - b.partNumber));
			return Response.json({ key, size: object.size }, { status: 201 });
		}
		if (request.method === "DELETE") {
			await upload.abort();
			return new Response(null, { status: 204 });
		}
	} catch (error) {
		if (error instanceof ApiError) throw error;
		// R2's refusals (an unknown upload id, parts of unequal or too small sizes) are the caller's to fix.
		throw new ApiError(
			"invalid_request",
			`The multipart upload was refused: ${(error as Error).message.slice(0, 200)}`,
		);
	}
	throw new ApiError("invalid_request", `${request.method} is not a step of a multipart upload.`);
}
