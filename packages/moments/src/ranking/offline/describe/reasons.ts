/**
 * Why a clip works, in a sentence (`viralityReason`): what kind of moment it is, what carries it,
 * what it ends on and what holds its score down.
 */
import type { ScoreBreakdown } from "../../ranked-clip.ts";
import { CONTRAST_WORD, QUESTION_OPENER, STRONG_CLAIM } from "../../../text/lexicon.ts";
import type { Unit } from "../../../text/units.ts";
import { quoted } from "../../../text/quoted.ts";
import { fit } from "../../../text/fit.ts";

type Kind = "story" | "question" | "take" | "funny" | "emotional" | "explanation" | "decision";

export function kindOf(b: ScoreBreakdown, units: Unit[]): Kind {
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

export function reasonOf(
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
