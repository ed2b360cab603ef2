/**
 * Highlights made exactly as disfluent as the talk they are planted into, so fluency alone cannot
 * find them. The written highlights are clean monologues (0-0.6 hesitations per 100 words) while
 * the talk around them has 3-7, and their turns run 60 words where the talk's run 8: a "fewest
 * fillers" window finds them without reading a word. Here each highlight turn gets, per word, the
 * surrounding talk's own rates of hesitations ("uh,"), filler "like,", "you know," / "I mean,",
 * cut-off restarts ("I- I"), and its listeners' backchannel turns ("Mm-hmm.") between sentences,
 * drawn from the surrounding talk's own tokens. What stays is what the highlight says.
 */
import type { Turn } from "./turns-to-transcript.ts";

const HESITATION = /^(um+|uh+|er+|erm|hmm+|mm+)[,.]?$/i;
const FILLER_LIKE = /^like,$/i;
const PHRASE = /\b(you know|i mean),/gi;
const CUT_OFF = /^[\p{L}']+-$/u;
const BACKCHANNEL_TURN =
	/^(yeah|yes|mm-hmm|mhm|uh-huh|right|okay|ok|sure|wow|huh|oh|no way|really|nice|exactly|totally)[.!?,]*( (yeah|right|okay|wow|sure|exactly|totally)[.!?,]*)?$/i;

export interface DisfluencyProfile {
	/** Per word of talk. */
	hesitation: number;
	like: number;
	phrase: number;
	cutOff: number;
	/** Backchannel turns per sentence of the other turns. */
	backchannel: number;
	hesitations: string[];
	backchannels: string[];
}

/** How disfluent a stretch of talk is, and the tokens it is disfluent with. */
export function profileOf(turns: Turn[]): DisfluencyProfile {
	let words = 0;
	let sentences = 0;
	const counts = { hesitation: 0, like: 0, phrase: 0, cutOff: 0, backchannel: 0 };
	const hesitations: string[] = [];
	const backchannels: string[] = [];
	for (const turn of turns) {
		const text = turn.text.trim();
		if (BACKCHANNEL_TURN.test(text)) {
			counts.backchannel++;
			backchannels.push(text);
			continue;
		}
		const tokens = text.split(/\s+/).filter(Boolean);
		words += tokens.length;
		sentences += Math.max(1, (text.match(/[.!?](\s|$)/g) ?? []).length);
		for (const token of tokens) {
			if (HESITATION.test(token)) {
				counts.hesitation++;
				hesitations.push(token.toLowerCase().replace(/[.]$/, ","));
			} else if (FILLER_LIKE.test(token)) counts.like++;
			else if (CUT_OFF.test(token)) counts.cutOff++;
		}
		counts.phrase += (text.match(PHRASE) ?? []).length;
	}
	const perWord = (n: number) => (words ? n / words : 0);
	return {
		hesitation: perWord(counts.hesitation),
		like: perWord(counts.like),
		phrase: perWord(counts.phrase),
		cutOff: perWord(counts.cutOff),
		backchannel: sentences ? counts.backchannel / sentences : 0,
		hesitations: hesitations.length ? hesitations : ["uh,", "um,"],
		backchannels: backchannels.length ? backchannels : ["Yeah.", "Mm-hmm."],
	};
}

/** The highlight's turns with the profile's disfluencies and backchannels added at its rates. */
export function roughen(turns: Turn[], profile: DisfluencyProfile, random: () => number): Turn[] {
	const speakers = [...new Set(turns.map((t) => t.speaker))];
	const out: Turn[] = [];
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
	for (const turn of turns) {
		const listener = speakers.find((s) => s !== turn.speaker) ?? "Listener";
		let current: string[] = [];
		const flush = () => {
			if (current.length) out.push({ speaker: turn.speaker, text: current.join(" ") });
			current = [];
		};
		const tokens = turn.text.split(/\s+/).filter(Boolean);
		tokens.forEach((word, k) => {
			let token = word;
			const sentenceStart = k === 0 || /[.!?]["')]*$/.test(tokens[k - 1]!);
			if (random() < profile.hesitation) {
				current.push(sentenceStart ? capitalise(pick(profile.hesitations)) : pick(profile.hesitations));
				if (sentenceStart && COMMON_OPENER.test(token)) token = token.toLowerCase();
			}
			if (!sentenceStart && random() < profile.like) current.push("like,");
			if (!sentenceStart && random() < profile.phrase) current.push(random() < 0.5 ? "you know," : "I mean,");
			const bare = token.replace(/[^\p{L}']/gu, "");
			if (bare && random() < profile.cutOff) current.push(`${bare}-`);
			current.push(token);
			// A listener's "Mm-hmm." between two sentences, as often as the talk around has them.
			if (/[.!?]["')]*$/.test(token) && k < tokens.length - 1 && random() < profile.backchannel) {
				flush();
				out.push({ speaker: listener, text: pick(profile.backchannels) });
			}
		});
		flush();
	}
	return out;
}

/** Sentence openers that are not names: lower-cased after an inserted "Uh,". */
const COMMON_OPENER =
	/^(so|and|but|the|a|we|it|then|okay|my|he|she|they|that|this|there|what|when|if|because|now|one|every|last|first)\b/i;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
