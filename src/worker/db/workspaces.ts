/** A workspace: its plan, its minutes balance (see ledger.ts), its watermark and its webhook settings. */
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./client";
import { plans, workspaces } from "./schema";

export function workspacesWithPlans(db: Db, ids: string[]) {
	return db
		.select({ workspace: workspaces, plan: plans })
		.from(workspaces)
		.leftJoin(plans, eq(plans.workspaceId, workspaces.id))
		.where(inArray(workspaces.id, ids))
		.orderBy(workspaces.createdAt, workspaces.id)
		.all();
}

export function planOf(db: Db, workspaceId: string) {
	return db.select().from(plans).where(eq(plans.workspaceId, workspaceId)).get();
}

export function watermarkOf(db: Db, workspaceId: string) {
	return db
		.select({ watermarkText: workspaces.watermarkText, watermarkImageKey: workspaces.watermarkImageKey })
		.from(workspaces)
		.where(eq(workspaces.id, workspaceId))
		.get();
}

export async function setWatermark(
	db: Db,
	workspaceId: string,
	mark: { watermarkText: string | null; watermarkImageKey: string | null },
): Promise<void> {
	await db.update(workspaces).set(mark).where(eq(workspaces.id, workspaceId)).run();
}

/** Sets (or clears) the webhook URL; a workspace's signing secret is made once and kept. */
export async function setWebhook(db: Db, workspaceId: string, url: string | null, newSecret: string) {
	await db
		.update(workspaces)
		.set({ webhookUrl: url, webhookSecret: sql`COALESCE(${workspaces.webhookSecret}, ${newSecret})` })
		.where(eq(workspaces.id, workspaceId));
	return (await db
		.select({ url: workspaces.webhookUrl, secret: workspaces.webhookSecret })
		.from(workspaces)
		.where(eq(workspaces.id, workspaceId))
		.get())!;
}

/** Replaces the workspace's webhook signing secret: the old one signs nothing from now on. */
export async function rotateWebhookSecret(db: Db, workspaceId: string, newSecret: string) {
	await db.update(workspaces).set({ webhookSecret: newSecret }).where(eq(workspaces.id, workspaceId));
	return (await db
		.select({ url: workspaces.webhookUrl, secret: workspaces.webhookSecret })
		.from(workspaces)
		.where(eq(workspaces.id, workspaceId))
		.get())!;
}

/** The workspace's webhook secret, set to `newSecret` first if it has none (kept if another request set one first). */
export async function ensureWebhookSecret(db: Db, workspaceId: string, newSecret: string): Promise<string> {
	await db
		.update(workspaces)
		.set({ webhookSecret: newSecret })
		.where(sql`${workspaces.id} = ${workspaceId} AND ${workspaces.webhookSecret} IS NULL`);
	return (await db
		.select({ secret: workspaces.webhookSecret })
		.from(workspaces)
		.where(eq(workspaces.id, workspaceId))
		.get())!.secret!;
}
