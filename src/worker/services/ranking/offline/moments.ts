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
import { EDGE_BLOCK_SECONDS, endInput, momentInput, startInput, unitVector, type UnitVector } from "./unit-features";

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

export function readMoments(units: Unit[]): MomentReading {
	const idf = idfOf(units);
	const vectors = units.map((u) => unitVector(u, idf));
	const continuity = continuityCurve(units, idf, EDGE_BLOCK_SECONDS);
	return {
		units,
		vectors,
		idf,
		continuity,
		moment: units.map((_, k) => sigmoid(logit(MOMENT_MODEL, momentInput(units, vectors, k)))),
		startLogit: units.map((_, k) => logit(START_MODEL, startInput(units, vectors, continuity, k))),
		endLogit: units.map((_, k) => logit(END_MODEL, endInput(units, vectors, continuity, k))),
	};
}
