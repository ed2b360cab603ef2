/** The schemas of /api/caption-templates (the preset looks and a workspace's own templates), and the render client of their previews. */
import { z } from "@hono/zod-openapi";
import {
	CAPTION_FONT_IDS,
	CAPTION_OVERRIDE_FIELDS,
	CAPTION_POSITIONS,
	CAPTION_PRESET_IDS,
	CAPTION_TEMPLATE_FIELDS,
	HEX_COLOR,
	type CaptionOverrideField,
	type TemplateField,
} from "@clipforge/contract";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";

const Color = z.string().regex(HEX_COLOR, "must be a colour as #RRGGBB").openapi({ example: "#FFE600" });
export const Font = z.enum(CAPTION_FONT_IDS);
export const Position = z.enum(CAPTION_POSITIONS);

type Fields = typeof CAPTION_TEMPLATE_FIELDS;
/** A field's value: one of an enum row's choices, else a string. */
type ValueOf<K extends CaptionOverrideField> = Fields[K] extends { choices: readonly (infer C)[] } ? C : string;

/** One schema per caption-template field (the contract's CAPTION_TEMPLATE_FIELDS), in the table's order. */
const perField = <S extends z.ZodType>(schemaOf: (row: TemplateField) => S) =>
	Object.fromEntries(
		CAPTION_OVERRIDE_FIELDS.map((f) => [f, schemaOf(CAPTION_TEMPLATE_FIELDS[f] as TemplateField)]),
	) as Record<CaptionOverrideField, S>;
const described = <S extends z.ZodType>(schema: S, description: string | undefined) =>
	description ? schema.openapi({ description }) : schema;

/** A listed template's resolved value: the template's override, else its preset's. */
const resolvedField = (row: TemplateField): z.ZodType =>
	described(row.type === "enum" ? z.enum(row.choices) : z.string(), row.help);
/** A create or update body's value: null = the preset's, absent = unchanged (or the preset's). */
const inputField = (row: TemplateField): z.ZodType =>
	described((row.type === "enum" ? z.enum(row.choices) : Color).nullable().optional(), row.inputHelp);

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
		...(perField(resolvedField) as { [K in CaptionOverrideField]: z.ZodType<ValueOf<K>> }),
		overrides: z
			.object(perField(() => z.string().nullable()))
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

export const overrides = perField(inputField) as {
	[K in CaptionOverrideField]: z.ZodOptional<z.ZodNullable<z.ZodType<ValueOf<K>>>>;
};

/** Previews are short one-frame jobs: they share the import pool with backgrounds and watermarks. */
export const previewRenderer = (env: Env) => createRenderClient(env, renderInstance.draw(env, "caption-previews"));
export const originOf = (url: string) => new URL(url).origin;
