/** A workspace's saved caption templates (soft-deleted: see schema.ts). */
import { CAPTION_OVERRIDE_FIELDS, type CaptionOverrideField } from "@clipforge/contract";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { names, type Db } from "./client";
import { captionTemplates } from "./schema";

export type CaptionTemplateRow = typeof captionTemplates.$inferSelect;
/** A template's own fields and its overrides (the contract's CAPTION_TEMPLATE_FIELDS: one column each). */
export type CaptionTemplateFields = Pick<CaptionTemplateRow, "name" | "presetId" | CaptionOverrideField>;

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

/**
 * Creates the template only while the workspace keeps fewer than `cap` live ones: the count and the
 * insert are one statement, so concurrent creates cannot pass the cap together.
 * @returns the new row, or null when the workspace was at its cap.
 */
export async function createCaptionTemplateWithin(
	db: Db,
	cap: number,
	row: Pick<CaptionTemplateRow, "id" | "workspaceId"> & CaptionTemplateFields,
): Promise<CaptionTemplateRow | null> {
	const t = captionTemplates;
	const live = sql`(SELECT COUNT(*) FROM ${t} WHERE ${t.workspaceId} = ${row.workspaceId} AND ${t.deletedAt} IS NULL)`;
	const fields = ["id", "workspaceId", "name", "presetId", ...CAPTION_OVERRIDE_FIELDS] as const;
	const columns = names(...fields.map((f) => t[f]));
	const values = sql.join(
		fields.map((f) => sql`${row[f]}`),
		sql`, `,
	);
	const result = await db.run(sql`INSERT INTO ${t} (${columns})
		SELECT ${values}
		WHERE ${live} < ${cap}`);
	if (result.meta.changes !== 1) return null;
	return (await db.select().from(t).where(eq(t.id, row.id)).get()) ?? null;
}

/** The workspace's live templates, counted. */
export async function liveCaptionTemplateCount(db: Db, workspaceId: string): Promise<number> {
	return (await captionTemplatesOf(db, workspaceId)).length;
}

export type CaptionTemplateChanges = Partial<CaptionTemplateFields>;

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
