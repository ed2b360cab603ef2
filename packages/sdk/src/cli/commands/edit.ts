/** `clipforge edit <clip id>`: trim, retitle, change the look or words of a clip; a change to the picture re-renders it. */
import { CAPTION_TEMPLATES } from "@clipforge/domain";
import type { Command } from "commander";
import { ClipforgeError } from "../../errors.ts";
import type { ClipChanges } from "../../node-client.ts";
import { captionTemplateRef } from "../config-flags.ts";
import type { Cli } from "../context.ts";
import { untilInterrupted } from "../interrupt.ts";
import { cliParser, time, wordFix } from "../parsers.ts";
import { clipText } from "../text.ts";

interface EditFlags {
	start?: number;
	end?: number;
	title?: string;
	hookTitle?: string;
	captionStyle?: ClipChanges["captionStyle"];
	word?: { index: number; word: string }[];
	favorite?: boolean;
	wait?: boolean;
}

function changesOf(opts: EditFlags): ClipChanges {
	const changes: ClipChanges = {};
	if (opts.start !== undefined) changes.startTime = opts.start;
	if (opts.end !== undefined) changes.endTime = opts.end;
	if (opts.title !== undefined) changes.title = opts.title;
	if (opts.hookTitle !== undefined) changes.hookTitle = opts.hookTitle;
	if (opts.captionStyle !== undefined) changes.captionStyle = opts.captionStyle;
	if (opts.word) changes.captionWords = opts.word;
	if (opts.favorite !== undefined) changes.favorited = opts.favorite;
	if (Object.keys(changes).length > 0) return changes;
	throw new ClipforgeError(
		"invalid_request",
		"Nothing to change: give --start, --end, --title, --hook-title, --caption-style, --word or --favorite.",
		{ status: 0 },
	);
}

export function registerEdit(program: Command, cli: Cli): void {
	program
		.command("edit")
		.description(
			"Edit a clip: trim it (snapped to word edges), retitle it, change its caption look or words; changes to the picture re-render it (free, up to a limit per clip)",
		)
		.argument("<id>", "clip id")
		.option("--start <time>", "new start in the source (seconds or m:ss)", time("--start"))
		.option("--end <time>", "new end in the source (seconds or m:ss)", time("--end"))
		.option("--title <text>", "new title")
		.option("--hook-title <text>", "new hook title (drawn when the video has hook titles)")
		.option(
			"--caption-style <id>",
			`the clip's own caption look (turns its captions on): a preset (${CAPTION_TEMPLATES.join(", ")}) or custom:<id>`,
			cliParser(captionTemplateRef),
		)
		.option("--word <index=word>", "correct caption word INDEX (repeatable)", wordFix)
		.option("--favorite", "mark as favorite")
		.option("--no-favorite", "unmark favorite")
		.option("--wait", "wait for the re-render to finish")
		.action(async (id: string, opts: EditFlags) => {
			let clip = await cli.client().updateClip(id, changesOf(opts));
			if (clip.status === "generating" && opts.wait) {
				if (!cli.json()) console.error(`Rendering ${id} again…`);
				const stopped = () => `Stopped waiting; ${id} keeps rendering. Check it with: clipforge clip ${id}`;
				clip = await untilInterrupted((signal) => cli.client().waitForClip(id, { signal }), stopped);
				if (clip.editError)
					throw new ClipforgeError("video_failed", clip.editError, { status: 200, details: clip });
			}
			const rendering = clip.status === "generating";
			cli.output(
				clip,
				() => `${rendering ? `Re-rendering (check with: clipforge clip ${id})` : "Saved"}\n${clipText(clip)}`,
			);
		});
}
