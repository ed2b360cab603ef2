/**
 * The feelings a clip carries, named from its words, its laughter and its valence.
 */
import type { Unit } from "../../../text/units.ts";

const EMOTION_WORDS: [string, RegExp][] = [
	["surprise", /\b(surpris\w*|shock\w*|unbelievable|no way|wow|turns? out|realized)\b/i],
	["sadness", /\b(sad|cried|cry|tears|miss(ed)?|lost|died|grief|lonely)\b/i],
	["anger", /\b(angry|furious|mad|hate|unfair|ridiculous|outrage\w*)\b/i],
	["fear", /\b(scared|terrified|afraid|panic\w*|nervous)\b/i],
];

export function emotionsOf(units: Unit[]): string[] {
	const text = units.map((u) => u.text).join(" ");
	const valence = units.reduce((s, u) => s + u.valence, 0);
	const emotions: string[] = [];
	if (units.some((u) => u.laughter) || /\b(funny|hilarious|joke|kidding)\b/i.test(text)) emotions.push("humor");
	if (valence >= 4) emotions.push("joy");
	for (const [name, re] of EMOTION_WORDS) if (re.test(text)) emotions.push(name);
	if (emotions.length === 0) emotions.push(valence <= -3 ? "tension" : "curiosity");
	return emotions.slice(0, 3);
}
