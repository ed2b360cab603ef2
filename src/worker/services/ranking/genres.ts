/**
 * How much each feature counts per genre, and a guess of the genre for `Auto` from the words used.
 * A gaming stream lives on energy and reactions; a lecture on dense, complete explanations.
 */
import type { GENRES } from "../../domain/video-config";
import { tokens } from "./features";

export type Genre = (typeof GENRES)[number];
export type ConcreteGenre = Exclude<Genre, "Auto">;

export interface Weights {
	hook: number;
	emotion: number;
	salience: number;
	pace: number;
	completeness: number;
	energy: number;
}

export const GENRE_WEIGHTS: Record<ConcreteGenre, Weights> = {
	Podcast: { hook: 0.25, emotion: 0.15, salience: 0.17, pace: 0.06, completeness: 0.25, energy: 0.12 },
	Gaming: { hook: 0.14, emotion: 0.22, salience: 0.05, pace: 0.07, completeness: 0.2, energy: 0.32 },
	Education: { hook: 0.18, emotion: 0.05, salience: 0.3, pace: 0.07, completeness: 0.35, energy: 0.05 },
	Entertainment: { hook: 0.23, emotion: 0.22, salience: 0.07, pace: 0.08, completeness: 0.22, energy: 0.18 },
};

const CUES: Record<ConcreteGenre, Set<string>> = {
	Podcast: new Set("guest episode show podcast interview listen listeners conversation story talk talking welcome today".split(" ")),
	Gaming: new Set("game games level boss play playing player players kill killed squad stream chat loot match ranked respawn clutch gg".split(" ")),
	Education: new Set("learn learning explain example formula concept study lesson step steps theory equation understand definition chapter students".split(" ")),
	Entertainment: new Set("funny laugh laughing crazy prank challenge react reaction hilarious joke insane wild".split(" ")),
};

/** The genre whose cue words are most frequent; Podcast (talk) when nothing stands out. */
export function inferGenre(text: string): ConcreteGenre {
	const counts = new Map<ConcreteGenre, number>();
	for (const t of tokens(text)) {
		for (const genre of Object.keys(CUES) as ConcreteGenre[]) if (CUES[genre].has(t)) counts.set(genre, (counts.get(genre) ?? 0) + 1);
	}
	const ranked = [...counts].sort((a, b) => b[1] - a[1]);
	const [best, second] = ranked;
	if (!best || best[1] < 3 || (second && best[1] < second[1] * 1.3)) return "Podcast";
	return best[0];
}
