/** `clipforge status <id>`: a video's status and progress, and why a completed one has fewer clips (its rankingNote). */
import type { Command } from "commander";
import type { Cli } from "../context.ts";

export function registerStatus(program: Command, cli: Cli): void {
	program
		.command("status")
		.description("Show a video's status and progress")
		.argument("<id>", "video id")
		.action(async (id: string) => {
			const status = await cli.client().status(id);
			// A completed video's rankingNote: why it has fewer clips than its talk has room for, or none.
			const rankingNote = status.video.status === "completed" ? (await cli.client().video(id)).rankingNote : null;
			cli.output({ ...status, rankingNote }, () => {
				const line = `${status.video.id}  ${status.video.status}  ${status.job.progress.toFixed(0)}%  "${status.video.title}"`;
				return [line, status.video.errorMessage, rankingNote].filter(Boolean).join("\n");
			});
		});
}
