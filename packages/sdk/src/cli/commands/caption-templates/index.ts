/** `clipforge caption-templates`: the caption looks, and the workspace's brand kit (list, create, update, delete). */
import type { Command } from "commander";
import type { Cli } from "../../context.ts";
import { registerTemplateCreate } from "./create.ts";
import { registerTemplateDelete } from "./delete.ts";
import { registerTemplateList } from "./list.ts";
import { registerTemplateUpdate } from "./update.ts";

export function registerCaptionTemplates(program: Command, cli: Cli): void {
	const templates = program
		.command("caption-templates")
		.description("Caption looks: the presets and your workspace's own templates (brand kit)");
	for (const register of [
		registerTemplateList,
		registerTemplateCreate,
		registerTemplateUpdate,
		registerTemplateDelete,
	])
		register(templates, cli);
}
