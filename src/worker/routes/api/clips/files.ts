/**
 * The signed clip URLs: `/api/clips/:clipId/download|thumbnail?token=`. Public routes: no
 * Authorization header, the token is the credential (so a URL can be handed to a player or a
 * browser), valid one hour.
 */
import { getDb } from "../../../db/client";
import { findServedClip } from "../../../db/clips";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { serveR2Object } from "../../../services/serve-object";
import { checkClipToken, type ClipAsset } from "../../../services/signing";

const ASSETS = ["download", "thumbnail"] as const satisfies readonly ClipAsset[];
export const PUBLIC_CLIP_PATHS = ASSETS.map((asset) => `/clips/:clipId/${asset}`);

export function registerClipFiles(api: Api) {
	for (const asset of ASSETS) {
		api.on(["GET", "HEAD"], `/clips/:clipId/${asset}`, async (c) => {
			const clip = await findServedClip(getDb(c.env), c.req.param("clipId"));
			const key = asset === "download" ? clip?.videoKey : clip?.thumbnailKey;
			// Unknown clip and bad token answer alike, so a token-less caller learns nothing.
			const verdict = key ? await checkClipToken(c.env, asset, key, c.req.query("token")) : "invalid";
			if (verdict === "expired")
				throw new ApiError("url_expired", "This link has expired; list the clips again for a fresh one.");
			if (verdict !== "valid" || !key || !clip) throw new ApiError("forbidden", "This link is not valid.");
			const name = `${clip.title || clip.id}.${asset === "download" ? "mp4" : "jpg"}`;
			const response = await serveR2Object(c.env.MEDIA, key, c.req.raw, name);
			if (!response) throw new ApiError("not_found", "The clip's file is no longer stored.");
			return response;
		});
	}
}
