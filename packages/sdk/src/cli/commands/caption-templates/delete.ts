/** `clipforge caption-templates delete <id>`: videos already submitted with it keep its look. */
import type { Command } from "commander";
import type { Cli } from "../../context.ts";

export function registerTemplateDelete(templates: Command, cli: Cli): void {
	templates
		.command("delete")
		.description("Delete a template (videos already submitted with it keep its look)")
		.argument("<id>", "custom:<id>")
		.action(async (id: string) => {
			await cli.client().deleteCaptionTemplate(id);
			cli.output({ id, deleted: true }, () => `Deleted ${id}.`);
		});
}
