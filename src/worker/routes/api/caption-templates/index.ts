/**
 * /api/caption-templates: the preset caption looks and the workspace's own templates (a preset plus
 * its font, colours and position), each with a preview image drawn by the render tier; create,
 * change and delete the workspace's own: its brand kit, so like its webhook and API keys only its
 * owner or an admin (or one of its API keys) may; any member lists them. The previews' signed URLs
 * are /api/caption-previews/{hash} (../caption-previews.ts). One file per operation.
 */
import type { Api } from "../../../env";
import { registerCreateCaptionTemplate } from "./create";
import { registerDeleteCaptionTemplate } from "./delete";
import { registerListCaptionTemplates } from "./list";
import { registerUpdateCaptionTemplate } from "./update";

export function registerCaptionTemplates(api: Api): void {
	for (const register of [
		registerListCaptionTemplates,
		registerCreateCaptionTemplate,
		registerUpdateCaptionTemplate,
		registerDeleteCaptionTemplate,
	])
		register(api);
}
