/** `clipforge clips <id>`: a video's clips, best first, filtered and ordered; optionally downloaded. */
import { join } from "node:path";
import type { Command } from "commander";
import { filtersOf, withClipFilters, type FilterFlags } from "../clip-filters.ts";
import type { Cli } from "../context.ts";
import { untilInterrupted } from "../interrupt.ts";
import { clipsText } from "../text.ts";
import { downloadClips, stoppedDownloading } from "../wait.ts";

export function registerClips(program: Command, cli: Cli): void {
	const command = program
		.command("clips")
		.description("List a video's clips, best first (optionally download them)")
		.argument("<id>", "video id")
		.option("--download", "download every clip")
		.option("--out <dir>", "where to download (default ./clips/<id>)");
	withClipFilters(command).action(async (id: string, opts: FilterFlags & { download?: boolean; out?: string }) => {
		const [clips, video] = await Promise.all([cli.client().allClips(id, filtersOf(opts)), cli.client().video(id)]);
		const dir = opts.out ?? join("clips", id);
		const download = (signal: AbortSignal) => downloadClips(cli, clips, dir, signal);
		const files = opts.download ? await untilInterrupted(download, () => stoppedDownloading(id, dir)) : [];
		const { rankingNote } = video;
		cli.output({ videoId: id, rankingNote, clips, files }, () => clipsText(clips, files, rankingNote));
	});
}
