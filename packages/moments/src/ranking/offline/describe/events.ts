/**
 * What happens in a sentence, read from its tagged words: the event of a clause as a gerund phrase
 * ("Working nights at a bakery in Chicago"), or a thing and the clause that says which or what it
 * is; the reading titles.ts names a clip by.
 */
import { endsSentence } from "../../../text/transcript.ts";
import type { Unit } from "../../../text/units.ts";
import { capitalise } from "../../../text/fit.ts";
import { DETERMINER, surface } from "./phrases.ts";

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
export function eventIn(setup: Unit, idf: Map<string, number>, later: boolean): string | null {
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
 * A thing and the clause that says which or what it is, or null: "The road the council closed in
 * May", "The claim that breakfast is the most important meal".
 */
export function thingIn(setup: Unit, idf: Map<string, number>): string | null {
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

/** Nouns followed by what was said or thought: "the claim that breakfast is the most important meal". */
const CONTENT_NOUN =
	/^(idea|claim|notion|fact|rumou?r|myth|belief|theory|argument|assumption|news|feeling|sense|hope|fear|suggestion|promise|lie|joke)$/;

/** The event of the clause whose verb is word `verb`, or null. */
function eventAt(setup: Unit, verb: number, idf: Map<string, number>): string | null {
	const tagged = setup.tagged;
	const lemma = tagged[verb]!.lemma || tagged[verb]!.norm;
	// "going back", "going to say": a direction or a plan, not the event.
	const next = tagged[verb + 1];
	// "my neighbour asked me to feed her cat": the event is what was asked.
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
export const specificIn = (words: number[], tagged: Unit["tagged"], idf: Map<string, number>) =>
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
export const ASIDE = /^(right|okay|ok|yeah|anyway|basically|actually|honestly|literally|obviously|seriously)$/;

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
