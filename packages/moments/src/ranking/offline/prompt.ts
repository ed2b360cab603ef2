/**
 * A custom prompt read as a person means it: the topic or question ("why did they pick the menu
 * design?"), a mood ("only the funny moments"), what to leave out ("skip the arguing", "not the
 * budget"), and constraints on length and place ("under 30 s", "after the intro", "in the last ten
 * minutes", "the second half"). Plain patterns over English; whatever is not an instruction is the
 * topic, which keeps every unknown prompt useful.
 */
import { STOP_WORDS } from "../../text/lexicon.ts";
import { analyseWords, compoundKey, matchStem, normalise } from "../../text/nlp.ts";
import { isKey } from "../../text/units.ts";

export type Mood = "funny" | "emotional" | "heated" | "story" | "advice" | "surprising" | "decided";

export interface PromptTerm {
	stem: string;
	word: string;
	/** 1 for the topic, less for the context clause or the question's subject (who spoke). */
	weight: number;
	/** Only in "when discussing X" clauses: locates the passage rather than the answer. */
	context: boolean;
	/** Names who spoke ("what did the professor say", "Grad A's comments"), which the transcript does not record. */
	speaker?: true;
}

/** Where clips may lie, in seconds of the time frame: a start and an end, each from the frame's start or its end. */
export interface Place {
	/** Fractions of the time frame ([0, 1] unless the prompt says "the second half", "near the end"). */
	within: [number, number];
	/** "in the first ten minutes": clips end by then. */
	firstSeconds: number | null;
	/** "in the last five minutes": clips start no earlier than this before the end. */
	lastSeconds: number | null;
	/** "after minute 20", "after the first ten minutes": clips start after this. */
	afterSeconds: number | null;
	/** "before minute 20": clips end by then. */
	beforeSeconds: number | null;
}

export interface ReadPrompt extends Place {
	terms: PromptTerm[];
	/** Adjacent topic stems ("energy source"), matched as phrases. */
	phrases: [string, string][];
	/**
	 * Hyphenated topic words ("back-end"): their key (the parts written together, as matchStem
	 * gives it) and their parts, which the transcript may say apart ("the back end").
	 */
	compounds: { key: string; parts: string[] }[];
	moods: Mood[];
	/** "only the funny moments": the mood filters; otherwise it only lifts matching moments. */
	onlyMood: boolean;
	/** "skip the arguing, not the budget": what pushes a passage away. */
	excluded: { terms: PromptTerm[]; moods: Mood[] };
	maxSeconds: number | null;
	minSeconds: number | null;
	skipIntro: boolean;
}

/** Words that ask rather than name: they never count as topic terms. */
const QUESTION_WORDS = new Set(
	"summarize summarise summary discuss discussed discussing discussion discussions talk talked talking conversation meeting part parts moment moments clip clips bit bits section segment portion what why how when where who whom whose which whether think thought opinion opinions view views say said mention mentioned according regarding concerning about describe described explain explained tell told find show give want please only just every any some the their them they find whole best good favorite favourite top most anything stuff things bits".split(
		" ",
	),
);
/** Who spoke, not what about: participants are not in the transcript's words. */
const PARTICIPANT_WORDS = new Set(
	"host hosts guest guests speaker speakers presenter interviewer interviewee moderator panelist panelists caller callers participant participants member members chair chairman chairwoman everyone someone people person group team".split(
		" ",
	),
);

const MOODS: [Mood, RegExp][] = [
	["funny", /\b(funn(y|iest)|hilarious|humou?r(ous)?|jokes?|joking|laugh(s|ing|ter)?|comed(y|ic)|lol)\b/i],
	["emotional", /\b(emotional|moving|touching|sad|heart(felt|warming|breaking)?|tears?|cr(y|ied|ying))\b/i],
	[
		"heated",
		/\b(heated|argu(e|ed|ing|ment|ments)|debate[sd]?|debating|disagree(ment|ments|s|d)?|fight(s|ing)?|clash(es)?|controvers(y|ial)|rant(s|ing)?|bicker(ing)?)\b/i,
	],
	["story", /\b(stor(y|ies)|anecdotes?)\b/i],
	["advice", /\b(advice|tips?|lessons?|how[- ]to|takeaways?)\b/i],
	["surprising", /\b(surpris(e|ing)|shocking|unexpected|revelations?|reveal)\b/i],
	[
		"decided",
		/\b(agree(d|ment|ments)?|decid(e|ed|ing)|decisions?|conclu(de|ded|sion|sions)|settled|verdict|resolved)\b/i,
	],
];

const NUMBER_WORDS: Record<string, number> = {
	a: 1,
	an: 1,
	one: 1,
	two: 2,
	three: 3,
	four: 4,
	five: 5,
	six: 6,
	seven: 7,
	eight: 8,
	nine: 9,
	ten: 10,
	eleven: 11,
	twelve: 12,
	fifteen: 15,
	twenty: 20,
	"twenty-five": 25,
	thirty: 30,
	forty: 40,
	"forty-five": 45,
	fifty: 50,
	sixty: 60,
	ninety: 90,
};
const QUANTITY =
	"(\\d+(?:\\.\\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty(?:-five)?|thirty|forty(?:-five)?|fifty|sixty|ninety)";
const UNIT = "(s\\b|secs?\\b|seconds?\\b|m\\b|mins?\\b|minutes?\\b|h\\b|hrs?\\b|hours?\\b)";
const quantity = (text: string) => Number(text) || NUMBER_WORDS[text.toLowerCase()] || null;
const toSeconds = (n: number, unit: string) => (/^h/i.test(unit) ? n * 3600 : /^m/i.test(unit) ? n * 60 : n);

/** Words that leave something out, and what follows them up to the end of the clause. */
const EXCLUSION =
	/(?:\b(?:skip(?:ping)?|without|except(?:\s+for)?|excluding|exclude|ignor(?:e|ing)|avoid(?:ing)?|minus|apart from|other than|leav(?:e|ing) out|(?:i\s+)?(?:don't|do not)\s+(?:want|need|include)(?:\s+to\s+see)?|nothing (?:about|on)|no more)|(?:^\s*|[,;]\s*|\b(?:but|and|just)\s+)(?:not|no))\s+((?:the|any|all|a|an|those|these|that|this)\s+)?([^,;.!?]*?)(?=\s*(?:[,;.!?]|\bbut\b|\bjust\b|\bonly\b|\binstead\b|\brather\b|$))/gi;

export function readPrompt(prompt: string): ReadPrompt {
	const speakers = possessorsOf(prompt);
	const rest = promptText(prompt);
	const { maxSeconds, minSeconds } = cutLengths(rest);
	const { place, skipIntro } = cutPlace(rest);
	const excludedText = cutExclusions(rest);
	const excludedMoods = MOODS.filter(([, re]) => excludedText.some((x) => re.test(x))).map(([mood]) => mood);

	const moods = MOODS.filter(([mood, re]) => re.test(rest.text) && !excludedMoods.includes(mood)).map(
		([mood]) => mood,
	);
	const onlyMood = moods.length > 0 && /\b(only|just|nothing but)\b/i.test(rest.text);
	for (const [, re] of MOODS) rest.text = rest.text.replace(new RegExp(re.source, "gi"), " ");
	rest.text = rest.text.replace(
		/\b(only|just|give me|show me|find|i want|clips? (about|of|on|where)|moments? (about|of|when|where))\b/gi,
		" ",
	);
	// "Grad A's take on X": the take is what was said, not its topic; who said it stays, weighed as a speaker.
	rest.text = rest.text.replace(SPEAKER_POSSESSIVE, (_said, who: string) => ` ${who}'s `);
	const { context, subjectWords } = cutContext(rest);
	for (const word of speakers) subjectWords.add(word);

	const terms: PromptTerm[] = [];
	const phrases: [string, string][] = [];
	const compounds: ReadPrompt["compounds"] = [];
	termsOf(rest.text, { weight: 1, isContext: false, subjectWords }, terms, phrases);
	termsOf(context, { weight: 0.5, isContext: true, subjectWords }, terms, phrases);
	const excludedTerms = excludedTermsOf(excludedText, subjectWords);
	addCompoundParts(terms, compounds, subjectWords);
	return {
		terms: terms.filter((t) => !excludedTerms.some((x) => x.stem === t.stem)),
		phrases,
		compounds,
		moods,
		onlyMood,
		excluded: { terms: excludedTerms, moods: excludedMoods },
		maxSeconds,
		minSeconds,
		skipIntro,
		...place,
	};
}

/** The terms of what the prompt leaves out, its moods taken away. */
function excludedTermsOf(excludedText: string[], subjectWords: Set<string>): PromptTerm[] {
	const excludedTerms: PromptTerm[] = [];
	for (const x of excludedText) {
		let left = x;
		for (const [, re] of MOODS) left = left.replace(new RegExp(re.source, "gi"), " ");
		termsOf(left, { weight: 1, isContext: false, subjectWords }, excludedTerms, null);
	}
	return excludedTerms;
}

/**
 * A hyphenated word is also its parts, weighed half: "the soil-moisture readings" finds talk of
 * the soil and its moisture when the compound itself is never said.
 */
function addCompoundParts(terms: PromptTerm[], compounds: ReadPrompt["compounds"], subjectWords: Set<string>): void {
	for (const term of [...terms]) {
		const key = compoundKey(term.word);
		if (key !== term.stem || compounds.some((c) => c.key === key)) continue;
		compounds.push({ key, parts: term.word.split("-") });
		termsOf(
			term.word.replace(/-/g, " "),
			{ weight: term.weight / 2, isContext: term.context, subjectWords },
			terms,
			null,
		);
	}
}

/** The prompt's text, padded with spaces, from which each reading cuts what it understood. */
interface PromptText {
	text: string;
	/** Applies `re`'s first match, if any, and removes it from the text. */
	cut(re: RegExp, apply: (m: RegExpMatchArray) => void): void;
}

function promptText(prompt: string): PromptText {
	const rest: PromptText = {
		text: ` ${prompt.replace(/\s+/g, " ").trim()} `,
		cut(re, apply) {
			const m = rest.text.match(re);
			if (m) {
				apply(m);
				rest.text = rest.text.replace(re, " ");
			}
		},
	};
	return rest;
}

const SPAN = `${QUANTITY}\\s*${UNIT}`;
/** The seconds of a match ending with a quantity and a unit (SPAN), or null. */
const secondsIn = (m: RegExpMatchArray) => toSeconds(quantity(m[m.length - 2]!) ?? 0, m[m.length - 1]!) || null;

/** "under 60 seconds", "at least 2 minutes": the clip length asked for. */
function cutLengths(prompt: PromptText): { maxSeconds: number | null; minSeconds: number | null } {
	let maxSeconds: number | null = null;
	let minSeconds: number | null = null;
	prompt.cut(
		new RegExp(
			`\\b(under|below|less than|shorter than|at most|max(imum)?|no (longer|more) than|up to)\\s+${SPAN}`,
			"i",
		),
		(m) => (maxSeconds = secondsIn(m)),
	);
	prompt.cut(
		new RegExp(`\\b(over|above|more than|longer than|at least|min(imum)?)\\s+${SPAN}`, "i"),
		(m) => (minSeconds = secondsIn(m)),
	);
	return { maxSeconds, minSeconds };
}

/** Where in the video: "in the first/last N minutes", "after minute N", "before minute N", halves, "after the intro". */
function cutPlace(prompt: PromptText): { place: Place; skipIntro: boolean } {
	const place: Place = {
		within: [0, 1],
		firstSeconds: null,
		lastSeconds: null,
		afterSeconds: null,
		beforeSeconds: null,
	};
	prompt.cut(
		new RegExp(`\\b(?:in|from|during|within|of)?\\s*(?:the\\s+)?(?:first|opening)\\s+${SPAN}`, "i"),
		(m) => (place.firstSeconds = secondsIn(m)),
	);
	prompt.cut(
		new RegExp(`\\b(?:in|from|during|within|of)?\\s*(?:the\\s+)?(?:last|final|closing)\\s+${SPAN}`, "i"),
		(m) => (place.lastSeconds = secondsIn(m)),
	);
	prompt.cut(
		new RegExp(`\\b(?:in|from|during|within|of)?\\s*the\\s+(?:first|opening)\\s+(minute|hour)\\b`, "i"),
		(m) => (place.firstSeconds = toSeconds(1, m[1]!)),
	);
	prompt.cut(
		new RegExp(`\\b(?:in|from|during|within|of)?\\s*the\\s+(?:last|final|closing)\\s+(minute|hour)\\b`, "i"),
		(m) => (place.lastSeconds = toSeconds(1, m[1]!)),
	);
	prompt.cut(
		new RegExp(
			`\\b(?:after|past|from)\\s+(?:the\\s+)?(?:first\\s+)?${SPAN}(?:\\s+mark)?(?:\\s+on(?:wards?)?)?`,
			"i",
		),
		(m) => (place.afterSeconds = secondsIn(m)),
	);
	prompt.cut(
		new RegExp(`\\b(?:after|past|from)\\s+(minute|hour)\\s+${QUANTITY}(?:\\s+on(?:wards?)?)?`, "i"),
		(m) => (place.afterSeconds = toSeconds(quantity(m[2]!) ?? 0, m[1]!)),
	);
	prompt.cut(
		new RegExp(`\\b(?:before|until|by)\\s+(minute|hour)\\s+${QUANTITY}`, "i"),
		(m) => (place.beforeSeconds = toSeconds(quantity(m[2]!) ?? 0, m[1]!)),
	);
	prompt.cut(
		new RegExp(`\\b(?:before|until|by)\\s+(?:the\\s+)?${SPAN}(?:\\s+mark)?`, "i"),
		(m) => (place.beforeSeconds = secondsIn(m)),
	);
	const { within, skipIntro } = cutPart(prompt);
	if (within) place.within = within;
	return { place, skipIntro };
}

/** Which part of the video: "after the intro", halves, thirds, "near the end", "the middle". */
function cutPart(prompt: PromptText): { within: [number, number] | null; skipIntro: boolean } {
	let within: [number, number] | null = null;
	let skipIntro = false;
	prompt.cut(
		/\b(skip|skipping|without|ignore|ignoring|not|no|after|past)\s+(the\s+)?(intro(duction)?s?|opening|small talk|greetings?|beginning|chit[- ]?chat|housekeeping)\b/i,
		() => (skipIntro = true),
	);
	prompt.cut(/\b(in|from|during|of)?\s*the\s+(first|opening)\s+half\b/i, () => (within = [0, 0.5]));
	prompt.cut(/\b(in|from|during|of)?\s*the\s+(second|last|final|latter)\s+half\b/i, () => (within = [0.5, 1]));
	prompt.cut(/\b(in|from|during|of)?\s*the\s+(first|opening)\s+third\b/i, () => (within = [0, 1 / 3]));
	prompt.cut(/\b(in|from|during|of)?\s*the\s+(last|final)\s+third\b/i, () => (within = [2 / 3, 1]));
	prompt.cut(
		/\b(at|near|towards?|by)\s+the\s+(very\s+)?(end|close)\b|\b(wrap[- ]?up|(closing|concluding|final|parting)\s+(remarks|comments|thoughts|words))\b/i,
		() => (within = [0.75, 1]),
	);
	prompt.cut(
		/\b(at|near|towards?)\s+the\s+(very\s+)?(start|beginning)\b|\b(opening|introductory)\s+(remarks|comments|words)\b/i,
		() => (within = [0, 0.25]),
	);
	prompt.cut(/\b(in\s+)?the\s+middle\b/i, () => (within = [0.25, 0.75]));
	return { within, skipIntro };
}

/** Nouns for what someone said: "the professor's comments", "Grad A's take". */
const SAID_NOUNS =
	"comments?|remarks?|thoughts?|opinions?|views?|take|ideas?|suggestions?|proposals?|points?|arguments?|concerns?|position|stance|feedback|presentation|explanation|questions?|answers?|response|reaction|updates?|contributions?|words";
/** A possessor before what was said, past one describing word ("the professor's concluding comments"). */
const SPEAKER_POSSESSIVE = new RegExp(
	`\\b((?:[a-z]+\\s+)?[a-z]+)['’]s\\s+(?:[a-z]+(?:ing|al|ed|ive|ary)\\s+)?(?:${SAID_NOUNS})\\b`,
	"gi",
);

/** The words of "X's comments" possessors, as said and with their "'s": who spoke, not the topic. */
function possessorsOf(prompt: string): string[] {
	return [...prompt.matchAll(SPEAKER_POSSESSIVE)]
		.flatMap((m) => m[1]!.toLowerCase().split(/\s+/))
		.flatMap((word) => [word, `${word}'s`]);
}

/** "skip the arguing", "not the budget", "without the ads": what follows is pushed away. */
function cutExclusions(prompt: PromptText): string[] {
	const excludedText: string[] = [];
	prompt.text = prompt.text.replace(EXCLUSION, (_whole, _determiner: string | undefined, what: string) => {
		excludedText.push(what);
		return " , ";
	});
	return excludedText;
}

/**
 * "… when discussing X": X places the passage; the rest is what to find in it. "What did
 * <subject> think/say …": the subject is who spoke, and weighs less as a term.
 */
function cutContext(prompt: PromptText): { context: string; subjectWords: Set<string> } {
	let context = "";
	const clause = prompt.text.match(
		/\b(?:when|while|during)\s+(?:(?:they|we|the group|the team|he|she|you|people)\s+)?(?:were\s+|was\s+)?(?:discuss(?:ing|ed)?|talk(?:ing|ed)?\s+about|it came to|deciding|considering|the discussion\s+(?:of|about|on))\s+(.*)$/i,
	);
	if (clause) {
		context = clause[1]!;
		prompt.text = prompt.text.slice(0, clause.index);
	}
	const subject = prompt.text.match(
		/^\s*(?:what|how|why|when)\s+(?:did|does|do|was|were|is|are|would|will)\s+(.+?)\s+(?:think|thought|say|said|suggest|propose|recommend|believe|feel|mention|argue|agree|disagree|explain|describe|present|report|want|prefer|like|share|introduce|discuss|talk|decide|conclude|express)\b/i,
	);
	const subjectWords = new Set((subject?.[1] ?? "").toLowerCase().split(/\s+/).map(normalise));
	return { context, subjectWords };
}

/** Adds the key words of `part` to `into` (once per stem), and adjacent pairs of full-weight words to `pairs`. */
function termsOf(
	part: string,
	as: { weight: number; isContext: boolean; subjectWords: Set<string> },
	into: PromptTerm[],
	pairs: [string, string][] | null,
): void {
	const { weight, isContext, subjectWords } = as;
	const words = part.split(/\s+/).filter(Boolean);
	const infos = analyseWords(words);
	let previous: string | null = null;
	infos.forEach((word) => {
		const info = { ...word, stem: matchStem(word) };
		const keep =
			isKey(info.norm) &&
			!STOP_WORDS.has(info.norm) &&
			!QUESTION_WORDS.has(info.norm) &&
			!PARTICIPANT_WORDS.has(info.norm);
		if (!keep) {
			previous = null;
			return;
		}
		const speaker = subjectWords.has(info.norm);
		const w = speaker ? weight * 0.3 : weight;
		if (!into.some((t) => t.stem === info.stem))
			into.push({
				stem: info.stem,
				word: info.norm,
				weight: w,
				context: isContext,
				...(speaker && { speaker: true }),
			});
		if (pairs && previous && !isContext && w === weight) pairs.push([previous, info.stem]);
		previous = w === weight ? info.stem : null;
	});
}
