/**
 * `npm run train:ranker`: fits the offline ranker's four small logistic models (is this sentence
 * part of a moment; does a moment start here; does it end here; is it part of a discussion people
 * asked about afterwards) on the **dev** splits only, and writes them to
 * packages/moments/src/ranking/offline/moment-model.ts. The test splits and QMSum's held-out series
 * are never read here.
 *
 * Training data: the dev split of the written talk corpus with its highlights planted, in the three
 * transcript styles (punctuated, Whisper without fillers, plain; the start and end models also plain
 * spoken without pauses, EDGE_STYLES), each planted clean (as written)
 * and rough (as disfluent as the talk around them, so fluency is not what the models learn), and,
 * when a local copy of QMSum is present, the same dev highlights planted into real meetings from
 * QMSum's train split (its `dev` series), so the models also see real, unwritten conversation.
 *
 * The substance model reads, without any planting, QMSum's dev meetings: a sentence inside a
 * passage that answers one of the meeting's specific questions (contentOf: what people asked about
 * afterwards) against the rest, from the discussion around it (discussion-features.ts). It needs the
 * local copy of QMSum; without one the run stops rather than write models fitted on less.
 *
 * The start and end models learn to tell the true edge from the sentences near it (within 30 s
 * before and 20 s after), with a sample of the rest for calibration: where exactly a moment starts
 * is what they are for, and the far-away talk is easy.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { continuityCurve, idfOf } from "@clipforge/moments/text/cohesion";
import { unitsOf } from "@clipforge/moments/text/units";
import {
	EDGE_BLOCK_SECONDS,
	END_EXTRAS,
	endInput,
	MOMENT_INPUTS,
	momentInput,
	SIDE_FEATURES,
	START_EXTRAS,
	startInput,
	unitVectors,
} from "@clipforge/moments/ranking/offline/unit-features";
import type { LogisticModel } from "@clipforge/moments/ranking/offline/logistic";
import { SUBSTANCE_INPUTS, substanceInputs } from "@clipforge/moments/ranking/offline/discussion-features";
import { contentOf, type PromptItem } from "./evaluate.ts";
import { fitLogistic } from "./fit-logistic.ts";
import { buildQmsumCorpus } from "./prompt-corpus.ts";
import {
	buildRealFillerCorpus,
	buildTalkCorpus,
	type HighlightSet,
	type Planting,
	type TalkItem,
} from "./talk-corpus.ts";
import type { TranscriptStyle } from "./turns-to-transcript.ts";

/** The shapes the moment model reads (what a moment is does not depend on pauses). */
const STYLES: TranscriptStyle[] = ["punctuated", "whisper", "plain"];
/**
 * The start and end models also read talk spoken without pauses, where edges are hardest (a fast
 * talker, a music bed). Fitting the moment model on that shape too read some advice and a show's
 * opening line as hardly a moment (a Gaming video's loud stretch then lost its clip), so it is not.
 */
const EDGE_STYLES: TranscriptStyle[] = [...STYLES, "continuous"];

/**
 * The first author's dev highlights by default: set `b` stays a check of how a model fitted on `a`
 * reads another author (`npm run bench:quality -- --highlights b`). `--sets b` fits on the second
 * author alone and `--no-meetings` leaves out the highlights planted into real meetings: the
 * cross-validation by family of docs/ranking-experiments.md (fit on some families, read another on
 * dev; never committed models).
 */
export function trainingItems(
	sets: HighlightSet[] = ["a"],
	meetings = true,
	styles = STYLES,
): { items: TalkItem[]; realFiller: boolean } {
	const items: TalkItem[] = [];
	let realFiller = false;
	for (const set of sets) {
		for (const planting of ["clean", "rough"] as Planting[]) {
			for (const style of styles) {
				items.push(...buildTalkCorpus("dev", style, undefined, planting, set));
				const real = meetings ? buildRealFillerCorpus("dev", style, undefined, planting, set) : null;
				if (real) {
					items.push(...real);
					realFiller = true;
				}
			}
		}
	}
	return { items, realFiller };
}

export function fitModels(items: TalkItem[]): { moment: LogisticModel; start: LogisticModel; end: LogisticModel } {
	const rows = { moment: [] as number[][], start: [] as number[][], end: [] as number[][] };
	const labels = { moment: [] as number[], start: [] as number[], end: [] as number[] };
	for (const item of items) {
		const units = unitsOf(item.transcript);
		const idf = idfOf(units);
		const vectors = unitVectors(units, idf);
		const continuity = continuityCurve(units, idf, EDGE_BLOCK_SECONDS);
		units.forEach((u, k) => {
			const mid = (u.start + u.end) / 2;
			rows.moment.push(momentInput(units, vectors, k));
			labels.moment.push(item.highlights.some((h) => mid >= h.start && mid <= h.end) ? 1 : 0);
			// Edges: every sentence near a true edge, one in five elsewhere.
			const nearStart = item.highlights.some((h) => u.start >= h.start - 30 && u.start <= h.start + 20);
			if (nearStart || k % 5 === 0) {
				rows.start.push(startInput(units, vectors, continuity, k));
				labels.start.push(item.highlights.some((h) => Math.abs(u.start - h.start) < 0.05) ? 1 : 0);
			}
			const nearEnd = item.highlights.some((h) => u.end >= h.end - 20 && u.end <= h.end + 30);
			if (nearEnd || k % 5 === 0) {
				rows.end.push(endInput(units, vectors, continuity, k));
				labels.end.push(item.highlights.some((h) => Math.abs(u.end - h.end) < 0.6 && mid < h.end) ? 1 : 0);
			}
		});
	}
	const side = (prefix: string) => SIDE_FEATURES.map((f) => `${prefix}${f}`);
	return {
		moment: fitLogistic(MOMENT_INPUTS, rows.moment, labels.moment),
		start: fitLogistic([...side("change:"), ...START_EXTRAS], rows.start, labels.start, { l2: 1e-2 }),
		end: fitLogistic([...side("change:"), ...END_EXTRAS], rows.end, labels.end, { l2: 1e-2 }),
	};
}

/** The substance model: is a sentence of a real meeting inside what people asked about afterwards. */
export function fitSubstance(meetings: PromptItem[]): LogisticModel {
	const rows: number[][] = [];
	const labels: number[] = [];
	for (const meeting of meetings) {
		const asked = contentOf(meeting);
		if (asked.length === 0) continue;
		const units = unitsOf(meeting.transcript);
		const inputs = substanceInputs(units, unitVectors(units, idfOf(units)));
		units.forEach((u, k) => {
			const mid = (u.start + u.end) / 2;
			rows.push(inputs[k]!);
			labels.push(asked.some((a) => mid >= a.start && mid <= a.end) ? 1 : 0);
		});
	}
	return fitLogistic(SUBSTANCE_INPUTS, rows, labels, { l2: 1e-2 });
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;
const literal = (m: LogisticModel) =>
	`{\n\tfeatures: ${JSON.stringify(m.features)},\n\tmean: ${JSON.stringify(m.mean.map(round))},\n\tscale: ${JSON.stringify(m.scale.map(round))},\n\tweights: ${JSON.stringify(m.weights.map(round))},\n\tbias: ${round(m.bias)},\n}`;

if (process.argv[1]?.endsWith("train-ranker.ts")) {
	const started = Date.now();
	const meetings = buildQmsumCorpus("dev");
	if (!meetings) {
		console.error(
			"The substance model is fitted on QMSum's dev meetings: no local copy (see tools/quality/qmsum.ts).",
		);
		process.exit(1);
	}
	const { values } = parseArgs({ options: { sets: { type: "string" }, "no-meetings": { type: "boolean" } } });
	const sets = (values.sets ?? "a").split(",") as HighlightSet[];
	const { items, realFiller } = trainingItems(sets, !values["no-meetings"]);
	const edges = fitModels(trainingItems(sets, !values["no-meetings"], EDGE_STYLES).items);
	const models = {
		moment: fitModels(items).moment,
		start: edges.start,
		end: edges.end,
		substance: fitSubstance(meetings),
	};
	const target = join(import.meta.dirname, "../../packages/moments/src/ranking/offline/moment-model.ts");
	writeFileSync(
		target,
		`/**\n * Generated by \`npm run train:ranker\` (tools/quality/train-ranker.ts); do not edit by hand.\n * Fitted on the dev splits only: the written talk corpus (${STYLES.join(", ")}; edges also ${EDGE_STYLES.filter((x) => !STYLES.includes(x)).join(", ")}; highlight set ${sets.join(" + ")})${realFiller ? " and its highlights planted into QMSum train-dev meetings" : ""}.\n */\nimport type { LogisticModel } from "./logistic.ts";\n\nexport const MOMENT_MODEL: LogisticModel = ${literal(models.moment)};\n\nexport const START_MODEL: LogisticModel = ${literal(models.start)};\n\nexport const END_MODEL: LogisticModel = ${literal(models.end)};\n\n/** Fitted on QMSum's dev meetings as they are: inside a passage people asked about, or not. */\nexport const SUBSTANCE_MODEL: LogisticModel = ${literal(models.substance)};\n`,
	);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(`${items.length} transcripts and ${meetings.length} meetings, ${seconds} s → ${target}`);
}
