/** `DELETE /admin/smoke/:runId`: removes what the run stored (`{ removed, left: 0 }`). */
import type { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { removeSmokeObjects, smokePrefix } from "../../../services/smoke/checks";
import { requireOperator, runIdOf } from "./operator";

export function registerRemoveSmoke(routes: Hono<AppEnv>) {
	routes.delete("/smoke/:runId", async (c) => {
		await requireOperator(c);
		const prefix = smokePrefix(runIdOf(c));
		const removed = await removeSmokeObjects(c.env.MEDIA, prefix);
		const left = (await c.env.MEDIA.list({ prefix })).objects.length;
		return c.json({ removed, left });
	});
}
