/** `clipforge chapters <id>`: the whole video's chapters, as ready-to-paste show notes. */
import type { Command } from "commander";
import type { Cli } from "../context.ts";

export function registerChapters(program: Command, cli: Cli): void {
	program
		.command("chapters")
		.description("Print a completed video's chapters and summary, as show notes to paste under it")
		.argument("<id>", "video id")
		.action(async (id: string) => {
			const chapters = await cli.client().chapters(id);
			cli.output(chapters, () =>
				chapters.note ? `${chapters.description}\n\n(${chapters.note})` : chapters.description,
			);
		});
}
