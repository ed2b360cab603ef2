/**
 * Reads the transcript sentence by sentence with the three fitted models (moment-model.ts): how
 * likely each sentence belongs to a moment an editor would cut, and how likely a moment starts or
 * ends at it. A passage's worth is then a sum over its sentences, so its edges fall where the talk
 * changes, not at a fixed length.
 */
import { continuityCurve, idfOf } from "../text/cohesion";
import type { Unit } from "../text/units";
import { logit, sigmoid } from "./logistic";
import { END_MODEL, MOMENT_MODEL, START_MODEL } from "./moment-model";
import { EDGE_BLOCK_SECONDS, endInput, momentInput, startInput, unitVectors, type UnitVector } from "./unit-features";

export interface MomentReading {
	units: Unit[];
	vectors: UnitVector[];
	idf: Map<string, number>;
	/** Lexical continuity across the gap after each unit (20 s blocks). */
	continuity: number[];
	/** P(unit belongs to a clip-worthy moment). */
	moment: number[];
	/** Logits of a moment starting / ending at each unit. */
	startLogit: number[];
	endLogit: number[];
}

/** Logits taken from a moment starting or ending on a sentence of chatter, greetings or logistics. */
const CHATTER_EDGE = 3;
/** Logits added to a moment ending just before "anyway", "so yeah", "moving on". */
const RETURN_END = 2;

export function readMoments(units: Unit[]): MomentReading {
	const idf = idfOf(units);
	const vectors = unitVectors(units, idf);
	const continuity = continuityCurve(units, idf, EDGE_BLOCK_SECONDS);
	return {
		units,
		vectors,
		idf,
		continuity,
		moment: units.map((_, k) => sigmoid(logit(MOMENT_MODEL, momentInput(units, vectors, k)))),
		// Housekeeping is never where a moment starts or ends ("welcome back", "the newsletter goes out on Friday").
		startLogit: units.map(
			(u, k) =>
				logit(START_MODEL, startInput(units, vectors, continuity, k)) - CHATTER_EDGE * Math.min(1, u.chatter),
		),
		// "Anyway, …" after a sentence says the moment before it is over.
		endLogit: units.map(
			(u, k) =>
				logit(END_MODEL, endInput(units, vectors, continuity, k)) -
				CHATTER_EDGE * Math.min(1, u.chatter) +
				(units[k + 1]?.returnMarker ? RETURN_END : 0),
		),
	};
}
