/**
 * GET|HEAD /api/videos/{id}/source?token=: the video's stored source, with HTTP Range support so a
 * player can seek without reading it all. Public, as clip downloads are: the token (from GET
 * …/source-url, valid one hour) is the credential.
 */
import { getDb } from "../../../db/client";
import { findVideoById } from "../../../db/videos";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { serveR2Object } from "../../../services/serve-object";
import { checkSourceToken } from "../../../services/signing";

export const PUBLIC_SOURCE_PATHS = ["/videos/:id/source"];

/** The container types a browser plays; anything else is sent as bytes, never as a type it would render. */
const PLAYABLE_TYPES = new Set(["video/mp4", "video/webm", "video/quicktime", "video/x-matroska", "video/ogg"]);

export function registerSourceFile(api: Api) {
	api.on(["GET", "HEAD"], "/videos/:id/source", async (c) => {
		const video = await findVideoById(getDb(c.env), c.req.param("id"));
		const key = video?.sourceKey;
		// Unknown video and bad token answer alike, so a token-less caller learns nothing.
		const verdict = key ? await checkSourceToken(c.env, key, c.req.query("token")) : "invalid";
		if (verdict === "expired")
			throw new ApiError("url_expired", "This link has expired; ask for the video's source URL again.");
		if (verdict !== "valid" || !key) throw new ApiError("forbidden", "This link is not valid.");
		const response = await serveR2Object(c.env.MEDIA, key, c.req.raw);
		// Past its retention (or deleted with a failed first run): gone for good, as the source-url route says.
		if (!response) throw new ApiError("source_deleted", "The video's stored source is no longer stored.");
		// An uploaded file keeps the type its uploader declared: only a video type a player reads is
		// passed on, and never sniffed, so no upload can be served as a page of this site.
		const declared = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
		response.headers.set("content-type", PLAYABLE_TYPES.has(declared) ? declared : "application/octet-stream");
		response.headers.set("x-content-type-options", "nosniff");
		return response;
	});
}
