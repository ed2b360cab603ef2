/** A project as the project routes answer it. */
import { z } from "@hono/zod-openapi";

export const Project = z
	.object({ id: z.string(), name: z.string(), workspaceId: z.string(), createdAt: z.string() })
	.openapi("Project");
export const projectView = (r: { id: string; name: string; workspaceId: string; createdAt: string }) => ({
	id: r.id,
	name: r.name,
	workspaceId: r.workspaceId,
	createdAt: r.createdAt,
});
