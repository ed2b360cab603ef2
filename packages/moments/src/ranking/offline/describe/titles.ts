/**
 * A clip's titles, best first: what happens in it (events.ts), then who or what it is about, then
 * its key line. No template is wrapped around a topic word: when a clip names nothing specific, its
 * own line is used.
 */
import { FILLER_WORDS } from "../../../text/lexicon.ts";
import type { Unit } from "../../../text/units.ts";
import { quoted } from "../../../text/quoted.ts";
import { fit, capitalise } from "../../../text/fit.ts";
import { VAGUE, DETERMINER, type Phrase, surface } from "./phrases.ts";
import { eventIn, thingIn, specificIn, ASIDE } from "./events.ts";
import { endsMidClause } from "./quotes.ts";

const TITLE_CHARACTERS = 80;

/**
 * Titles, best first: what happens ("Working nights at a bakery in Chicago", from the sentence that
 * sets the clip up), then who or what it is about ("Walter and the card"), then its key line.
 */
export function titlesOf(units: Unit[], phrases: Phrase[], idf: Map<string, number>): string[] {
	const titles: string[] = [];
	const event = eventOf(units, idf);
	if (event) titles.push(event);
	// Only phrases that name something: a proper noun, or several words rare in this video.
	const strong = phrases.filter((p) => p.proper || (p.text.includes(" ") && p.weight >= 6));
	// Two different things: never a phrase beside a near copy of it ("Eggs bread call Danny and eggs bread").
	const wordsOf = (p: Phrase) =>
		new Set(p.words.filter((w) => w.pos === "NOUN" || w.pos === "PROPN").map((w) => w.text.toLowerCase()));
	const first = strong[0] && wordsOf(strong[0]);
	const other = strong.slice(1).find((p) => ![...wordsOf(p)].some((w) => first!.has(w)));
	if (strong[0] && other) titles.push(`${capitalise(strong[0].text)} and ${other.text}`);
	if (strong.length >= 1) titles.push(capitalise(strong[0]!.text));
	// Not a string of numbers read out ("Ten, sixteen three two"), not a line cut off mid-clause.
	const said = units.filter((u) => !u.backchannel && u.wordCount >= 4 && 2 * u.numbers < u.wordCount);
	const line = said.find((u) => !endsMidClause(u.tagged)) ?? said[0];
	// A line as a title, without its full stop: no other title has one. Every title as said (saidOnce).
	titles.push(quoted(line?.text ?? units[0]?.text ?? "This moment").replace(/\.+$/, ""));
	return [
		...new Set(titles.map((t) => fit(capitalise(withoutAsideAtEnd(saidOnce(t.split(" ")))), TITLE_CHARACTERS))),
	];
}

/**
 * The event of the sentence that sets the clip up, as a gerund phrase without its subject:
 * "ten years ago I worked nights at a bakery in Chicago" → "Working nights at a bakery in Chicago".
 * Null when that sentence names nothing specific or leans on "me"/"you".
 */
function eventOf(units: Unit[], idf: Map<string, number>): string | null {
	const candidates = units.slice(0, 4).filter((u) => !u.backchannel && !u.question && u.wordCount >= 4);
	// The sentence that opens a story first, then the clip's first sentences in order.
	const opener = candidates.find((u) => u.storyOpener);
	const ordered = opener ? [opener, ...candidates.filter((u) => u !== opener)] : candidates;
	// Each sentence's first clause first; only then the later clauses of the same sentences.
	for (const later of [false, true])
		for (const setup of ordered) {
			const event = eventIn(setup, idf, later);
			if (event) return event;
		}
	// Nothing happens in them, but one may name the thing it is about ("the system update that went
	// out"), say in a few words what the clip argues ("Easy mode isn't ruining games"), or open on
	// when and where it is ("My first week at the call center, …").
	for (const name of [thingIn, claimIn, settingIn])
		for (const setup of ordered) {
			const title = name(setup, idf);
			if (title) return title;
		}
	return null;
}

/**
 * A short sentence (or the clause before its first comma) that says something of a named thing, as
 * said: "Easy mode isn't ruining games.", "A bucket of movie theater popcorn costs the theater maybe
 * fifty cents to make, …". Its subject is a noun phrase that opens it (never "it", "people" or "the
 * thing"), its verb follows at once, and it names something this video says rarely.
 */
function claimIn(setup: Unit, idf: Map<string, number>): string | null {
	const tagged = setup.tagged;
	const comma = setup.words.findIndex((w) => /[,;:]$/.test(w.word));
	const length = comma >= 0 ? comma + 1 : tagged.length;
	if (length < 3 || length > 12 || (comma < 0 && !/[.!]$/.test(setup.text.trim()))) return null;
	// The subject: a noun phrase, and "of" another ("a bucket of movie theater popcorn").
	let k = DETERMINER.test(tagged[0]?.norm ?? "") ? 1 : 0;
	const nounsFrom = (j: number) => {
		while (["ADJ", "NOUN", "PROPN", "NUM"].includes(tagged[j]?.pos ?? "")) j++;
		return j;
	};
	let after = nounsFrom(k);
	if (tagged[after]?.norm === "of") {
		k = after + 1 + (DETERMINER.test(tagged[after + 1]?.norm ?? "") ? 1 : 0);
		after = nounsFrom(k);
	}
	const noun = tagged[after - 1];
	if (!noun || !["NOUN", "PROPN"].includes(noun.pos) || VAGUE.test(noun.norm)) return null;
	if (!["VERB", "AUX"].includes(tagged[after]?.pos ?? "") || after + 1 >= length) return null;
	const words = Array.from({ length }, (_, n) => n);
	if (!specificIn(words, tagged, idf)) return null;
	return capitalise(words.map((n) => setup.words[n]?.word ?? tagged[n]!.norm).join(" ")).replace(/[.!,;:]+$/, "");
}

/** "My first winter in Oslo, I'm on the night shift": the noun phrase a sentence opens on before its comma. */
function settingIn(setup: Unit, idf: Map<string, number>): string | null {
	const tagged = setup.tagged;
	if (!DETERMINER.test(tagged[0]?.norm ?? "")) return null;
	const comma = setup.words.findIndex((w) => /,$/.test(w.word));
	if (comma < 2 || comma > 8) return null;
	const phrase = Array.from({ length: comma + 1 }, (_, k) => k);
	const nounPhrase = phrase.every(
		(k) => k === 0 || ["NOUN", "PROPN", "ADJ", "NUM", "ADP", "DET"].includes(tagged[k]!.pos),
	);
	if (!nounPhrase || !specificIn(phrase, tagged, idf) || tagged[comma]!.pos === "ADP") return null;
	return capitalise(phrase.map((k) => surface(setup, k)).join(" "));
}

/**
 * Words as a title says them: without hesitations ("different uh remote controls") and a word said
 * twice in a row once ("got the the big one", "Mouse mouse").
 */
function saidOnce(words: string[]): string {
	const bare = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}']+/gu, "");
	const kept = words.filter((w) => !FILLER_WORDS.has(bare(w)));
	return kept.filter((w, k) => k === 0 || bare(w) !== bare(kept[k - 1]!)).join(" ");
}

/** A title does not end on an aside to the listener ("Calling archive yeah"). */
function withoutAsideAtEnd(title: string): string {
	const words = title.split(" ");
	while (words.length > 2 && ASIDE.test(words[words.length - 1]!.toLowerCase().replace(/[^a-z]+/g, ""))) words.pop();
	return words.join(" ").replace(/[,;:]+$/, "");
}
