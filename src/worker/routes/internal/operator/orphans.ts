/** `GET /internal/orphans?minAgeMinutes=10`: the orphan report (services/orphans.ts). */
import type { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors";
import { findOrphans } from "../../../services/orphans";
import { signedByOperator } from "./signed";

export function registerOrphans(routes: Hono<AppEnv>) {
	routes.get("/orphans", signedByOperator, async (c) => {
		const minAge = Number(c.req.query("minAgeMinutes") ?? 10);
		if (!Number.isFinite(minAge) || minAge < 0)
			throw new ApiError("invalid_request", "minAgeMinutes must be a number ≥ 0.");
		return c.json(await findOrphans(c.env, { minAgeMinutes: minAge }));
	});
}
