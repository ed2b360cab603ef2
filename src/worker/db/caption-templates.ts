/** A workspace's saved caption templates (soft-deleted: see schema.ts). */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "./client";
import { captionTemplates } from "./schema";

export type CaptionTemplateRow = typeof captionTemplates.$inferSelect;

/** The workspace's live templates, newest first. */
export function captionTemplatesOf(db: Db, workspaceId: string) {
	return db
		.select()
		.from(captionTemplates)
		.where(and(eq(captionTemplates.workspaceId, workspaceId), isNull(captionTemplates.deletedAt)))
		.orderBy(desc(captionTemplates.createdAt), desc(captionTemplates.id))
		.all();
}

/** One template of the workspace; `includeDeleted` for rendering videos submitted before it was deleted. */
export function findCaptionTemplate(
	db: Db,
	id: string,
	workspaceId: string,
	options: { includeDeleted?: boolean } = {},
) {
	const scope = and(eq(captionTemplates.id, id), eq(captionTemplates.workspaceId, workspaceId));
	return db
		.select()
		.from(captionTemplates)
		.where(options.includeDeleted ? scope : and(scope, isNull(captionTemplates.deletedAt)))
		.get();
}

export async function createCaptionTemplate(
	db: Db,
	row: typeof captionTemplates.$inferInsert,
): Promise<CaptionTemplateRow> {
	const [created] = await db.insert(captionTemplates).values(row).returning();
	return created!;
}

export type CaptionTemplateChanges = Partial<
	Pick<CaptionTemplateRow, "name" | "presetId" | "font" | "textColor" | "highlightColor" | "position">
>;

/** Null when the template is not (or no longer) the workspace's. */
export async function updateCaptionTemplate(
	db: Db,
	id: string,
	workspaceId: string,
	changes: CaptionTemplateChanges,
): Promise<CaptionTemplateRow | null> {
	const [row] = await db
		.update(captionTemplates)
		.set({ ...changes, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))` })
		.where(
			and(
				eq(captionTemplates.id, id),
				eq(captionTemplates.workspaceId, workspaceId),
				isNull(captionTemplates.deletedAt),
			),
		)
		.returning();
	return row ?? null;
}

/** True when a live template of the workspace was deleted. */
export async function deleteCaptionTemplate(db: Db, id: string, workspaceId: string): Promise<boolean> {
	const rows = await db
		.update(captionTemplates)
		.set({ deletedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))` })
		.where(
			and(
				eq(captionTemplates.id, id),
				eq(captionTemplates.workspaceId, workspaceId),
				isNull(captionTemplates.deletedAt),
			),
		)
		.returning({ id: captionTemplates.id });
	return rows.length > 0;
}
