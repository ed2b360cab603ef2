/** A workspace's own things: projects and uploaded split-screen backgrounds. */
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { names, type Db } from "./client";
import { backgrounds, projects } from "./schema";

export function createProject(db: Db, project: { id: string; workspaceId: string; name: string }) {
	return db.insert(projects).values(project).returning().get();
}

export function projectsOf(db: Db, workspaceIds: string[]) {
	return db
		.select()
		.from(projects)
		.where(inArray(projects.workspaceId, workspaceIds))
		.orderBy(desc(projects.createdAt), desc(projects.id))
		.all();
}

export async function projectExists(db: Db, projectId: string, workspaceId: string): Promise<boolean> {
	return (
		(await db
			.select({ id: projects.id })
			.from(projects)
			.where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)))
			.get()) !== undefined
	);
}

export function backgroundsOf(db: Db, workspaceId: string) {
	return db
		.select()
		.from(backgrounds)
		.where(eq(backgrounds.workspaceId, workspaceId))
		.orderBy(desc(backgrounds.createdAt))
		.all();
}

export function findBackground(db: Db, id: string, workspaceId?: string) {
	const scope = workspaceId
		? and(eq(backgrounds.id, id), eq(backgrounds.workspaceId, workspaceId))
		: eq(backgrounds.id, id);
	return db.select().from(backgrounds).where(scope).get();
}

export async function countBackgrounds(db: Db, workspaceId: string): Promise<number> {
	const row = await db.select({ n: count() }).from(backgrounds).where(eq(backgrounds.workspaceId, workspaceId)).get();
	return row?.n ?? 0;
}

/**
 * Inserts the background only while the workspace has fewer than `limit`: one statement, so the
 * count and the insert cannot be split by another import. Undefined when the limit was reached.
 */
export async function createBackgroundWithin(db: Db, limit: number, background: typeof backgrounds.$inferInsert) {
	const b = background;
	const t = backgrounds;
	const inserted = await db.run(sql`
		INSERT INTO ${t} (${names(t.id, t.workspaceId, t.name, t.categoryId, t.sourceUrl, t.objectKey, t.width, t.height, t.duration)})
		SELECT ${b.id}, ${b.workspaceId}, ${b.name}, ${b.categoryId}, ${b.sourceUrl}, ${b.objectKey}, ${b.width}, ${b.height}, ${b.duration}
		WHERE (SELECT count(*) FROM ${t} WHERE ${t.workspaceId} = ${b.workspaceId}) < ${limit}`);
	if (!inserted.meta.changes) return undefined;
	return findBackground(db, b.id);
}

export async function deleteBackgroundRow(db: Db, id: string): Promise<void> {
	await db.delete(backgrounds).where(eq(backgrounds.id, id)).run();
}
