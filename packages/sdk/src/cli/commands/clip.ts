/** `clipforge clip <id>`: one clip with a fresh download link, and its caption words (for `edit --word`). */
import type { Command } from "commander";
import type { Cli } from "../context.ts";
import { clipText } from "../text.ts";

export function registerClip(program: Command, cli: Cli): void {
	program
		.command("clip")
		.description("Show one clip: times, score, status, captions' words, a fresh download link")
		.argument("<id>", "clip id")
		.option("--words", "also list its caption words with their indexes (for edit --word)")
		.action(async (id: string, opts: { words?: boolean }) => {
			const clip = await cli.client().clip(id);
			cli.output(clip, () => clipText(clip, opts.words));
		});
}
