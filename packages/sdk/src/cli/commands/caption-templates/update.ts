/** `clipforge caption-templates update <id>`: change a saved template's name or look. */
import type { Command } from "commander";
import type { Cli } from "../../context.ts";
import { templateBody, templateText, withTemplateFields, type TemplateFlags } from "./fields.ts";

export function registerTemplateUpdate(templates: Command, cli: Cli): void {
	const command = templates
		.command("update")
		.description("Change a template")
		.argument("<id>", "custom:<id>")
		.option("--name <name>", "new name");
	withTemplateFields(command, "optional").action(async (id: string, opts: TemplateFlags) => {
		const updated = await cli.client().updateCaptionTemplate(id, templateBody(opts));
		cli.output(updated, () => templateText(updated));
	});
}
