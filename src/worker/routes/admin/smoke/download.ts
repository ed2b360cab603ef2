/** `GET /admin/smoke/:runId/download?token=…`: the run's object (the token is the signature, as for clip downloads). */
import type { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors";
import { serveR2Object } from "../../../services/serve-object";
import { checkSmokeDownloadToken } from "../../../services/signing";
import { smokePrefix } from "../../../services/smoke/checks";
import { runIdOf } from "./operator";

export function registerSmokeDownload(routes: Hono<AppEnv>) {
	routes.get("/smoke/:runId/download", async (c) => {
		const key = `${smokePrefix(runIdOf(c))}download.bin`;
		const verdict = await checkSmokeDownloadToken(c.env, key, c.req.query("token"));
		if (verdict === "expired") throw new ApiError("url_expired", "This link has expired.");
		if (verdict !== "valid") throw new ApiError("forbidden", "This link is not valid.");
		const response = await serveR2Object(c.env.MEDIA, key, c.req.raw, "smoke.bin");
		if (!response) throw new ApiError("not_found", "The smoke run's object is no longer stored.");
		return response;
	});
}
