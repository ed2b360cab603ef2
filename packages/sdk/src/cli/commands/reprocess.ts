/** `clipforge reprocess <id>`: a finished video's clips again with other settings, from its stored source and transcript. */
import type { Command } from "commander";
import type { Cli } from "../context.ts";
import {
	buildConfig,
	withConfigOptions,
	withWaitOptions,
	type ConfigFlags,
	type WaitFlags,
} from "../config-options.ts";
import { waitAndCollect } from "../wait.ts";

interface ReprocessFlags extends ConfigFlags, WaitFlags {
	idempotencyKey?: string;
}

export function registerReprocess(program: Command, cli: Cli): void {
	const command = program
		.command("reprocess")
		.description(
			"Regenerate a finished video's clips with other settings, from its stored source and transcript (the first reprocess of a video is free, later ones cost half its minutes)",
		)
		.argument("<id>", "video id");
	withWaitOptions(
		withConfigOptions(command, false).option("--idempotency-key <key>", "retry-safe reprocess key"),
	).action(async (id: string, opts: ReprocessFlags) => {
		const result = await cli.client().reprocess(id, buildConfig(opts), { idempotencyKey: opts.idempotencyKey });
		const cost =
			result.reprocess.minutesCharged > 0 ? `${result.reprocess.minutesCharged} minute(s) charged` : "free";
		const line = `Reprocessing ${id} (reprocess ${result.reprocess.number}, ${cost}): ${result.video.status}`;
		if (!opts.wait) {
			cli.output(result, () => `${line}. Follow it with: clipforge status ${id}`);
			return;
		}
		await waitAndCollect(cli, id, opts, line);
	});
}
