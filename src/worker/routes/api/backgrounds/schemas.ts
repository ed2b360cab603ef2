/** The schemas of /api/backgrounds: a background, a category. */
import { z } from "@hono/zod-openapi";

export const Background = z
	.object({
		id: z.string().openapi({ description: "Use as `splitScreenBgVideoId`." }),
		name: z.string(),
		categoryId: z
			.string()
			.openapi({ description: "Use as `splitScreenBgCategoryId` to let the service pick one of the category." }),
		builtIn: z.boolean(),
		createdAt: z.string().nullable(),
	})
	.openapi("Background");
export const Category = z.object({ id: z.string(), name: z.string() }).openapi("BackgroundCategory");
export const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });
