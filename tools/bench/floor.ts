/**
 * A video's floors: the same work done bare, in the same run as the pipeline it is compared with:
 * each clip's plain encode (the same cut, size and x264/AAC settings as the tier, no look) and a
 * plain pocketsphinx pass over the source's audio.
 *
 * - serial: the encodes one after the other, then one pocketsphinx pass over the whole audio (each
 *   x264 encode already uses every core; pocketsphinx uses one);
 * - parallel: the same encodes `cores` at once, then the audio cut into `cores` equal pieces
 *   recognised at once: the bare work spread over the machine's cores, which is what a pipeline that
 *   overlaps its work on every core should be held to. The renders cannot start before the words
 *   are ranked, so the two halves add up here too.
 *
 * Each part also says the CPU seconds it took (its processes' user + system, from the kernel):
 * unlike the wall times, these barely move with the machine's other load.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { renderClipArgs } from "../../containers/render/src/ffmpeg/clip-args.ts";
import { toPocketsphinxWavArgs } from "../../containers/render/src/ffmpeg/source-args.ts";
import { layoutFor } from "../../containers/render/src/framing/layout.ts";
import { inPool } from "../../src/worker/lib/in-pool.ts";
import { childrenCpuSeconds } from "./proc-cpu.ts";

export interface FloorPart {
	/** Wall seconds. */
	seconds: number;
	/** CPU seconds of its processes. */
	cpuSeconds: number;
}

export interface Floor {
	encodeSeconds: number;
	asrSeconds: number;
	totalSeconds: number;
	encodeCpuSeconds: number;
	asrCpuSeconds: number;
}

export interface Floors {
	cores: number;
	serial: Floor;
	parallel: Floor;
	/** The bare work's CPU seconds over the cores: no schedule on this machine can end sooner. */
	cpuBoundSeconds: number;
}

type Clip = { startTime: number; endTime: number };

const run = promisify(execFile);
const round1 = (n: number) => Math.round(n * 10) / 10;

/** The serial floor alone (bench:throughput's per-video unit). */
export async function bareFloor(source: string, clips: Clip[]): Promise<Floor> {
	return (await floorsOf(source, clips, { parallel: false })).serial;
}

/** Both floors, serial then parallel, measured back to back. */
export async function floorsOf(
	source: string,
	clips: Clip[],
	options: { parallel?: boolean; cores?: number } = {},
): Promise<Floors> {
	const cores = options.cores ?? availableParallelism();
	const dir = mkdtempSync(join(tmpdir(), "clipforge-floor-"));
	try {
		const wav = join(dir, "audio.wav");
		await run("ffmpeg", toPocketsphinxWavArgs(source, wav));
		const duration = await durationOf(wav);
		const serial = floor(
			await measure(() => encodeAll(source, clips, dir, 1)),
			await measure(() => recognise([{ wav, start: 0, end: duration }], dir, 1)),
		);
		const parallel =
			options.parallel === false
				? serial
				: floor(
						await measure(() => encodeAll(source, clips, dir, cores)),
						await measure(() => recognise(pieces(wav, duration, cores), dir, cores)),
					);
		return {
			cores,
			serial,
			parallel,
			cpuBoundSeconds: round1((serial.encodeCpuSeconds + serial.asrCpuSeconds) / cores),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function floor(encode: FloorPart, asr: FloorPart): Floor {
	return {
		encodeSeconds: encode.seconds,
		asrSeconds: asr.seconds,
		totalSeconds: round1(encode.seconds + asr.seconds),
		encodeCpuSeconds: encode.cpuSeconds,
		asrCpuSeconds: asr.cpuSeconds,
	};
}

async function measure(work: () => Promise<unknown>): Promise<FloorPart> {
	const cpu = childrenCpuSeconds();
	const started = performance.now();
	await work();
	return {
		seconds: round1((performance.now() - started) / 1000),
		cpuSeconds: round1(childrenCpuSeconds() - cpu),
	};
}

function encodeAll(source: string, clips: Clip[], dir: string, atOnce: number): Promise<void> {
	return inPool(clips, atOnce, (clip, n) =>
		run(
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
		),
	);
}

type Piece = { wav: string; start: number; end: number };

/** The audio in `count` equal pieces (each cut from the one WAV when recognised). */
function pieces(wav: string, duration: number, count: number): Piece[] {
	const step = duration / count;
	return Array.from({ length: count }, (_, i) => ({ wav, start: i * step, end: (i + 1) * step }));
}

async function recognise(parts: Piece[], dir: string, atOnce: number): Promise<void> {
	await inPool(parts, atOnce, async (part, n) => {
		let input = part.wav;
		if (parts.length > 1) {
			input = join(dir, `piece-${n}.wav`);
			await run("ffmpeg", [
				"-v",
				"error",
				"-y",
				"-ss",
				String(part.start),
				"-to",
				String(part.end),
				"-i",
				part.wav,
				"-c",
				"copy",
				input,
			]);
		}
		await run("pocketsphinx_continuous", ["-infile", input, "-time", "yes", "-logfn", "/dev/null"], {
			maxBuffer: 256 << 20,
		});
	});
}

async function durationOf(file: string): Promise<number> {
	const { stdout } = await run("ffprobe", [
		"-v",
		"error",
		"-show_entries",
		"format=duration",
		"-of",
		"csv=p=0",
		file,
	]);
	return Number(stdout.trim());
}
