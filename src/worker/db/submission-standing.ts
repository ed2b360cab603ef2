/**
 * What a submission checks of its workspace before probing, read once: the plan, the minutes
 * balance and how many videos wait for a slot (issue 49's straight walk: the plan was read twice,
 * each in its own query). The charge's batch checks balance and queue again, atomically (videos.ts).
 */
import { eq, getTableColumns } from "drizzle-orm";
import type { Db } from "./client";
import { plans, workspaces } from "./schema";
import { waitingCount } from "./slots";

export type Plan = typeof plans.$inferSelect;

export interface SubmissionStanding {
	/** Null: the workspace has no plan (or no longer exists). */
	plan: Plan | null;
	balance: number;
	/** Videos of the workspace waiting for a processing slot. */
	waiting: number;
}

export async function submissionStanding(db: Db, workspaceId: string): Promise<SubmissionStanding> {
	const row = await db
		.select({
			plan: getTableColumns(plans),
			balance: workspaces.minutesBalance,
			waiting: waitingCount(workspaceId).mapWith(Number),
		})
		.from(workspaces)
		.leftJoin(plans, eq(plans.workspaceId, workspaces.id))
		.where(eq(workspaces.id, workspaceId))
		.get();
	return { plan: row?.plan ?? null, balance: row?.balance ?? 0, waiting: row?.waiting ?? 0 };
}
