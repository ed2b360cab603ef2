/** `clipforge status <id>`: a video's status and progress, and why a completed one has fewer clips (its rankingNote). */
import type { Command } from "commander";
import { languageName } from "@clipforge/domain";
import type { Cli } from "../context.ts";

/** How the status line says where the words came from. */
const TRANSCRIPT_SOURCE_WORDS: Record<string, string> = {
	transcription: "transcribed",
	captions: "from the supplied captions",
	subtitles: "from the source's own subtitles (not transcribed)",
};

export function registerStatus(program: Command, cli: Cli): void {
	program
		.command("status")
		.description("Show a video's status and progress")
		.argument("<id>", "video id")
		.action(async (id: string) => {
			const status = await cli.client().status(id);
			// Its language and where its words come from, and once completed its rankingNote: why it has fewer clips than its talk has room for, or none.
			const detail = await cli.client().video(id);
			const rankingNote = status.video.status === "completed" ? detail.rankingNote : null;
			const language = detail.language
				? `${languageName(detail.language)} (${detail.language}), ${TRANSCRIPT_SOURCE_WORDS[detail.transcriptSource]}`
				: null;
			cli.output(
				{ ...status, rankingNote, language: detail.language, transcriptSource: detail.transcriptSource },
				() => {
					const line = `${status.video.id}  ${status.video.status}  ${status.job.progress.toFixed(0)}%  "${status.video.title}"`;
					return [line, language, status.video.errorMessage, rankingNote].filter(Boolean).join("\n");
				},
			);
		});
}
