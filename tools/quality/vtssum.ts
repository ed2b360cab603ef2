/**
 * VT-SSum (Lv, Cui, Vasilijevic and Wei, "VT-SSum: A Benchmark Dataset for Video Transcript
 * Segmentation and Summarization", arXiv:2106.05606, 2021; github.com/Dod-o/VT-SSum): transcripts
 * of 9,616 recorded lectures and talks from VideoLectures.NET, each cut into the stretches the
 * speaker showed one slide for (`segmentation`: a list of segments, each a list of sentences).
 * Slide changes are the speaker's own structure, finer than chapters (a median of about 70 words a
 * segment). No word timings: sentences are timed as turns-to-transcript.ts times turns (seeded).
 * The repository states no license; the lectures are VideoLectures.NET's. Never committed.
 *
 * Used only to measure: VT-SSum's `dev` folder is this bench's dev side, its `test` folder the
 * held-out side; each takes the first `LECTURES` lectures (by file name) of 1,500-8,000 words in
 * at least 5 segments (chosen on those counts alone, to keep the run short). Where: `VTSSUM_DIR`
 * (a clone of the repository), `.corpora/vt-ssum` (`npm run fetch:corpora`), or the fetched mirror.
 */
import { corpusSource } from "./corpus-source.ts";
import type { TopicTalk } from "./tinyrec.ts";
import { hashSeed, turnsToTranscript } from "./turns-to-transcript.ts";

export type VtssumSplit = "dev" | "test";

const MIRROR = "/work/.mirror/Dod-o+VT-SSum/repo";
export const LECTURES = 120;

interface RawLecture {
	id: string;
	segmentation: string[][];
}

/** The raw lectures a split uses (sentences per segment), or null when no copy is on this machine. */
export function readVtssum(split: VtssumSplit): { id: string; segments: string[][] }[] | null {
	const source = corpusSource("VTSSUM_DIR", "vt-ssum", MIRROR);
	if (!source) return null;
	const names = source.list(split).filter((f) => f.endsWith(".json"));
	if (names.length === 0) return null;
	const picked: { id: string; segments: string[][] }[] = [];
	for (const name of names) {
		if (picked.length >= LECTURES) break;
		const lecture = JSON.parse(source.read(`${split}/${name}`)) as RawLecture;
		const segments = lecture.segmentation.filter((s) => s.length > 0);
		const words = segments.flat().reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
		if (segments.length >= 5 && words >= 1500 && words <= 8000)
			picked.push({ id: `vtssum/${split}/${name.replace(/\.json$/, "")}`, segments });
	}
	return picked;
}

/** The lectures of one split as timed transcripts with their slide boundaries, or null without a copy. */
export function loadVtssum(split: VtssumSplit): TopicTalk[] | null {
	const lectures = readVtssum(split);
	if (!lectures) return null;
	return lectures.map(({ id, segments }) => {
		const turns = segments.flat().map((text) => ({ speaker: "speaker", text }));
		const { transcript, turnTimes } = turnsToTranscript(turns, { seed: hashSeed(id), style: "punctuated" });
		const firsts: number[] = [];
		let index = 0;
		for (const s of segments) {
			firsts.push(index);
			index += s.length;
		}
		const topics = firsts.map((first, k) => ({
			title: "",
			span: {
				start: turnTimes[first]!.start,
				end: turnTimes[(firsts[k + 1] ?? turns.length) - 1]!.end,
			},
		}));
		const boundaries = [...new Set(topics.slice(1).map((t) => t.span.start))].filter((b) => b > 0);
		return { id, family: "lectures", transcript, boundaries, topics };
	});
}
