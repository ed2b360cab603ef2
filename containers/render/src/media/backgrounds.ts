/**
 * Split-screen backgrounds: the built-in library, drawn by ffmpeg's own sources and stored as short
 * H.264 loops (a workspace's own media: import-media.ts).
 */
import { join } from "node:path";
import { rm } from "node:fs/promises";
import type { BuiltinBackgroundId, MakeBackgroundRequest, MediaFileResult, OnProgress } from "@clipforge/contract";
import { ffmpegProgressReader } from "../ffmpeg/progress.ts";
import { holdPath } from "../runtime/job-context.ts";
import { runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";
import { putFile } from "../runtime/transfer.ts";
import { sharedDir } from "../runtime/workdir.ts";

/** Seconds of a background loop: long enough not to feel repetitive, small enough to fetch per instance. */
export const BACKGROUND_SECONDS = 12;
/** Portrait, half of 1080x1920: backgrounds are decoration, scaled up into whatever box they fill. */
const SIZE = "540x960";

/** lavfi source graphs of the built-in library (constants: no user input reaches them). */
export const BACKGROUND_SOURCES: Record<BuiltinBackgroundId, string> = {
	"abstract-gradient": `gradients=s=${SIZE}:speed=0.015:rate=30:c0=0x1d2671:c1=0xc33764:c2=0x0f9b8e:nb_colors=3`,
	"abstract-sierpinski": `sierpinski=s=${SIZE}:rate=30`,
	"satisfying-life":
		"life=s=135x240:mold=10:rate=15:ratio=0.1:death_color=#1e1e3c:life_color=#4be3ac,scale=540:960:flags=neighbor,fps=30",
	"satisfying-mandelbrot": `mandelbrot=s=${SIZE}:rate=30`,
	"retro-bars": `testsrc2=s=${SIZE}:rate=30`,
	"retro-automaton": "cellauto=s=270x480:rule=110:rate=30:scroll=1:full=1,scale=540:960:flags=neighbor",
};

/** The H.264 loop every stored background is (built-in and imported). */
export const BACKGROUND_ENCODE = [
	"-c:v",
	"libx264",
	"-preset",
	"veryfast",
	"-crf",
	"24",
	"-pix_fmt",
	"yuv420p",
	"-movflags",
	"+faststart",
];

export async function makeBackground(
	req: MakeBackgroundRequest,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<MediaFileResult> {
	const path = holdPath(join(await sharedDir(), `make-${req.backgroundId}-${Date.now()}.mp4`));
	try {
		await runProcess(
			tools.ffmpeg,
			[
				"-hide_banner",
				"-nostdin",
				"-y",
				"-loglevel",
				"error",
				"-progress",
				"pipe:1",
				"-nostats",
				"-f",
				"lavfi",
				"-i",
				BACKGROUND_SOURCES[req.backgroundId],
				"-t",
				String(BACKGROUND_SECONDS),
				"-an",
				...BACKGROUND_ENCODE,
				path,
			],
			{
				timeoutMs: 5 * 60_000,
				signal,
				collectStdout: false,
				onStdoutLine: ffmpegProgressReader(BACKGROUND_SECONDS, (f) => onProgress(f * 0.8)),
			},
		);
		const bytes = await putFile(path, req.putUrl, "video/mp4", undefined, signal);
		onProgress(1);
		return { bytes, width: 540, height: 960, duration: BACKGROUND_SECONDS };
	} finally {
		await rm(path, { force: true });
	}
}
