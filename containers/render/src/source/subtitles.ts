/**
 * The `subtitles` job: one of the source's own subtitle tracks (the probe listed it), fetched by
 * yt-dlp without the media and stored in R2 as WebVTT, so the Worker reads it instead of
 * transcribing. A track the site no longer serves is a permanent failure: the workflow then
 * transcribes (or fails and refunds when it cannot hear the language).
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { SubtitlesRequest, SubtitlesResult } from "@clipforge/contract";
import type { z } from "zod";
import { ytDlpError } from "./errors.ts";
import { runProcess } from "../runtime/run-process.ts";
import { resolveSource } from "./guard.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools } from "../runtime/tool-paths.ts";
import { putFile } from "../runtime/transfer.ts";
import { videoDir } from "../runtime/workdir.ts";
import { ytDlpSubtitlesArgs } from "./yt-dlp-args.ts";

const SUBTITLES_TIMEOUT_MS = 60_000;

export async function fetchSubtitles(
	req: z.output<typeof SubtitlesRequest>,
	signal: AbortSignal,
): Promise<z.input<typeof SubtitlesResult>> {
	const url = await resolveSource(req.url);
	const dir = await videoDir(req.videoId);
	const args = ytDlpSubtitlesArgs({
		url,
		lang: req.lang,
		automatic: req.automatic,
		outputTemplate: join(dir, "subtitles"),
	});
	try {
		await runProcess(tools.ytDlp, args, { timeoutMs: SUBTITLES_TIMEOUT_MS, signal });
	} catch (error) {
		throw ytDlpError(error);
	}
	// yt-dlp names it subtitles.<lang>.vtt (.srt when no conversion was possible).
	const file = (await readdir(dir)).find((f) => f.startsWith("subtitles.") && /\.(vtt|srt)$/.test(f));
	if (!file)
		throw new TierError(
			"unsupported_source",
			`The source no longer offers its ${req.automatic ? "automatic " : ""}subtitles in "${req.lang}".`,
			false,
			422,
		);
	const format = file.endsWith(".srt") ? "srt" : "vtt";
	const bytes = await putFile(
		join(dir, file),
		req.putUrl,
		format === "vtt" ? "text/vtt" : "application/x-subrip",
		undefined,
		signal,
	);
	return { bytes, format };
}
