/**
 * A clip's noun phrases ("a bakery in Chicago", "uncle Ray's boat"), most specific first: what its
 * titles and hashtags name.
 */
import { BACKCHANNEL_WORDS, FILLER_WORDS, GENERIC_WORDS } from "../../../text/lexicon.ts";
import type { Unit } from "../../../text/units.ts";
import { writtenForm } from "../../../text/written-case.ts";

/** Nouns that name nothing in particular. */
export const VAGUE =
	/^(thing|things|stuff|lot|lots|kind|sort|way|bit|guy|guys|people|time|day|yeah|okay|um|uh|same|other|whole|sure|fine)$/;

const PRONOUN_CONTRACTED =
	/^(everything|something|nothing|anything|everybody|somebody|nobody|everyone|someone|it|that|this|what|there|here|who|he|she)'(s|d|ll)$/;

/** Words that open a noun phrase: a noun is not followed by one directly. */
export const DETERMINER = /^(the|a|an|your|my|his|her|our|their|its|this|these|those)$/;

export interface Phrase {
	text: string;
	weight: number;
	proper: boolean;
	/** Its words as written, each with what the tagger read it as. */
	words: { text: string; pos: string }[];
}

/** The clip's noun phrases ("a bakery in Chicago", "uncle Ray's boat"), most specific first (IDF over the whole video). */
export function keyPhrases(units: Unit[], idf: Map<string, number>, count = 3): string[] {
	return phrasesOf(units, idf)
		.slice(0, count)
		.map((p) => p.text);
}

export function phrasesOf(units: Unit[], idf: Map<string, number>): Phrase[] {
	const scored = new Map<string, Phrase>();
	units.forEach((u, n) => {
		const early = 1 + 0.3 * Math.max(0, 1 - n / 4);
		for (const run of namingRuns(u)) {
			const phrase = trimmed(u, run);
			if (!phrase.length || !phrase.some((k) => names(u, k, idf))) continue;
			const words = phrase.map((k) => ({ text: surface(u, k), pos: u.tagged[k]!.pos }));
			const text = words.map((w) => w.text).join(" ");
			const proper = phrase.some((k) => u.tagged[k]!.pos === "PROPN");
			const weight =
				phrase.reduce(
					(s, k) => s + (["ADP", "DET"].includes(u.tagged[k]!.pos) ? 0 : (idf.get(u.tagged[k]!.stem) ?? 0)),
					0,
				) *
				(1 + 0.15 * (phrase.length - 1)) *
				(proper ? 1.3 : 1) *
				early;
			const known = scored.get(text.toLowerCase());
			scored.set(text.toLowerCase(), {
				text: known?.text ?? text,
				weight: (known?.weight ?? 0) + weight,
				proper,
				words: known?.words ?? words,
			});
		}
	});
	const ranked = [...scored.values()].sort((a, b) => b.weight - a.weight || a.text.localeCompare(b.text));
	const picked: Phrase[] = [];
	for (const p of ranked) {
		const lower = p.text.toLowerCase();
		if (!picked.some((q) => q.text.toLowerCase().includes(lower) || lower.includes(q.text.toLowerCase())))
			picked.push(p);
	}
	return picked;
}

/** Runs of a sentence's naming words (at most 6), with the prepositions and articles that join nouns. */
function namingRuns(u: Unit): number[][] {
	const runs: number[][] = [];
	let phrase: number[] = [];
	u.tagged.forEach((w, k) => {
		const previous = u.tagged[k - 1];
		// "a bakery in Chicago", "the card on my desk": nouns joined by a preposition (and its article).
		const linking =
			phrase.length > 0 &&
			((w.pos === "ADP" &&
				["in", "at", "of", "from", "on"].includes(w.norm) &&
				["NOUN", "PROPN"].includes(previous?.pos ?? "")) ||
				(w.pos === "DET" && ["a", "an", "the"].includes(w.norm) && previous?.pos === "ADP"));
		const naming =
			(w.pos === "ADJ" || w.pos === "NOUN" || w.pos === "PROPN") &&
			w.norm.length > 1 &&
			// The tagger reads "I'm", "I've", "everything's" as names.
			!/^i'/.test(w.norm) &&
			!PRONOUN_CONTRACTED.test(w.norm) &&
			!VAGUE.test(w.norm) &&
			!FILLER_WORDS.has(w.norm) &&
			!BACKCHANNEL_WORDS.has(w.norm);
		if (naming || (linking && phrase.length < 5)) {
			if (phrase.length < 6) phrase.push(k);
		} else {
			runs.push(phrase);
			phrase = [];
		}
	});
	runs.push(phrase);
	return runs;
}

/**
 * A run without the words that cannot end a noun phrase at its end, nor a preposition or article at
 * its start. A last "noun" in -s that is followed at once by a determiner or a possessive is a verb
 * the tagger misread in lower-case text ("the morning sets your clock": not "morning sets").
 */
function trimmed(u: Unit, run: number[]): number[] {
	const phrase = [...run];
	const last = phrase[phrase.length - 1];
	if (last !== undefined && /s$/.test(u.tagged[last]!.norm) && DETERMINER.test(u.tagged[last + 1]?.norm ?? ""))
		phrase.pop();
	while (phrase.length && !["NOUN", "PROPN"].includes(u.tagged[phrase[phrase.length - 1]!]!.pos)) phrase.pop();
	while (phrase.length && ["ADP", "DET"].includes(u.tagged[phrase[0]!]!.pos)) phrase.shift();
	return phrase;
}

/** Whether word k is a noun that names something in this video (rare enough, not generic). */
function names(u: Unit, k: number, idf: Map<string, number>): boolean {
	return (
		(idf.get(u.tagged[k]!.stem) ?? 0) > 0 &&
		!GENERIC_WORDS.has(u.tagged[k]!.norm) &&
		["NOUN", "PROPN"].includes(u.tagged[k]!.pos)
	);
}

/** The word as said, cleaned; proper nouns capitalised and "i" upper-case (the local engine writes lower case). */
export function surface(u: Unit, k: number): string {
	const raw = (u.words[k]?.word ?? u.tagged[k]!.norm).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'-]+$/gu, "");
	if (u.tagged[k]!.pos === "PROPN") return raw.charAt(0).toUpperCase() + raw.slice(1);
	return writtenForm(raw);
}
