/**
 * A talk in any language espeak-ng speaks, with the captions file that goes with it: each line
 * said by espeak-ng, the lines one after another with a short breath between them, over a plain
 * picture, and an SRT whose cues are each line's real time in the audio.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BREATH_SECONDS = 0.3;
const RATE = 22_050;

const durationOf = (file: string) =>
	Number(
		execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], {
			encoding: "utf8",
		}),
	);

/** `00:01:02,345`: SRT's time of `seconds`. */
export function srtTime(seconds: number): string {
	const ms = Math.round(seconds * 1000);
	const pad = (n: number, width = 2) => String(n).padStart(width, "0");
	return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

/**
 * Writes `out` (H.264/AAC, 640x360) with `lines` spoken by espeak-ng's `voice`, and returns the SRT
 * of it: one cue per line, from where its sound starts to where it ends.
 */
export function makeSpokenVideo(out: string, voice: string, lines: string[]): string {
	const scratch = mkdtempSync(join(tmpdir(), "spoken-lines-"));
	try {
		const cues: string[] = [];
		const parts: string[] = [];
		let at = 0;
		lines.forEach((line, k) => {
			const said = join(scratch, `line${k}.wav`);
			execFileSync("espeak-ng", ["-v", voice, "-s", "165", "-w", said, line]);
			const seconds = durationOf(said);
			cues.push(`${k + 1}\n${srtTime(at)} --> ${srtTime(at + seconds)}\n${line}\n`);
			parts.push(said);
			at += seconds + BREATH_SECONDS;
		});
		// The lines and a breath of silence after each, as one mono track at espeak-ng's own rate.
		const list = join(scratch, "list.txt");
		const breath = join(scratch, "breath.wav");
		execFileSync("ffmpeg", [
			...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `anullsrc=r=${RATE}:cl=mono`],
			...["-t", String(BREATH_SECONDS), "-c:a", "pcm_s16le", breath],
		]);
		writeFileSync(list, parts.map((p) => `file '${p}'\nfile '${breath}'\n`).join(""));
		const speech = join(scratch, "speech.wav");
		execFileSync("ffmpeg", [
			...["-hide_banner", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", list],
			...["-ar", String(RATE), "-ac", "1", "-c:a", "pcm_s16le", speech],
		]);
		execFileSync("ffmpeg", [
			...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=0x1d3557:s=640x360:r=25"],
			...[
				"-i",
				speech,
				"-shortest",
				"-c:v",
				"libx264",
				"-preset",
				"ultrafast",
				"-pix_fmt",
				"yuv420p",
				"-g",
				"50",
			],
			...["-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart", out],
		]);
		return cues.join("\n");
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}
