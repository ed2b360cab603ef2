/** The calls on caption looks: the list with previews, and the workspace's own templates (brand kit). */
import type {
	CaptionTemplate,
	CaptionTemplateChanges,
	CaptionTemplateList,
	NewCaptionTemplate,
} from "../client-types.ts";
import { body, type CallContext } from "./context.ts";

/** `custom:ct_…` (as listed and as `captionTemplateId`) or the bare `ct_…` the template routes take. */
const savedId = (templateId: string) => ({ path: { id: templateId.replace(/^custom:/, "") } });

export function captionTemplateCalls({ api }: CallContext) {
	return {
		/** GET /api/caption-templates: the preset looks, then the workspace's own, each with a signed preview image URL; and the fonts and positions a template may use. */
		captionTemplates(workspaceId?: string): Promise<CaptionTemplateList> {
			return body(api.GET("/api/caption-templates", { params: { query: workspaceId ? { workspaceId } : {} } }));
		},
		/** POST /api/caption-templates: a preset with the workspace's font, colours and position; use its `id` (`custom:…`) as `captionTemplateId`. */
		createCaptionTemplate(template: NewCaptionTemplate): Promise<CaptionTemplate> {
			return body(api.POST("/api/caption-templates", { body: template }));
		},
		/** PATCH /api/caption-templates/:id (`custom:ct_…` or `ct_…`); null resets a field to the preset's. */
		updateCaptionTemplate(templateId: string, changes: CaptionTemplateChanges): Promise<CaptionTemplate> {
			return body(api.PATCH("/api/caption-templates/{id}", { params: savedId(templateId), body: changes }));
		},
		/** DELETE /api/caption-templates/:id; videos already submitted with it keep its look. */
		async deleteCaptionTemplate(templateId: string): Promise<void> {
			await api.DELETE("/api/caption-templates/{id}", { params: savedId(templateId) });
		},
	};
}
