/**
 * `clipforge export <id> --format …`: captions (srt, vtt: one file per clip), an editor timeline on
 * the source (fcpxml, premiere), or a zip of the MP4s.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CAPTION_FORMATS, EXPORT_FORMATS, type CaptionFormat, type ExportFormat } from "@clipforge/domain";
import { Option, type Command } from "commander";
import type { ClipFilters } from "../../node-client.ts";
import { filtersOf, withClipFilters, type FilterFlags } from "../clip-filters.ts";
import type { Cli } from "../context.ts";
import { untilInterrupted } from "../interrupt.ts";
import { fileStem } from "../text.ts";

const EXPORTS = [...CAPTION_FORMATS, ...EXPORT_FORMATS] as const;
const EXTENSION: Record<(typeof EXPORTS)[number], string> = {
	srt: "srt",
	vtt: "vtt",
	fcpxml: "fcpxml",
	premiere: "xml",
	zip: "zip",
};

interface ExportFlags extends FilterFlags {
	format: (typeof EXPORTS)[number];
	out?: string;
	mediaUrl?: string;
}

/** One caption file per clip, into a folder. */
async function exportCaptions(
	cli: Cli,
	id: string,
	format: CaptionFormat,
	filters: ClipFilters,
	out: string | undefined,
): Promise<void> {
	const dir = out ?? join("clips", id);
	mkdirSync(dir, { recursive: true });
	const clips = await cli.client().allClips(id, filters);
	const files: string[] = [];
	for (const [n, clip] of clips.entries()) {
		const path = join(dir, `${fileStem(clip, n)}.${format}`);
		writeFileSync(path, await cli.client().clipCaptions(clip.id, format));
		files.push(path);
	}
	cli.output({ videoId: id, format, files }, () => (files.length > 0 ? files.join("\n") : "No clips."));
}

/** A timeline or the ZIP, streamed into one file. */
async function exportFile(
	cli: Cli,
	id: string,
	format: ExportFormat,
	filters: ClipFilters,
	opts: ExportFlags,
): Promise<void> {
	const path = opts.out ?? `${id}-clips.${EXTENSION[format]}`;
	const write = (signal: AbortSignal) =>
		cli.client().exportToFile(id, format, path, { ...filters, mediaUrl: opts.mediaUrl }, signal);
	const bytes = await untilInterrupted(write, () => `Stopped; nothing was written to ${path}.`);
	cli.output({ videoId: id, format, file: path, bytes }, () => `${path} (${bytes} bytes)`);
}

export function registerExport(program: Command, cli: Cli): void {
	const command = program
		.command("export")
		.description(
			"Export a video's clips: captions (srt, vtt: one file per clip), an editor timeline on the source (fcpxml for Final Cut / DaVinci Resolve, premiere), or a zip of the MP4s",
		)
		.argument("<id>", "video id")
		.addOption(new Option("--format <format>", "what to export").choices(EXPORTS).makeOptionMandatory())
		.option(
			"--out <path>",
			"the file to write (a folder for srt/vtt); default ./<id>-clips.<ext> (./clips/<id>/ for srt/vtt)",
		)
		.option(
			"--media-url <url>",
			"timelines: where the editor finds your copy of the source (default: the URL it was submitted from)",
		);
	withClipFilters(command).action(async (id: string, opts: ExportFlags) => {
		const filters = filtersOf(opts);
		if (opts.format === "srt" || opts.format === "vtt")
			await exportCaptions(cli, id, opts.format, filters, opts.out);
		else await exportFile(cli, id, opts.format, filters, opts);
	});
}
