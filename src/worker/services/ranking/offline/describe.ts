/**
 * Words for an offline clip: a title from its key phrase, a headline for its first seconds (never a
 * transcript prefix), a reason that says what happens in it, its hooks, the feelings it carries and
 * a post description. Built from what the ranker measured, so each claim is backed by the clip.
 */
import type { ClipHooks, ScoreBreakdown } from "../ranked-clip";
import { CONTRAST_WORD, NUMBER_WORD, QUESTION_OPENER, STRONG_CLAIM } from "../text/lexicon";
import type { Unit } from "../text/units";

export interface ClipWords {
	title: string;
	hookTitle: string;
	viralityReason: string;
	hooks: ClipHooks;
	emotions: string[];
	description: string;
}

const HEADLINE_CHARACTERS = 60;

/** The clip's most specific noun phrase ("uncle Ray's boat"), by IDF over the whole video. */
export function keyPhrases(units: Unit[], idf: Map<string, number>, count = 3): string[] {
	const scored = new Map<string, number>();
	for (const u of units) {
		let phrase: { norm: string; stem: string; pos: string }[] = [];
		const flush = () => {
			while (phrase.length && !["NOUN", "PROPN"].includes(phrase[phrase.length - 1]!.pos)) phrase.pop();
			if (phrase.length && phrase.some((w) => (idf.get(w.stem) ?? 0) > 0)) {
				const text = phrase.map((w) => u.words[u.tagged.indexOf(w)]?.word.replace(/[^\p{L}\p{N}'-]/gu, "") ?? w.norm).join(" ");
				const weight = phrase.reduce((s, w) => s + (idf.get(w.stem) ?? 0), 0) * (1 + 0.15 * (phrase.length - 1));
				scored.set(text, (scored.get(text) ?? 0) + weight);
			}
			phrase = [];
		};
		for (const w of u.tagged) {
			if ((w.pos === "ADJ" || w.pos === "NOUN" || w.pos === "PROPN") && w.norm.length > 1 && phrase.length < 4) phrase.push(w);
			else flush();
		}
		flush();
	}
	const ranked = [...scored].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
	const picked: string[] = [];
	for (const [text] of ranked) {
		if (picked.length >= count) break;
		if (!picked.some((p) => p.toLowerCase().includes(text.toLowerCase()) || text.toLowerCase().includes(p.toLowerCase()))) picked.push(text);
	}
	return picked;
}

export function describeClip(units: Unit[], breakdown: ScoreBreakdown, idf: Map<string, number>, prompt: { matched: string[]; text: string | null }): ClipWords {
	const phrases = keyPhrases(units, idf);
	const subject = phrases[0] ?? firstWords(units, 5);
	const kind = kindOf(breakdown, units);
	const hooks = hooksOf(units);
	const emotions = emotionsOf(units);
	const hookTitle = fit(headline(kind, subject, hooks), HEADLINE_CHARACTERS);
	const title = fit(capitalise(phrases.length > 1 ? `${phrases[0]} and ${phrases[1]}` : subject), 80);
	const tags = [...new Set(phrases.map((p) => p.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")).filter((t) => t.length > 2))].slice(0, 3);
	return {
		title,
		hookTitle,
		viralityReason: reasonOf(kind, breakdown, units, phrases, prompt),
		hooks,
		emotions,
		description: `${hookTitle}${/[.!?]$/.test(hookTitle) ? "" : "."} ${fit(units.find((u) => !u.backchannel)?.text ?? "", 120)} ${tags.map((t) => `#${t}`).join(" ")}`.trim(),
	};
}

type Kind = "story" | "question" | "take" | "funny" | "emotional" | "explanation";

function kindOf(b: ScoreBreakdown, units: Unit[]): Kind {
	if (units.some((u) => u.laughter)) return "funny";
	if (b.story >= 55) return "story";
	if (units[0]?.question || QUESTION_OPENER.test(units[0]?.text ?? "")) return "question";
	if (b.feeling >= 60) return "emotional";
	if (units.some((u) => u.secondPerson > 0) && units.some((u) => CONTRAST_WORD.test(u.text) || STRONG_CLAIM.test(u.text))) return "take";
	return "explanation";
}

function headline(kind: Kind, subject: string, hooks: ClipHooks): string {
	const s = subject;
	switch (kind) {
		case "story":
			return `What happened with ${s}`;
		case "funny":
			return `The ${s} moment`;
		case "question":
			return hooks.question && hooks.question.length <= HEADLINE_CHARACTERS ? hooks.question : `The real answer on ${s}`;
		case "emotional":
			return `Why ${s} still matters`;
		case "take":
			return `The truth about ${s}`;
		default:
			return `${capitalise(s)}, explained`;
	}
}

function hooksOf(units: Unit[]): ClipHooks {
	const opening = units.filter((u) => !u.backchannel && u.start - units[0]!.start < 15);
	const question = opening.find((u) => u.question)?.text ?? null;
	const first = opening[0];
	const cues = first ? [QUESTION_OPENER, NUMBER_WORD, CONTRAST_WORD, STRONG_CLAIM].filter((re) => re.test(first.text)).length : 0;
	const statement = first && !first.question && (cues > 0 || first.secondPerson > 0) ? first.text : null;
	return { question: question ? fit(question, 140) : null, statement: statement ? fit(statement, 140) : null };
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

function reasonOf(kind: Kind, b: ScoreBreakdown, units: Unit[], phrases: string[], prompt: { matched: string[]; text: string | null }): string {
	const parts: string[] = [];
	if (prompt.text && prompt.matched.length) parts.push(`Matches your prompt: it talks about ${prompt.matched.slice(0, 3).join(", ")}`);
	const what: Record<Kind, string> = {
		story: "A story told from start to finish",
		funny: "A funny exchange that gets a laugh",
		question: "A question raised and answered",
		emotional: "An emotional moment",
		take: "A strong take, argued with reasons",
		explanation: "A self-contained explanation",
	};
	const traits: string[] = [];
	if (b.detail >= 55) traits.push("concrete names and numbers");
	if (b.feeling >= 55) traits.push("emotional language");
	if (b.payoff >= 55) traits.push("an ending that lands");
	if (b.flow >= 70) traits.push("clean, uninterrupted delivery");
	if (b.energy !== null && b.energy >= 60) traits.push("a lift in vocal energy");
	parts.push(traits.length ? `${what[kind]}, with ${traits.slice(0, 3).join(", ")}` : what[kind]);
	const payoff = [...units].reverse().find((u) => u.payoff);
	if (payoff && kind !== "question") parts.push(`it ends on "${fit(payoff.text, 70)}"`);
	if (phrases.length) parts.push(`about ${phrases.slice(0, 2).join(" and ")}`);
	return `${parts.join("; ")}.`;
}

function firstWords(units: Unit[], count: number): string {
	const words = units.flatMap((u) => u.tagged).filter((w) => w.pos !== "PUNCT" && w.norm).map((w) => w.norm);
	return words.slice(0, count).join(" ") || "this moment";
}

export function fit(text: string, characters: number): string {
	const clean = text.replace(/\s+/g, " ").trim();
	if (clean.length <= characters) return clean;
	const cut = clean.slice(0, characters - 1);
	return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), characters / 2)).replace(/[,;:\s]+$/, "")}…`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
