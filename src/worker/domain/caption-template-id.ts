/**
 * `captionTemplateId`: a preset look's id (`karaoke`, `boxed`, …) or `custom:<id>`, one of the
 * workspace's saved templates. The schema checks the shape; whether a custom template exists in
 * the workspace is checked at submission (services/caption-templates.ts), before anything is charged.
 */
import { z } from "@hono/zod-openapi";
import { CUSTOM_TEMPLATE_PREFIX } from "@clipforge/contract/words";
import { CAPTION_TEMPLATES, CONFIG_OPTIONS, CUSTOM_TEMPLATE_REF } from "@clipforge/domain";

/** Ids of saved templates (`ct_…`), as they follow `custom:`. */
export const CUSTOM_TEMPLATE_ID = /^ct_[A-Za-z0-9_-]{1,64}$/;

export const CaptionTemplateId = z
	.union([
		z.enum(CAPTION_TEMPLATES),
		z.string().regex(CUSTOM_TEMPLATE_REF, "must be a preset id or custom:<template id>"),
	])
	.openapi({ description: CONFIG_OPTIONS.captionTemplateId.help, example: "karaoke" });
export type CaptionTemplateId = z.infer<typeof CaptionTemplateId>;

/** The saved template's id inside `custom:<id>`, or null for a preset. */
export function customTemplateIdOf(templateId: string): string | null {
	return templateId.startsWith(CUSTOM_TEMPLATE_PREFIX) ? templateId.slice(CUSTOM_TEMPLATE_PREFIX.length) : null;
}
