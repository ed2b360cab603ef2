import { join } from "node:path";
import { rm, stat } from "node:fs/promises";
import type { Segment, TranscribeResult, Word } from "@clipforge/contract";
import { cpuSlots, type SlotOwner } from "../runtime/encode-slots.ts";
import { toPocketsphinxWavArgs } from "../ffmpeg/source-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { runProcess } from "../runtime/run-process.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools } from "../runtime/tool-paths.ts";
import { fetchToFile } from "../runtime/transfer.ts";
import { jobScratchDir } from "../runtime/workdir.ts";

/** Lines of pocketsphinx_continuous -time yes: `word start end posterior`. */
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;
/** Markers, not words: sentence start/end, silence, noise and filler tokens. */
const NON_WORD = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\+.*\+)$/i;

/**
 * Offline English transcription of one audio chunk with pocketsphinx (the `local` transcriber). Low
 * accuracy and English only; production uses Whisper through Workers AI.
 */
export async function transcribeLocally(
	audioUrl: string,
	language: string | null,
	onProgress: (fraction: number) => void,
	signal?: AbortSignal,
	/** Whose chunk it is: the CPU slots are shared fairly between workspaces, then their videos. */
	owner: SlotOwner = {},
): Promise<TranscribeResult> {
	if (language && language !== "en") {
		throw new TierError(
			"invalid_request",
			`The local transcriber only understands English, not "${language}".`,
			false,
			400,
		);
	}
	const dir = await jobScratchDir("asr");
	try {
		const input = join(dir, "chunk.audio");
		const wav = join(dir, "chunk.wav");
		await fetchToFile(audioUrl, input, signal);
		// Recognition is CPU work like an encode: one per core. Eleven chunks sharing two cores each take
		// 5× longer, and a tier restarted more often than that (a soak's kills, a deploy) then never
		// finishes one; in line, each finishes at full speed and its result is kept by the Worker.
		const stdout = await cpuSlots.run(signal, owner, () => recognise(input, wav, onProgress, signal));
		return { language: "en", segments: parsePocketsphinxOutput(stdout) };
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** The chunk as 16 kHz mono WAV, then pocketsphinx over it: its word lines (under the CPU slot). */
async function recognise(
	input: string,
	wav: string,
	onProgress: (fraction: number) => void,
	signal: AbortSignal | undefined,
): Promise<string> {
	await runProcess(tools.ffmpeg, toPocketsphinxWavArgs(input, wav), { timeoutMs: 5 * 60_000, signal });
	// 16 kHz mono 16-bit: 32,000 bytes a second after the 44-byte header.
	const seconds = Math.max(1, ((await stat(wav)).size - 44) / 32_000);
	const { stdout } = await runProcess(tools.pocketsphinx, ["-infile", wav, "-time", "yes", "-logfn", "/dev/null"], {
		timeoutMs: jobTimeouts.localTranscription(seconds),
		signal,
		// Word lines arrive utterance by utterance: the last word's end time is how far it got.
		onStdoutLine: (line) => {
			const match = WORD_LINE.exec(line.trim());
			if (match) onProgress(Math.min(1, Number(match[3]) / seconds));
		},
	});
	return stdout;
}

/**
 * Each utterance prints its text line, then one line per token with times in seconds. Variants
 * such as `the(2)` are pronunciation indexes and are stripped.
 */
export function parsePocketsphinxOutput(stdout: string): Segment[] {
	const segments: Segment[] = [];
	let words: Word[] = [];
	const flush = () => {
		if (words.length > 0) {
			segments.push({
				start: words[0]!.start,
				end: words[words.length - 1]!.end,
				text: words.map((w) => w.word).join(" "),
				words,
			});
		}
		words = [];
	};
	for (const raw of stdout.split("\n")) {
		const line = raw.trim();
		const match = WORD_LINE.exec(line);
		if (!match) {
			// A text line starts the next utterance.
			if (line) flush();
			continue;
		}
		const token = match[1]!;
		if (NON_WORD.test(token)) continue;
		words.push({ word: token.replace(/\(\d+\)$/, ""), start: Number(match[2]), end: Number(match[3]) });
	}
	flush();
	return segments;
}
