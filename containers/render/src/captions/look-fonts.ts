/**
 * libass silently falls back to another face when one is missing, so a look whose font is not
 * installed would render in the wrong font: the render and the preview refuse it instead (a broken
 * image, not a bad request).
 */
import { access } from "node:fs/promises";
import { CAPTION_FONTS, EMOJI_FONT, type CaptionLook } from "@clipforge/contract";
import { TierError } from "../runtime/tier-error.ts";

export async function assertLookFonts(look: CaptionLook): Promise<void> {
	const font = CAPTION_FONTS.find((f) => f.id === look.font)!;
	for (const needed of look.emoji ? [font, EMOJI_FONT] : [font]) {
		try {
			await access(needed.file);
		} catch {
			throw new TierError(
				"internal_error",
				`The caption font ${needed.file} is not installed (Debian package ${needed.debianPackage}).`,
				false,
				500,
			);
		}
	}
}
