/**
 * Titles and summaries for chapters without a model. A chapter's title is its salient terms: the
 * words said often inside it and rarely in the other chapters (TF-IDF over the chapters), written
 * as the speakers wrote them, as an adjacent pair when two of them are said together ("remote
 * control"). Its summary is its most central sentence: the one that carries the most of those
 * terms for its length. The whole video's summary names the topics in order and quotes the most
 * central sentence of the longest chapter.
 */
import { GENERIC_TAG_WORDS, GENERIC_WORDS, NUMBER_WORD } from "../../text/lexicon.ts";
import { quoted } from "../../text/quoted.ts";
import { writtenForm } from "../../text/written-case.ts";
import { isEnglish, SENTENCE_END } from "../../text/script.ts";
import { fit } from "../../text/fit.ts";
import type { ChapterUnit as Unit } from "./chapter-units.ts";

export interface ChapterText {
	title: string;
	/** The title as it reads inside a sentence: a capital only where its words have one ("scratch space and Mustard"). */
	phrase: string;
	summary: string;
	/** Salient surface words, best first (what the whole video's summary names). */
	terms: string[];
}

const MAX_TITLE_CHARS = 60;
/** A number said as words or digits ("eighty", "twelve", "4.5"). */
const isNumber = (norm: string) =>
	NUMBER_WORD.test(norm) ||
	/^(zero|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|forty|sixty|seventy|eighty|ninety)$/.test(
		norm,
	);
const MAX_SUMMARY_CHARS = 220;
/** How many of a chapter's most salient terms its title is made from. */
const TITLE_TERMS = 8;

/**
 * `chapters`: the units of each chapter, in order. Talk in another language than English is titled
 * by each chapter's own most central sentence (the salient-term titles read English phrases).
 */
export function describeChapters(chapters: Unit[][], language = "en"): ChapterText[] {
	if (
		!isEnglish(
			language,
			chapters
				.flat()
				.slice(0, 20)
				.map((u) => u.text)
				.join(" "),
		)
	)
		return chapters.map((units) => inItsLanguage(units, salience(units, new Map(), chapters.length)));
	const df = new Map<string, number>();
	for (const units of chapters)
		for (const t of new Set(units.flatMap((u) => u.terms))) df.set(t, (df.get(t) ?? 0) + 1);
	const used = new Set<string>();
	return chapters.map((units, index) => {
		const weights = salience(units, df, chapters.length);
		const ranked = [...weights.entries()].sort((a, b) => b[1] - a[1]).map(([stem]) => stem);
		const things = thingStems(units);
		const named = ranked.filter((stem) => things.has(stem));
		const surface = surfaceForms(units, new Set([...ranked.slice(0, TITLE_TERMS), ...named.slice(0, TITLE_TERMS)]));
		const phrase = titleOf(units, ranked, named, surface, used) || `part ${index + 1}`;
		const title = capitalise(phrase);
		used.add(title.toLowerCase());
		return {
			title,
			phrase,
			summary: centralSentence(units, weights),
			terms: ranked.slice(0, 4).map((s) => surface.get(s) ?? s),
		};
	});
}

/** A chapter titled by its most central sentence, cut to a title's length. */
function inItsLanguage(units: Unit[], weights: Map<string, number>): ChapterText {
	const summary = centralSentence(units, weights);
	const title = fit(summary.replace(SENTENCE_END, ""), MAX_TITLE_CHARS);
	return { title, phrase: title, summary, terms: [] };
}

/** The whole video in a few words: its topics in order and its most central sentence (in another language, the sentence alone). */
export function summaryOf(texts: ChapterText[], chapters: Unit[][], language = "en"): string {
	const titles = texts.map((t) => t.phrase);
	const list =
		titles.length <= 1 ? (titles[0] ?? "") : `${titles.slice(0, -1).join(", ")} and ${titles[titles.length - 1]}`;
	const longest = chapters.reduce((best, units, i) => (span(units) > span(chapters[best] ?? []) ? i : best), 0);
	const quote = texts[longest]?.summary ?? "";
	if (!isEnglish(language, quote)) return quote;
	return [list ? `This video covers ${list}.` : "", quote].filter(Boolean).join(" ");
}

function span(units: Unit[]): number {
	return units.length ? units[units.length - 1]!.end - units[0]!.start : 0;
}

function salience(units: Unit[], df: Map<string, number>, chapterCount: number): Map<string, number> {
	const tf = new Map<string, number>();
	for (const u of units) for (const t of u.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
	const weights = new Map<string, number>();
	for (const [t, count] of tf) {
		if (count < 2 && tf.size > 8) continue;
		weights.set(t, (1 + Math.log(count)) * Math.log(1 + chapterCount / (df.get(t) ?? 1)));
	}
	return weights;
}

/**
 * The most frequent way each of the `wanted` stems was written ("Budget" or "budget", never the
 * stem "budget"). Only the few a title may use are looked up: reading every word's spelling was most
 * of the time chapters take to describe.
 */
function surfaceForms(units: Unit[], wanted: Set<string>): Map<string, string> {
	const counts = new Map<string, Map<string, number>>();
	for (const u of units) {
		u.tagged.forEach((w, i) => {
			if (!w.norm || !wanted.has(w.stem)) return;
			const written = u.words[i]!.word.trim().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
			// A capital only at a sentence start says nothing: keep the lower case then.
			const form = writtenForm(i === 0 || written === written.toUpperCase() ? w.norm : written);
			const forms = counts.get(w.stem) ?? new Map<string, number>();
			forms.set(form, (forms.get(form) ?? 0) + 1);
			counts.set(w.stem, forms);
		});
	}
	const best = new Map<string, string>();
	for (const [stem, forms] of counts) best.set(stem, [...forms.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
	return best;
}

/**
 * The stems a title may name: said mostly as nouns in the chapter ("budget", "Mustard"), never a
 * number, a day or a word every talk has ("seven", "Tuesday", "thing"), nor a word said mostly as
 * a verb or an adjective ("defining", "enormous").
 */
function thingStems(units: Unit[]): Set<string> {
	const asNoun = new Map<string, number>();
	const said = new Map<string, number>();
	const excluded = new Set<string>();
	for (const u of units)
		for (const w of u.tagged) {
			if (!w.norm) continue;
			said.set(w.stem, (said.get(w.stem) ?? 0) + 1);
			if (w.pos === "NOUN" || w.pos === "PROPN") asNoun.set(w.stem, (asNoun.get(w.stem) ?? 0) + 1);
			if (GENERIC_WORDS.has(w.norm) || GENERIC_TAG_WORDS.has(w.norm) || isNumber(w.norm)) excluded.add(w.stem);
		}
	return new Set(
		[...asNoun]
			.filter(([stem, count]) => !excluded.has(stem) && count * 2 >= said.get(stem)!)
			.map(([stem]) => stem),
	);
}

function titleOf(
	units: Unit[],
	ranked: string[],
	named: string[],
	surface: Map<string, string>,
	used: Set<string>,
): string {
	const top = named.slice(0, TITLE_TERMS);
	// A pair's first word may be any salient word ("neural net", "remote control"); its last names a thing.
	const rank = new Map(ranked.slice(0, TITLE_TERMS).map((s, i) => [s, i]));
	const things = new Set(top);
	// The best adjacent pair of salient words ("remote control", "battery life").
	const { pairs, pairForms } = salientPairs(units, rank, things);
	const pair = [...pairs.entries()]
		.filter(([, count]) => count >= 2)
		.sort((x, y) => y[1] - x[1] || pairRank(x[0], rank) - pairRank(y[0], rank))[0]?.[0];
	const words = (stems: string[]) => stems.map((s) => surface.get(s) ?? s);
	const candidates: string[][] = [];
	if (pair) {
		const inPair = new Set(pair.split(" "));
		const other = top.find((s) => !inPair.has(s));
		const said = [...pairForms.get(pair)!.entries()].sort((x, y) => y[1] - x[1])[0]![0];
		candidates.push(other ? [said, surface.get(other) ?? other] : [said]);
	}
	candidates.push(words(top.slice(0, 2)), words(top.slice(0, 3)), words(top.slice(1, 3)));
	for (const parts of candidates) {
		if (parts.length === 0) continue;
		const title = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
		if (title.length <= MAX_TITLE_CHARS && !used.has(title.toLowerCase())) return title;
	}
	return words(top.slice(0, 1)).join("");
}

/** How often each adjacent pair of salient words is said ("a b" by stems), and in which forms. */
function salientPairs(
	units: Unit[],
	rank: Map<string, number>,
	things: Set<string>,
): { pairs: Map<string, number>; pairForms: Map<string, Map<string, number>> } {
	const pairs = new Map<string, number>();
	const pairForms = new Map<string, Map<string, number>>();
	for (const u of units) {
		for (let i = 1; i < u.tagged.length; i++) {
			const a = u.tagged[i - 1]!.stem;
			const b = u.tagged[i]!.stem;
			const first = u.tagged[i - 1]!;
			if (
				a !== b &&
				rank.has(a) &&
				things.has(b) &&
				!isNumber(first.norm) &&
				!GENERIC_WORDS.has(first.norm) &&
				(first.pos === "ADJ" || first.pos === "NOUN" || first.pos === "PROPN") &&
				u.terms.includes(a) &&
				u.terms.includes(b)
			) {
				const key = `${a} ${b}`;
				pairs.set(key, (pairs.get(key) ?? 0) + 1);
				// As said: "tomato plants", not each word's own most frequent form ("tomatoes plants").
				const said = `${u.tagged[i - 1]!.norm} ${u.tagged[i]!.norm}`;
				const forms = pairForms.get(key) ?? new Map<string, number>();
				forms.set(said, (forms.get(said) ?? 0) + 1);
				pairForms.set(key, forms);
			}
		}
	}
	return { pairs, pairForms };
}

function pairRank(pair: string, rank: Map<string, number>): number {
	return pair.split(" ").reduce((sum, s) => sum + (rank.get(s) ?? 9), 0);
}

function centralSentence(units: Unit[], weights: Map<string, number>): string {
	let best: Unit | undefined;
	let bestScore = -Infinity;
	for (const u of units) {
		if (u.backchannel || u.wordCount < 6 || u.question) continue;
		const carried = [...new Set(u.terms)].reduce((sum, t) => sum + (weights.get(t) ?? 0), 0);
		// A reading of digits ("nine eighty to eight eighty") says nothing a reader can follow.
		const numbers = u.tagged.filter((w) => w.norm && isNumber(w.norm)).length;
		// Favour sentences of 12-35 words: long enough to say something, short enough to read.
		const score =
			carried / Math.sqrt(Math.max(12, u.wordCount)) -
			(u.wordCount > 35 ? 0.5 : 0) -
			u.fillers * 0.2 -
			(numbers / Math.max(1, u.wordCount) > 0.2 ? 1 : 0);
		if (score > bestScore) {
			bestScore = score;
			best = u;
		}
	}
	best ??= units.reduce<Unit | undefined>((a, u) => (!a || u.wordCount > a.wordCount ? u : a), undefined);
	return best ? clean(best.text) : "";
}

function clean(text: string): string {
	const sentence = quoted(text);
	if (sentence.length <= MAX_SUMMARY_CHARS) return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
	const cut = sentence.slice(0, MAX_SUMMARY_CHARS - 1);
	return `${cut.slice(0, cut.lastIndexOf(" ")).replace(/[,;:]$/, "")}…`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
