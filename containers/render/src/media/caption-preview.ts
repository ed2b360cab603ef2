/**
 * The caption-preview job: one PNG frame of sample words drawn in a look, exactly as a clip would
 * draw them (the same ASS document, libass and layout), over a neutral background on a 9:16 frame.
 * The Worker stores it once per look in R2 and serves it to pickers through a signed URL.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
	type CaptionLook,
	type CaptionPreviewResult,
	type JobInput,
	type OnProgress,
	type Word,
} from "@clipforge/contract";
import { buildAssDocument } from "../captions/ass-document.ts";
import { assertLookFonts } from "../captions/look-fonts.ts";
import { layoutFor } from "../framing/layout.ts";
import { runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";
import { putFile } from "../runtime/transfer.ts";
import { jobScratchDir } from "../runtime/workdir.ts";

/** The sample line: its third word ("idea") is being spoken at PREVIEW_AT, and is a keyword of the emoji look. */
export const PREVIEW_WORDS: Word[] = "This one idea changed how I make money."
	.split(" ")
	.map((word, i) => ({ word, start: 0.2 + i * 0.35, end: 0.2 + i * 0.35 + 0.3 }));
export const PREVIEW_AT = 1.1;
/** A calm slate, neither light nor dark, so light text, dark boxes and colours all read on it. */
const BACKGROUND = "0x3b4654";

export async function captionPreview(
	req: JobInput<"captionPreview">,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<CaptionPreviewResult> {
	await assertLookFonts(req.look);
	const dir = await jobScratchDir("preview");
	try {
		const ass = join(dir, "look.ass");
		const png = join(dir, "look.png");
		await writeFile(ass, previewAss(req.look), "utf8");
		const height = Math.round((req.width * 16) / 9 / 2) * 2;
		await runProcess(tools.ffmpeg, previewArgs(ass, req.width, png), { timeoutMs: 60_000, signal });
		onProgress(0.8);
		const bytes = await putFile(png, req.putUrl, "image/png", undefined, signal);
		return { bytes, width: req.width, height };
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** The ASS of the sample words in `look` on a 1080x1920 frame. */
export function previewAss(look: CaptionLook): string {
	return buildAssDocument({
		layout: layoutFor("9:16", null),
		captions: { look, words: PREVIEW_WORDS },
		hookTitle: null,
		duration: 10,
	});
}

export function previewArgs(assFile: string, width: number, output: string): string[] {
	return [
		"-hide_banner",
		"-nostdin",
		"-y",
		"-loglevel",
		"error",
		"-f",
		"lavfi",
		"-i",
		`color=c=${BACKGROUND}:s=1080x1920:r=25:d=3`,
		// Drawn at full size (fonts hinted for it), then scaled down for the picker.
		"-vf",
		`ass=filename=${assFile.replace(/[\\':]/g, (c) => `\\${c}`)},scale=${width}:-2:flags=lanczos`,
		"-ss",
		String(PREVIEW_AT),
		"-frames:v",
		"1",
		"-update",
		"1",
		output,
	];
}
