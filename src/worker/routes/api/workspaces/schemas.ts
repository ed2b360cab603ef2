/** What the workspace routes share: the path's workspace, and the webhook settings and watermark they answer. */
import { z } from "@hono/zod-openapi";

export const WorkspaceParams = z.object({ workspaceId: z.string().min(1).max(64) });

export const WebhookSettings = z
	.object({
		workspaceId: z.string(),
		url: z.string().nullable(),
		secret: z.string().openapi({ description: "HMAC key of X-Clipforge-Signature (`whsec_…`)." }),
	})
	.openapi("WebhookSettings");

export const Watermark = z
	.object({ workspaceId: z.string(), type: z.enum(["default", "text", "image"]), text: z.string().nullable() })
	.openapi("Watermark", {
		description: "Drawn on every clip whose config has `enableWatermark: true` (the default).",
	});
