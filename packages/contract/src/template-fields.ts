/**
 * The fields a workspace's own caption template may change on top of its preset (its brand kit),
 * as one table. Every surface is derived from it: the API's schemas
 * (src/worker/routes/api/caption-templates/schemas.ts), the DB columns and their mapping
 * (src/worker/db/schema.ts, db/caption-templates.ts), the service's views and the look sent to the
 * tier (`applyOverrides` here, services/caption-templates.ts), the dashboard's form
 * (src/dashboard/template-fields.ts) and the CLI's flags (packages/sdk/src/cli/commands/caption-templates/fields.ts).
 * A new field is one row here (a field of CaptionLookData, which the tier already draws) plus a
 * migration (`npm run db:generate`). No zod in this file: the dashboard and the CLI bundle it.
 *
 * Every field's default is the preset's own value: a template stores null for "the preset's".
 */
import { CAPTION_FONT_IDS, CAPTION_FONTS, CAPTION_POSITIONS, type CaptionLookData } from "./looks.ts";

/** One overridable field: how its value is written, where it is stored, what the surfaces say about it. */
export type TemplateField = (
	| { type: "color" }
	/** `choiceLabels`: a name per choice for pickers, when the ids alone do not say. */
	| { type: "enum"; choices: readonly [string, ...string[]]; choiceLabels?: Readonly<Record<string, string>> }
) & {
	/** The column of `caption_templates` (null there = the preset's). */
	column: string;
	/** The dashboard's label. */
	label: string;
	/** The API's description of the resolved field in a listed template (none when it says nothing new). */
	help?: string;
	/** The API's description of the field in a create or update body. */
	inputHelp?: string;
	/** The CLI's flag of `caption-templates create` and `update`, and its help. */
	cli: { flag: string; help: string };
};

const fontNames = Object.fromEntries(CAPTION_FONTS.map((f) => [f.id, f.name]));

export const CAPTION_TEMPLATE_FIELDS = {
	font: {
		type: "enum",
		choices: CAPTION_FONT_IDS,
		choiceLabels: fontNames,
		column: "font",
		label: "Font",
		inputHelp: "One of `fonts` in the list; null = the preset's.",
		cli: { flag: "--font <font>", help: "font (installed fonts only)" },
	},
	textColor: {
		type: "color",
		column: "text_color",
		label: "Text colour",
		cli: { flag: "--text-color <#RRGGBB>", help: "text colour" },
	},
	highlightColor: {
		type: "color",
		column: "highlight_color",
		label: "Highlight colour",
		help: "The spoken word (karaoke), its box (highlight-box), the second line (two-color), emoji and the lower third's bar.",
		cli: { flag: "--highlight-color <#RRGGBB>", help: "spoken word / box / second line colour" },
	},
	position: {
		type: "enum",
		choices: CAPTION_POSITIONS,
		column: "position",
		label: "Position",
		cli: { flag: "--position <where>", help: "where the captions sit" },
	},
} as const satisfies { [K in keyof CaptionLookData]?: TemplateField };

export type CaptionOverrideField = keyof typeof CAPTION_TEMPLATE_FIELDS;
/** The fields, in the order every surface lists them. */
export const CAPTION_OVERRIDE_FIELDS = Object.keys(CAPTION_TEMPLATE_FIELDS) as CaptionOverrideField[];
export type CaptionOverrides = Partial<Pick<CaptionLookData, CaptionOverrideField>>;
/** A template's stored overrides: null (or absent) = the preset's. */
export type StoredOverrides = { [K in CaptionOverrideField]?: string | null };

/** A field's value as stored and compared: colours in upper case. */
export function normalizeOverride(field: CaptionOverrideField, value: string): string {
	return CAPTION_TEMPLATE_FIELDS[field].type === "color" ? value.toUpperCase() : value;
}

/** A preset with a template's overrides applied (null or absent fields keep the preset's). */
export function applyOverrides(look: CaptionLookData, overrides: StoredOverrides): CaptionLookData {
	const out = structuredClone(look) as unknown as Record<string, unknown>;
	for (const field of CAPTION_OVERRIDE_FIELDS) {
		const value = overrides[field];
		if (value) out[field] = normalizeOverride(field, value);
	}
	return out as unknown as CaptionLookData;
}
