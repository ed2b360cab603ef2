/**
 * `GET /internal/object-list?cursor=`: one page of the bucket's objects with their size, ETag,
 * metadata: a deployed store's listing for a backup's manifest (a local backup, scripts/backup.ts,
 * reads the simulator's store directly).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { signedByOperator } from "./signed";

export function registerObjectList(routes: Hono<AppEnv>) {
	routes.get("/object-list", signedByOperator, async (c) => {
		const page = await c.env.MEDIA.list({
			cursor: c.req.query("cursor") || undefined,
			limit: 500,
			include: ["httpMetadata", "customMetadata"],
		});
		return c.json({
			objects: page.objects.map((o) => ({
				key: o.key,
				size: o.size,
				etag: o.etag,
				uploaded: o.uploaded.toISOString(),
				contentType: o.httpMetadata?.contentType ?? null,
				customMetadata: o.customMetadata ?? {},
			})),
			cursor: page.truncated ? page.cursor : null,
		});
	});
}
