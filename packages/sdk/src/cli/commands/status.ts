/** `clipforge status <id>`: a video's status and progress. */
import type { Command } from "commander";
import type { Cli } from "../context.ts";

export function registerStatus(program: Command, cli: Cli): void {
	program
		.command("status")
		.description("Show a video's status and progress")
		.argument("<id>", "video id")
		.action(async (id: string) => {
			const status = await cli.client().status(id);
			cli.output(status, () => {
				const line = `${status.video.id}  ${status.video.status}  ${status.job.progress.toFixed(0)}%  "${status.video.title}"`;
				return status.video.errorMessage ? `${line}\n${status.video.errorMessage}` : line;
			});
		});
}
