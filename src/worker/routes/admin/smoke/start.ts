/** `POST /admin/smoke`: every binding checked (services/smoke/checks.ts), and a signed download to fetch. */
import type { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { runSmokeChecks } from "../../../services/smoke/checks";
import { requireOperator } from "./operator";

export function registerStartSmoke(routes: Hono<AppEnv>) {
	routes.post("/smoke", async (c) => {
		await requireOperator(c);
		const runId = crypto.randomUUID().replaceAll("-", "");
		return c.json(await runSmokeChecks(c.env, new URL(c.req.url).origin, runId));
	});
}
