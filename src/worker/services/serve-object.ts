/**
 * Answers a GET for an R2 object with HTTP Range support (206 + Content-Range), which browsers'
 * video players and ffmpeg's HTTP reader both rely on.
 */
export async function serveR2Object(
	bucket: R2Bucket,
	key: string,
	request: Request,
	downloadName?: string,
): Promise<Response | null> {
	const hasRange = request.headers.has("range");
	const object =
		request.method === "HEAD"
			? await bucket.head(key)
			: await bucket.get(key, hasRange ? { range: request.headers } : {});
	if (!object) return null;
	const headers = new Headers();
	object.writeHttpMetadata(headers);
	headers.set("etag", object.httpEtag);
	headers.set("accept-ranges", "bytes");
	headers.set("cache-control", "private, max-age=3600");
	if (downloadName) headers.set("content-disposition", `inline; filename="${downloadName.replace(/[^\w.-]/g, "_")}"`);
	if (request.method === "HEAD") {
		headers.set("content-length", String(object.size));
		return new Response(null, { status: 200, headers });
	}
	const body = (object as R2ObjectBody).body;
	const range = rangeOf(object);
	if (hasRange && range) {
		headers.set("content-range", `bytes ${range.offset}-${range.offset + range.length - 1}/${object.size}`);
		headers.set("content-length", String(range.length));
		return new Response(body, { status: 206, headers });
	}
	headers.set("content-length", String(object.size));
	return new Response(body, { status: 200, headers });
}

/** R2 reports the served range as offset/length or suffix; normalise to offset/length. */
function rangeOf(object: R2Object): { offset: number; length: number } | null {
	const range = object.range as { offset?: number; length?: number; suffix?: number } | undefined;
	if (!range) return null;
	if (range.suffix !== undefined) {
		const length = Math.min(range.suffix, object.size);
		return { offset: object.size - length, length };
	}
	const offset = range.offset ?? 0;
	return { offset, length: range.length ?? object.size - offset };
}
