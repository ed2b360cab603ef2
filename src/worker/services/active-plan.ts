/**
 * A workspace may spend the shared render tier (a probe, an import of a user's media, a reprocess)
 * only while its plan is active and not expired.
 */
import type { Db } from "../db/client";
import { planOf } from "../db/workspaces";
import type { Plan } from "../db/submission-standing";
import { ApiError } from "../errors";

export async function assertActivePlan(db: Db, workspaceId: string): Promise<Plan> {
	return activePlan((await planOf(db, workspaceId)) ?? null);
}

/** The plan, if it is active and not expired; else the 403 that says which. A submission reads it with its standing. */
export function activePlan(plan: Plan | null): Plan {
	const expired = plan?.expiresAt ? Date.parse(plan.expiresAt) <= Date.now() : false;
	if (!plan || !plan.active || expired) {
		throw new ApiError(
			"no_active_plan",
			plan && expired ? "The workspace's plan has expired." : "The workspace has no active plan.",
		);
	}
	return plan;
}
