/**
 * Reads the transcript sentence by sentence with the four fitted models (moment-model.ts): how
 * likely each sentence belongs to a moment an editor would cut, how likely it lies in a discussion
 * people would ask about afterwards, and how likely a moment starts or ends at it. A passage's
 * worth is then a sum over its sentences, so its edges fall where the talk changes, not at a fixed
 * length.
 */
import { continuityCurve, idfOf } from "../../text/cohesion.ts";
import { chatterOf, type Unit } from "../../text/units.ts";
import { logit, sigmoid } from "./logistic.ts";
import { substanceInputs } from "./discussion-features.ts";
import { END_MODEL, MOMENT_MODEL, START_MODEL, SUBSTANCE_MODEL } from "./moment-model.ts";
import {
	EDGE_BLOCK_SECONDS,
	endInput,
	momentInput,
	startInput,
	unitVectors,
	type UnitVector,
} from "./unit-features.ts";

export interface MomentReading {
	units: Unit[];
	vectors: UnitVector[];
	idf: Map<string, number>;
	/** Lexical continuity across the gap after each unit (20 s blocks). */
	continuity: number[];
	/** P(unit belongs to a clip-worthy moment). */
	moment: number[];
	/** P(unit lies in a discussion people would ask about afterwards): decisions, explanations, options weighed. */
	substance: number[];
	/**
	 * What a sentence is worth to a clip: its moment reading, and where that is not a moment, the
	 * substance of the discussion around it (a strong moment speaks for itself; in ordinary talk,
	 * what carries content beats chatter and anecdotes).
	 */
	worth: number[];
	/** Logits of a moment starting / ending at each unit. */
	startLogit: number[];
	endLogit: number[];
}

/** Logits taken from a moment starting or ending on a sentence of chatter, greetings or logistics. */
const CHATTER_EDGE = 3;
/** Logits added to a moment ending just before "anyway", "so yeah", "moving on". */
const RETURN_END = 2;

/**
 * How far the substance of ordinary talk moves its worth, per unit of substance above or below
 * even, and at most (a soft cap): enough to reorder ordinary talk, never to lift it to a moment's
 * level (planted or real stories read p ≈ 0.95, meeting talk rarely above 0.6).
 */
export const SUBSTANCE_WEIGHT = 4;
export const SUBSTANCE_MOST = 0.3;

/** What a sentence's substance adds to its worth where it is not a moment. */
export const substanceLift = (substance: number) =>
	SUBSTANCE_MOST * Math.tanh((SUBSTANCE_WEIGHT * (substance - 0.5)) / SUBSTANCE_MOST);

export function readMoments(units: Unit[]): MomentReading {
	const idf = idfOf(units);
	const vectors = unitVectors(units, idf);
	const continuity = continuityCurve(units, idf, EDGE_BLOCK_SECONDS);
	const moment = units.map((_, k) => sigmoid(logit(MOMENT_MODEL, momentInput(units, vectors, k))));
	const substance = substanceInputs(units, vectors).map((input) => sigmoid(logit(SUBSTANCE_MODEL, input)));
	return {
		units,
		vectors,
		idf,
		continuity,
		moment,
		substance,
		worth: moment.map((p, k) => p + (1 - p) * substanceLift(substance[k]!)),
		// Housekeeping is never where a moment starts or ends ("welcome back", "the newsletter goes out on Friday").
		startLogit: units.map(
			(u, k) => logit(START_MODEL, startInput(units, vectors, continuity, k)) - CHATTER_EDGE * chatterOf(u),
		),
		// "Anyway, …" after a sentence says the moment before it is over.
		endLogit: units.map(
			(u, k) =>
				logit(END_MODEL, endInput(units, vectors, continuity, k)) -
				CHATTER_EDGE * chatterOf(u) +
				(units[k + 1]?.returnMarker ? RETURN_END : 0),
		),
	};
}
