/**
 * `npm run train:sentence-ends [-- --check]`: fits the model that finds sentence ends in talk with
 * no punctuation and no pauses (packages/moments/src/text/sentence-ends.ts) on the **dev**
 * material only, and writes it to sentence-end-model.ts. The talk is written text with its
 * punctuation taken away: every word followed by . ! ? and every change of speaker ends a sentence.
 *
 * Three families of talk, each a check on the others: the written talk episodes and both authors'
 * dev highlights, the written dev meetings, and QMSum train's dev series (real meetings, when a
 * local copy exists). It prints boundary precision, recall and F1 fitted on two families and read on
 * the third, beside cutting every n words (n the family's mean sentence length), then fits on all
 * of them. `--check` prints the cross-family table and writes nothing. `--extend PREFIX` keeps the
 * current model's weights, bias and bar, and fits only the features whose names start with PREFIX
 * (a new kind of evidence is added without moving any cut the old evidence alone made).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gapFeatures, gapTokens, sentenceStarts, type GapToken } from "@clipforge/moments/text/sentence-ends";
import { SENTENCE_END_MODEL } from "@clipforge/moments/text/sentence-end-model";
import type { SparseLogistic } from "@clipforge/moments/text/sparse-logistic";
import { loadQmsumTrain } from "./qmsum.ts";
import type { Turn } from "./turns-to-transcript.ts";

const { values } = parseArgs({
	options: { check: { type: "boolean", default: false }, extend: { type: "string" } },
});

/** One stretch of talk as words without punctuation, and where its sentences start. */
interface Passage {
	words: string[];
	starts: Set<number>;
}

/** Passages of about this many words: what one run-on segment holds. */
const PASSAGE_WORDS = 120;
const VOCABULARY_SIZE = 150;
const EPOCHS = 8;
const RATE = 0.05;
const L2 = 1e-5;

const CORPUS = join(import.meta.dirname, "corpus");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as unknown;

function families(): Record<string, Turn[][]> {
	const talkDir = join(CORPUS, "talk", "dev");
	const episodes = readdirSync(talkDir)
		.filter((f) => /^ep-\d+\.json$/.test(f))
		.map((f) => (readJson(join(talkDir, f)) as { turns: Turn[] }).turns);
	const highlights = ["highlights.json", "highlights-b.json"].flatMap((f) =>
		(readJson(join(talkDir, f)) as { turns: Turn[] }[]).map((h) => h.turns),
	);
	const meetingDir = join(CORPUS, "meetings", "dev");
	const meetings = readdirSync(meetingDir)
		.filter((f) => f.endsWith(".json"))
		.map((f) => (readJson(join(meetingDir, f)) as { turns: Turn[] }).turns);
	const qmsum = loadQmsumTrain("dev")?.map((m) => m.turns) ?? [];
	const all: Record<string, Turn[][]> = { talk: [...episodes, ...highlights], "written meetings": meetings };
	if (qmsum.length > 0) all["QMSum dev"] = qmsum;
	return all;
}

/** Turns as passages of words without punctuation, cut at sentence ends near every PASSAGE_WORDS. */
function passagesOf(documents: Turn[][]): Passage[] {
	const passages: Passage[] = [];
	for (const turns of documents) {
		let current: Passage = { words: [], starts: new Set() };
		for (const turn of turns) {
			const tokens = turn.text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
			tokens.forEach((token, k) => {
				if (k === 0 && current.words.length > 0) current.starts.add(current.words.length);
				current.words.push(token.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, ""));
				const ends = /[.!?]["')]*$/.test(token) || k === tokens.length - 1;
				if (ends && current.words.length >= PASSAGE_WORDS) {
					passages.push(current);
					current = { words: [], starts: new Set() };
				} else if (ends && k < tokens.length - 1) current.starts.add(current.words.length);
			});
		}
		if (current.words.length > 0) passages.push(current);
	}
	return passages;
}

interface Row {
	features: string[];
	label: number;
}

function rowsOf(passages: Passage[], tokens: GapToken[][], vocabulary: ReadonlySet<string>): Row[] {
	return passages.flatMap((p, n) =>
		p.words.slice(1).map((_, i) => ({
			features: gapFeatures(tokens[n]!, i + 1, vocabulary),
			label: p.starts.has(i + 1) ? 1 : 0,
		})),
	);
}

/**
 * Sparse logistic regression by stochastic gradient descent, in a fixed order (deterministic). From
 * `base`, when given, only the features named by `prefix` are fitted (its bias and weights stay).
 */
function fit(rows: Row[], base?: SparseLogistic, prefix = ""): { bias: number; weights: Record<string, number> } {
	const weights = new Map<string, number>(Object.entries(base?.weights ?? {}));
	const frozen = (f: string) => base !== undefined && !f.startsWith(prefix);
	let bias = base?.bias ?? 0;
	for (let epoch = 0; epoch < EPOCHS; epoch++) {
		const rate = RATE / (1 + epoch);
		for (let r = 0; r < rows.length; r++) {
			const row = rows[(r * 7919 + epoch * 104729) % rows.length]!;
			let z = bias;
			for (const f of row.features) z += weights.get(f) ?? 0;
			const g = 1 / (1 + Math.exp(-z)) - row.label;
			if (!base) bias -= rate * g;
			for (const f of row.features) {
				if (frozen(f)) continue;
				const w = weights.get(f) ?? 0;
				weights.set(f, w - rate * (g + L2 * w));
			}
		}
	}
	const rounded = [...weights].filter(([, w]) => Math.abs(w) >= 0.01).sort(([a], [b]) => a.localeCompare(b));
	return { bias: round(bias), weights: Object.fromEntries(rounded.map(([f, w]) => [f, round(w)])) };
}

interface Score {
	precision: number;
	recall: number;
	f1: number;
}

function score(passages: Passage[], starts: (p: Passage) => number[]): Score {
	let hit = 0;
	let predicted = 0;
	let truth = 0;
	for (const p of passages) {
		const found = starts(p);
		predicted += found.length;
		truth += p.starts.size;
		hit += found.filter((k) => p.starts.has(k)).length;
	}
	const precision = predicted ? hit / predicted : 0;
	const recall = truth ? hit / truth : 0;
	return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/**
 * The words that carry a feature of their own: the most frequent, and those most often opening or
 * closing a sentence ("anyway", "thanks"), so the words that mark an end are read as words.
 */
function vocabularyOf(passages: Passage[]): string[] {
	const counts = {
		all: new Map<string, number>(),
		first: new Map<string, number>(),
		last: new Map<string, number>(),
	};
	const add = (map: Map<string, number>, word: string | undefined) =>
		word !== undefined && map.set(word.toLowerCase(), (map.get(word.toLowerCase()) ?? 0) + 1);
	for (const p of passages) {
		p.words.forEach((w, k) => {
			add(counts.all, w);
			if (p.starts.has(k)) {
				add(counts.first, w);
				add(counts.last, p.words[k - 1]);
			}
		});
	}
	const top = (map: Map<string, number>, n: number) =>
		[...map]
			.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
			.slice(0, n)
			.map(([w]) => w);
	return [
		...new Set([...top(counts.all, VOCABULARY_SIZE), ...top(counts.first, 100), ...top(counts.last, 60)]),
	].sort();
}

/** The model fitted on these passages (or `base` extended on them), its bar chosen for the best F1 on them. */
function train(passages: Passage[], base?: SparseLogistic, prefix?: string): SparseLogistic {
	const vocabulary = base ? [...base.vocabulary] : vocabularyOf(passages);
	const tokens = passages.map((p) => gapTokens(p.words));
	const { bias, weights } = fit(rowsOf(passages, tokens, new Set(vocabulary)), base, prefix);
	if (base) return { bias, threshold: base.threshold, weights, vocabulary };
	let best = { threshold: 0, f1: -1 };
	for (let threshold = -2; threshold <= 2.001; threshold += 0.25) {
		const model = { bias, threshold, weights, vocabulary };
		const { f1 } = score(passages, (p) => sentenceStarts(p.words, model));
		if (f1 > best.f1) best = { threshold: round(threshold), f1 };
	}
	return { bias, threshold: best.threshold, weights, vocabulary };
}

/** Cutting every n words, n the passages' mean sentence length: what a model must beat. */
function everyNWords(passages: Passage[]): (p: Passage) => number[] {
	const sentences = passages.reduce((s, p) => s + p.starts.size + 1, 0);
	const n = Math.max(1, Math.round(passages.reduce((s, p) => s + p.words.length, 0) / sentences));
	return (p) => Array.from({ length: Math.floor((p.words.length - 1) / n) }, (_, k) => (k + 1) * n);
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const fmt = (s: Score) => `P ${s.precision.toFixed(2)} R ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)}`;

const byFamily = Object.fromEntries(Object.entries(families()).map(([name, docs]) => [name, passagesOf(docs)]));
const names = Object.keys(byFamily);
console.log(`Families: ${names.map((n) => `${n} (${byFamily[n]!.length} passages)`).join(", ")}`);
if (values.extend) extendModel(values.extend);
else fitAnew();

/** Fits on two families, reads the third, for each; then (unless --check) fits on all and writes the model. */
function fitAnew(): void {
	for (const held of names) {
		const model = train(names.filter((n) => n !== held).flatMap((n) => byFamily[n]!));
		const test = byFamily[held]!;
		console.log(
			`fitted without ${held}, read on it: ${fmt(score(test, (p) => sentenceStarts(p.words, model)))}  |  every n words: ${fmt(score(test, everyNWords(test)))}`,
		);
	}
	if (!values.check) write(train(names.flatMap((n) => byFamily[n]!)), "Fitted");
}

/** The current model with the features named by `prefix` fitted (the rest kept), read on each family beside it. */
function extendModel(prefix: string): void {
	const model = train(
		names.flatMap((n) => byFamily[n]!),
		SENTENCE_END_MODEL,
		prefix,
	);
	const fitted = Object.keys(model.weights).filter((f) => f.startsWith(prefix));
	console.log(`Fitted: ${fitted.map((f) => `${f} ${model.weights[f]}`).join(", ") || "nothing"}`);
	for (const name of names) {
		const read = (m: SparseLogistic) => fmt(score(byFamily[name]!, (p) => sentenceStarts(p.words, m)));
		console.log(`${name}: before ${read(SENTENCE_END_MODEL)}  |  extended ${read(model)}`);
	}
	if (!values.check) write(model, `Extended (${fitted.join(", ")} fitted, the rest kept)`);
}

function write(model: SparseLogistic, how: string): void {
	const file = join(import.meta.dirname, "../../packages/moments/src/text/sentence-end-model.ts");
	writeFileSync(
		file,
		`/**\n * Generated by \`npm run train:sentence-ends\` (tools/quality/train-sentence-ends.ts); do not edit by hand.\n * ${how} on the dev material only (${names.join(", ")}), punctuation taken away.\n */\nimport type { SparseLogistic } from "./sparse-logistic.ts";\n\nexport const SENTENCE_END_MODEL: SparseLogistic = ${JSON.stringify(model, null, "\t")};\n`,
	);
	console.log(`Wrote ${file} (${Object.keys(model.weights).length} weights, bar ${model.threshold}).`);
}
