/**
 * A custom prompt read as a person means it: the topic or question ("why did they pick the menu
 * design?"), a mood ("only the funny moments"), and constraints on length and place ("under 30 s",
 * "skip the intro", "in the last ten minutes"). Plain patterns over English; whatever is not an
 * instruction is the topic, which keeps every unknown prompt useful.
 */
import { STOP_WORDS } from "../text/lexicon";
import { analyseWords, normalise } from "../text/nlp";

export type Mood = "funny" | "emotional" | "heated" | "story" | "advice" | "surprising";

export interface PromptTerm {
	stem: string;
	word: string;
	/** 1 for the topic, less for the context clause or the question's subject (who spoke). */
	weight: number;
	/** Only in "when discussing X" clauses: locates the passage rather than the answer. */
	context: boolean;
}

export interface ReadPrompt {
	terms: PromptTerm[];
	/** Adjacent topic stems ("energy source"), matched as phrases. */
	phrases: [string, string][];
	moods: Mood[];
	/** "only the funny moments": the mood filters; otherwise it only lifts matching moments. */
	onlyMood: boolean;
	maxSeconds: number | null;
	minSeconds: number | null;
	/** Fractions of the time frame to search: [0, 1] unless the prompt says where. */
	within: [number, number];
	skipIntro: boolean;
}

/** Words that ask rather than name: they never count as topic terms. */
const QUESTION_WORDS = new Set(
	"summarize summarise summary discuss discussed discussing discussion discussions talk talked talking conversation meeting part parts moment moments clip clips bit bits section segment portion what why how when where who whom whose which whether think thought opinion opinions view views say said mention mentioned according regarding concerning about describe described explain explained tell told find show give want please only just every any some the their them they find".split(
		" ",
	),
);
/** Who spoke, not what about: participants are not in the transcript's words. */
const PARTICIPANT_WORDS = new Set("host hosts guest guests speaker speakers presenter interviewer interviewee moderator panelist panelists caller callers participant participants member members chair chairman chairwoman everyone someone people person group team".split(" "));

const MOODS: [Mood, RegExp][] = [
	["funny", /\b(funn(y|iest)|hilarious|humou?r(ous)?|jokes?|joking|laugh(s|ing|ter)?|comed(y|ic)|lol)\b/i],
	["emotional", /\b(emotional|moving|touching|sad|heart(felt|warming|breaking)?|tears?|cr(y|ied|ying))\b/i],
	["heated", /\b(heated|argu(e|ing|ment|ments)|debate[sd]?|disagree(ment|s)?|fight(s|ing)?|clash(es)?|controvers(y|ial)|rant)\b/i],
	["story", /\b(stor(y|ies)|anecdotes?)\b/i],
	["advice", /\b(advice|tips?|lessons?|how[- ]to|takeaways?)\b/i],
	["surprising", /\b(surpris(e|ing)|shocking|unexpected|revelations?|reveal)\b/i],
];

const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, ten: 10, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, ninety: 90 };
const quantity = (text: string) => Number(text) || NUMBER_WORDS[text.toLowerCase()] || null;
const toSeconds = (n: number, unit: string) => (/^m/i.test(unit) ? n * 60 : n);

export function readPrompt(prompt: string): ReadPrompt {
	let text = ` ${prompt.replace(/\s+/g, " ").trim()} `;
	let maxSeconds: number | null = null;
	let minSeconds: number | null = null;
	let within: [number, number] = [0, 1];
	let skipIntro = false;
	const cut = (re: RegExp, apply: (m: RegExpMatchArray) => void) => {
		const m = text.match(re);
		if (m) {
			apply(m);
			text = text.replace(re, " ");
		}
	};
	const span = "(\\d+|an?|one|two|three|four|five|ten|fifteen|twenty|thirty|forty|fifty|sixty|ninety)\\s*(s\\b|secs?\\b|seconds?\\b|m\\b|mins?\\b|minutes?\\b)";
	cut(new RegExp(`\\b(under|below|less than|shorter than|at most|max(imum)?|no (longer|more) than|up to)\\s+${span}`, "i"), (m) => (maxSeconds = toSeconds(quantity(m[m.length - 2]!) ?? 0, m[m.length - 1]!) || null));
	cut(new RegExp(`\\b(over|above|more than|longer than|at least|min(imum)?)\\s+${span}`, "i"), (m) => (minSeconds = toSeconds(quantity(m[m.length - 2]!) ?? 0, m[m.length - 1]!) || null));
	cut(/\b(skip|without|ignore|not|no)\s+(the\s+)?(intro(duction)?|opening|small talk|greetings?|beginning)\b/i, () => (skipIntro = true));
	cut(/\b(in|from|during)\s+the\s+(first|opening)\s+half\b/i, () => (within = [0, 0.5]));
	cut(/\b(in|from|during)\s+the\s+(second|last|final)\s+half\b/i, () => (within = [0.5, 1]));
	cut(/\b(at|near|towards?)\s+the\s+(end|close)\b|\b(wrap[- ]?up|closing remarks)\b/i, () => (within = [0.75, 1]));
	cut(/\b(at|near)\s+the\s+(start|beginning)\b/i, () => (within = [0, 0.25]));
	const moods = MOODS.filter(([, re]) => re.test(text)).map(([mood]) => mood);
	const onlyMood = moods.length > 0 && /\b(only|just|nothing but)\b/i.test(text);
	for (const [, re] of MOODS) text = text.replace(new RegExp(re.source, "gi"), " ");
	text = text.replace(/\b(only|just|give me|show me|find|i want|clips? (about|of|on|where)|moments? (about|of|when|where))\b/gi, " ");

	// "… when discussing X": X places the passage; the rest is what to find in it.
	let context = "";
	const clause = text.match(/\b(?:when|while|during)\s+(?:(?:they|we|the group|the team|he|she|you|people)\s+)?(?:were\s+|was\s+)?(?:discuss(?:ing|ed)?|talk(?:ing|ed)?\s+about|it came to|deciding|considering|the discussion\s+(?:of|about|on))\s+(.*)$/i);
	if (clause) {
		context = clause[1]!;
		text = text.slice(0, clause.index);
	}
	// "What did <subject> think/say …": the subject is who spoke.
	const subject = text.match(/^\s*(?:what|how|why|when)\s+(?:did|does|do|was|were|is|are|would|will)\s+(.+?)\s+(?:think|thought|say|said|suggest|propose|recommend|believe|feel|mention|argue|agree|disagree|explain|describe|present|report|want|prefer|like|share|introduce|discuss|talk|decide|conclude|express)\b/i);
	const subjectWords = new Set((subject?.[1] ?? "").toLowerCase().split(/\s+/).map(normalise));

	const terms: PromptTerm[] = [];
	const phrases: [string, string][] = [];
	const add = (part: string, weight: number, isContext: boolean) => {
		const words = part.split(/\s+/).filter(Boolean);
		const infos = analyseWords(words);
		let previous: string | null = null;
		infos.forEach((info) => {
			const keep = info.norm.length > 1 && !STOP_WORDS.has(info.norm) && !QUESTION_WORDS.has(info.norm) && !PARTICIPANT_WORDS.has(info.norm);
			if (!keep) {
				previous = null;
				return;
			}
			const w = subjectWords.has(info.norm) ? weight * 0.3 : weight;
			if (!terms.some((t) => t.stem === info.stem)) terms.push({ stem: info.stem, word: info.norm, weight: w, context: isContext });
			if (previous && !isContext && w === weight) phrases.push([previous, info.stem]);
			previous = w === weight ? info.stem : null;
		});
	};
	add(text, 1, false);
	add(context, 0.5, true);
	return { terms, phrases, moods, onlyMood, maxSeconds, minSeconds, within, skipIntro };
}
