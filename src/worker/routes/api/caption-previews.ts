/**
 * GET /api/caption-previews/{hash}?token=: a caption look's preview image (GET /api/caption-templates
 * lists its signed URL). Public: the token is the credential, valid one hour.
 */
import type { Api } from "../../env";
import { ApiError } from "../../errors";
import { r2Keys } from "../../services/r2-keys";
import { serveR2Object } from "../../services/serve-object";
import { checkCaptionPreviewToken } from "../../services/signing";

export const PUBLIC_CAPTION_PREVIEW_PATHS = ["/caption-previews/:hash"];

export function registerCaptionPreviews(api: Api): void {
	api.on(["GET", "HEAD"], "/caption-previews/:hash", async (c) => {
		const hash = c.req.param("hash");
		const key = /^[0-9a-f]{32}$/.test(hash) ? r2Keys.captionPreview(hash) : null;
		const verdict = key ? await checkCaptionPreviewToken(c.env, key, c.req.query("token")) : "invalid";
		if (verdict === "expired")
			throw new ApiError(
				"url_expired",
				"This preview link has expired; list the caption templates again for a fresh one.",
			);
		if (verdict !== "valid" || !key) throw new ApiError("forbidden", "This link is not valid.");
		const response = await serveR2Object(c.env.MEDIA, key, c.req.raw);
		if (!response)
			throw new ApiError("not_found", "The preview is no longer stored; list the caption templates again.");
		return response;
	});
}
