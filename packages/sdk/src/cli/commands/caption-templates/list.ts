/** `clipforge caption-templates [list]`: the presets and the workspace's own looks, with their preview images. */
import type { Command } from "commander";
import type { Cli } from "../../context.ts";

export function registerTemplateList(templates: Command, cli: Cli): void {
	templates
		.command("list", { isDefault: true })
		.description("List the presets and the workspace's templates with their preview images")
		.action(async () => {
			const list = await cli.client().captionTemplates();
			const indent = " ".repeat(25);
			const line = (t: (typeof list.templates)[number]) =>
				`${t.id.padEnd(24)} ${t.name}\n${indent}${t.font}, ${t.textColor}/${t.highlightColor}, ${t.position}${t.previewUrl ? `\n${indent}${t.previewUrl}` : ""}`;
			cli.output(list, () => list.templates.map(line).join("\n"));
		});
}
