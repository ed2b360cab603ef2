/**
 * The highlight benchmark through the pipeline's own speech recognition: a few episodes of a split,
 * each cut to its first `turnsPerEpisode` turns with two highlights planted, spoken by flite (one
 * voice per speaker), and transcribed by pocketsphinx exactly as the local transcriber does. What
 * the ranker gets is then unpunctuated and misheard, as on any machine without Whisper. Transcripts
 * are cached in .cache/asr/ (synthesis and recognition take a few minutes per episode).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toPocketsphinxWavArgs } from "../../containers/render/src/ffmpeg/source-args.ts";
import { writtenSegments } from "../../src/worker/services/transcription/written-segments.ts";
import { parsePocketsphinxOutput } from "../../containers/render/src/audio/pocketsphinx.ts";
import { runProcess } from "../../containers/render/src/runtime/run-process.ts";
import type { Transcript } from "@clipforge/moments/text";
import { readTalkSplit, type Split, type TalkItem } from "./talk-corpus.ts";
import { hashSeed, prng, type Turn } from "./turns-to-transcript.ts";

const VOICES = ["slt", "kal16", "awb", "rms"];
const SAMPLE_RATE = 16_000;
const GAP_SECONDS = 0.45;
const CACHE = join(import.meta.dirname, "../../.cache/asr");

export async function buildAsrCorpus(
	split: Split,
	episodes = 3,
	turnsPerEpisode = 70,
	log: (line: string) => void = () => undefined,
): Promise<TalkItem[]> {
	const { episodes: all, highlights } = readTalkSplit(split);
	const random = prng(hashSeed(`asr-${split}`));
	const items: TalkItem[] = [];
	for (const [n, episode] of all.slice(0, episodes).entries()) {
		const planted = highlights.filter((h) => h.genre === episode.genre).slice(2 * n, 2 * n + 2);
		const base = episode.turns.slice(0, turnsPerEpisode);
		const cuts = [Math.floor(base.length * 0.3 + random() * 5), Math.floor(base.length * 0.7 + random() * 5)];
		const turns: Turn[] = [];
		const ranges: [number, number][] = [];
		base.forEach((turn, i) => {
			const k = cuts.indexOf(i);
			if (k >= 0 && planted[k]) {
				ranges.push([turns.length, turns.length + planted[k].turns.length - 1]);
				turns.push(...planted[k].turns);
			}
			turns.push(turn);
		});
		const id = `asr-${split}/${episode.id}`;
		const cached = join(CACHE, `${id.replace(/\//g, "_")}.json`);
		let spoken: { transcript: Transcript; turnTimes: { start: number; end: number }[] };
		if (existsSync(cached)) spoken = JSON.parse(readFileSync(cached, "utf8"));
		else {
			log(`  speaking and transcribing ${id} (${turns.length} turns)…`);
			spoken = await speakAndTranscribe(turns);
			mkdirSync(CACHE, { recursive: true });
			writeFileSync(cached, JSON.stringify(spoken));
		}
		items.push({
			id,
			genre: episode.genre,
			transcript: spoken.transcript,
			highlights: ranges.map(([a, b], k) => ({
				id: planted[k]!.id,
				kind: planted[k]!.kind,
				start: spoken.turnTimes[a]!.start,
				end: spoken.turnTimes[b]!.end,
			})),
			distractors: [],
		});
	}
	return items;
}

async function speakAndTranscribe(
	turns: Turn[],
): Promise<{ transcript: Transcript; turnTimes: { start: number; end: number }[] }> {
	const dir = mkdtempSync(join(tmpdir(), "asr-bench-"));
	try {
		const { pcm, turnTimes, samples } = await speakTurns(turns, dir);
		const all = join(dir, "all.raw");
		const wav = join(dir, "all.wav");
		writeFileSync(all, Buffer.concat(pcm));
		const rawIn = ["-f", "s16le", ...MONO_AT_RATE, "-i", all];
		await runProcess("ffmpeg", [...QUIET, ...rawIn, "-y", join(dir, "in.wav")], { timeoutMs: 60_000 });
		await runProcess("ffmpeg", toPocketsphinxWavArgs(join(dir, "in.wav"), wav), { timeoutMs: 60_000 });
		const { stdout } = await runProcess(
			"pocketsphinx_continuous",
			["-infile", wav, "-time", "yes", "-logfn", "/dev/null"],
			{ timeoutMs: 60 * 60_000 },
		);
		// Cased as the Worker's local transcriber writes the engine's words.
		const segments = writtenSegments(parsePocketsphinxOutput(stdout));
		const words = segments.flatMap((s) => s.words);
		const duration = samples / SAMPLE_RATE;
		return {
			transcript: { language: "en", duration, text: segments.map((s) => s.text).join(" "), segments, words },
			turnTimes,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const QUIET = ["-hide_banner", "-loglevel", "error"];
const MONO_AT_RATE = ["-ar", String(SAMPLE_RATE), "-ac", "1"];

/** Each turn spoken by flite (one voice per speaker) as raw PCM, with a gap after it, and when it is said. */
async function speakTurns(turns: Turn[], dir: string) {
	const voices = new Map<string, string>();
	const pcm: Buffer[] = [];
	const turnTimes: { start: number; end: number }[] = [];
	let samples = 0;
	for (const [i, turn] of turns.entries()) {
		if (!voices.has(turn.speaker)) voices.set(turn.speaker, VOICES[voices.size % VOICES.length]!);
		const text = join(dir, `t${i}.txt`);
		const raw = join(dir, `t${i}.raw`);
		writeFileSync(text, turn.text.replace(/[^\p{L}\p{N}\s.,?!'-]/gu, " "));
		const speech = ["-f", "lavfi", "-i", `flite=textfile=${text}:voice=${voices.get(turn.speaker)}`];
		await runProcess("ffmpeg", [...QUIET, ...speech, ...MONO_AT_RATE, "-f", "s16le", "-y", raw], {
			timeoutMs: 60_000,
		});
		const audio = readFileSync(raw);
		turnTimes.push({ start: samples / SAMPLE_RATE, end: (samples + audio.length / 2) / SAMPLE_RATE });
		pcm.push(audio, Buffer.alloc(2 * Math.round(GAP_SECONDS * SAMPLE_RATE)));
		samples += audio.length / 2 + Math.round(GAP_SECONDS * SAMPLE_RATE);
	}
	return { pcm, turnTimes, samples };
}
