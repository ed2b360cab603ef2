/**
 * A workspace may spend the shared render tier (a probe, an import of a user's media, a reprocess)
 * only while its plan is active and not expired.
 */
import type { Db } from "../db/client";
import { planOf } from "../db/workspaces";
import { ApiError } from "../errors";

export async function assertActivePlan(db: Db, workspaceId: string) {
	const plan = await planOf(db, workspaceId);
	const expired = plan?.expiresAt ? Date.parse(plan.expiresAt) <= Date.now() : false;
	if (!plan || !plan.active || expired) {
		throw new ApiError(
			"no_active_plan",
			plan && expired ? "The workspace's plan has expired." : "The workspace has no active plan.",
		);
	}
	return plan;
}
