/** The schemas of /api/caption-templates (the preset looks and a workspace's own templates), and the render client of their previews. */
import { z } from "@hono/zod-openapi";
import { CAPTION_FONT_IDS, CAPTION_POSITIONS, CAPTION_PRESET_IDS, HEX_COLOR } from "@clipforge/contract";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";

const Color = z.string().regex(HEX_COLOR, "must be a colour as #RRGGBB").openapi({ example: "#FFE600" });
export const Font = z.enum(CAPTION_FONT_IDS);
export const Position = z.enum(CAPTION_POSITIONS);

export const CaptionTemplate = z
	.object({
		id: z.string().openapi({
			description: "Use as `captionTemplateId`: a preset id, or `custom:<id>` for the workspace's own.",
			example: "custom:ct_3kf9a",
		}),
		kind: z.enum(["preset", "custom"]),
		name: z.string(),
		description: z.string(),
		presetId: z
			.enum(CAPTION_PRESET_IDS)
			.openapi({ description: "The preset look a custom template starts from (a preset's own id)." }),
		font: Font,
		textColor: z.string(),
		highlightColor: z.string().openapi({
			description:
				"The spoken word (karaoke), its box (highlight-box), the second line (two-color), emoji and the lower third's bar.",
		}),
		position: Position,
		overrides: z
			.object({
				font: z.string().nullable(),
				textColor: z.string().nullable(),
				highlightColor: z.string().nullable(),
				position: z.string().nullable(),
			})
			.nullable()
			.openapi({
				description:
					"What a custom template changes on its preset (null fields keep the preset's); null for presets.",
			}),
		previewUrl: z.string().nullable().openapi({
			description:
				"A PNG of sample words in this look (360x640), signed for one hour; null while it cannot be drawn.",
		}),
		createdAt: z.string().nullable(),
		updatedAt: z.string().nullable(),
	})
	.openapi("CaptionTemplate");

export const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });
/** A saved template's id, as listed (`custom:ct_…`) or bare (`ct_…`). */
export const TemplateId = z
	.string()
	.regex(/^(custom:)?ct_[A-Za-z0-9_-]{1,64}$/, "a custom template's id (custom:ct_… or ct_…)")
	.transform((id) => id.replace(/^custom:/, ""))
	.openapi({ param: { name: "id", in: "path" }, example: "custom:ct_3kf9a" });

export const overrides = {
	font: Font.nullable().optional().openapi({ description: "One of `fonts` in the list; null = the preset's." }),
	textColor: Color.nullable().optional(),
	highlightColor: Color.nullable().optional(),
	position: Position.nullable().optional(),
};

/** Previews are short one-frame jobs: they share the import pool with backgrounds and watermarks. */
export const previewRenderer = (env: Env) => createRenderClient(env, renderInstance.draw(env, "caption-previews"));
export const originOf = (url: string) => new URL(url).origin;
