/** A workspace's own things: projects and uploaded split-screen backgrounds. */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "./client";
import { backgrounds, projects } from "./schema";

export function createProject(db: Db, project: { id: string; workspaceId: string; name: string }) {
	return db.insert(projects).values(project).returning().get();
}

export function projectsOf(db: Db, workspaceIds: string[]) {
	return db.select().from(projects).where(inArray(projects.workspaceId, workspaceIds)).orderBy(desc(projects.createdAt), desc(projects.id)).all();
}

export async function projectExists(db: Db, projectId: string, workspaceId: string): Promise<boolean> {
	return (await db.select({ id: projects.id }).from(projects).where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId))).get()) !== undefined;
}

export function backgroundsOf(db: Db, workspaceId: string) {
	return db.select().from(backgrounds).where(eq(backgrounds.workspaceId, workspaceId)).orderBy(desc(backgrounds.createdAt)).all();
}

export function findBackground(db: Db, id: string, workspaceId?: string) {
	const scope = workspaceId ? and(eq(backgrounds.id, id), eq(backgrounds.workspaceId, workspaceId)) : eq(backgrounds.id, id);
	return db.select().from(backgrounds).where(scope).get();
}

export async function createBackground(db: Db, background: typeof backgrounds.$inferInsert) {
	const [row] = await db.insert(backgrounds).values(background).returning();
	return row!;
}

export async function deleteBackgroundRow(db: Db, id: string): Promise<void> {
	await db.delete(backgrounds).where(eq(backgrounds.id, id)).run();
}
