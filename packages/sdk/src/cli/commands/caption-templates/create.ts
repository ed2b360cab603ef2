/** `clipforge caption-templates create <name> --preset …`: a preset with the workspace's font, colours and position. */
import type { Command } from "commander";
import type { Cli } from "../../context.ts";
import { templateBody, templateText, withTemplateFields, type TemplateFlags } from "./fields.ts";

export function registerTemplateCreate(templates: Command, cli: Cli): void {
	const command = templates
		.command("create")
		.description("Save a template: a preset with your font, colours and position")
		.argument("<name>", "its name");
	withTemplateFields(command, "required").action(async (name: string, opts: TemplateFlags) => {
		const created = await cli
			.client()
			.createCaptionTemplate({ ...templateBody(opts), name, presetId: opts.preset! });
		cli.output(created, () => templateText(created));
	});
}
