/**
 * A video's floor: the same work done bare, one thing at a time, in the same run as the pipeline
 * it is compared with: each clip's plain encode (the same cut, size and x264/AAC settings as the
 * tier, no look), then one plain pocketsphinx pass over the whole source's audio.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { renderClipArgs } from "../../containers/render/src/ffmpeg/clip-args.ts";
import { toPocketsphinxWavArgs } from "../../containers/render/src/ffmpeg/source-args.ts";
import { layoutFor } from "../../containers/render/src/framing/layout.ts";

export interface Floor {
	encodeSeconds: number;
	asrSeconds: number;
	totalSeconds: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export async function bareFloor(source: string, clips: { startTime: number; endTime: number }[]): Promise<Floor> {
	const run = promisify(execFile);
	const dir = mkdtempSync(join(tmpdir(), "clipforge-floor-"));
	try {
		let started = performance.now();
		for (const [n, clip] of clips.entries()) {
			await run(
				"ffmpeg",
				renderClipArgs({
					sourceUrl: source,
					start: clip.startTime,
					end: clip.endTime,
					layout: layoutFor("9:16", null),
					track: null,
					assFile: null,
					backgroundFile: null,
					watermark: null,
					outputPath: join(dir, `clip-${n}.mp4`),
				}),
			);
		}
		const encodeSeconds = (performance.now() - started) / 1000;
		started = performance.now();
		const wav = join(dir, "audio.wav");
		await run("ffmpeg", toPocketsphinxWavArgs(source, wav));
		await run("pocketsphinx_continuous", ["-infile", wav, "-time", "yes", "-logfn", "/dev/null"], {
			maxBuffer: 256 << 20,
		});
		const asrSeconds = (performance.now() - started) / 1000;
		return {
			encodeSeconds: round1(encodeSeconds),
			asrSeconds: round1(asrSeconds),
			totalSeconds: round1(encodeSeconds + asrSeconds),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
