/** The bench's headline numbers as a few plain lines, each system beside its baselines. */
type Scores = Record<string, Record<string, number | null> | undefined>;

const fmt = (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : "-");

export function summaryLines(result: Record<string, unknown>): string[] {
	return [
		...highlightLines(result),
		...promptLines(result),
		...substanceLines(result),
		...structureLines(result),
		...chapterLines(result),
		...(result.speed ? [`speed ${JSON.stringify(result.speed)}`] : []),
	];
}

/** Each benchmark of a section: its line, or that it was skipped. */
function section(
	result: Record<string, unknown>,
	key: string,
	label: string,
	line: (name: string, systems: Scores) => string,
): string[] {
	const entries = Object.entries((result[key] ?? {}) as Record<string, Scores | { skipped: string }>);
	return entries.map(([name, systems]) =>
		"skipped" in systems ? `${label} ${name}: skipped` : line(name, systems as Scores),
	);
}

const highlightLines = (result: Record<string, unknown>) =>
	section(result, "highlights", "highlights", (name, s) => {
		const o = s.clipforgeOffline!;
		const fitting = (o as unknown as { fitting?: Record<string, number | null> }).fitting;
		return (
			`highlights ${name.padEnd(22)} recall@5 ${fmt(o.recallAt5)} (fluency ${fmt(s.fluencyWindows?.recallAt5)}, random ${fmt(s.randomWindows?.recallAt5)})  start err ${fmt(o.startErrorSeconds)} s (bias ${fmt(o.startBiasSeconds)})  end err ${fmt(o.endErrorSeconds)} s (bias ${fmt(o.endBiasSeconds)})  clips ${fmt(o.clipSeconds)} s vs ${fmt(o.highlightSeconds)} s` +
			(fitting
				? `  (highlights that fit: start ${fmt(fitting.startErrorSeconds)} s, end ${fmt(fitting.endErrorSeconds)} s; ${fmt(fitting.longerThanMax)} longer than the maximum)`
				: "")
		);
	});

const promptLines = (result: Record<string, unknown>) =>
	section(result, "prompts", "prompts", (name, s) => {
		const pair = (x: Scores[string]) => `${fmt(x?.hitAt1)}/${fmt(x?.hitAt3)}`;
		return `prompts ${name.padEnd(20)} hit@1/@3 ${pair(s.clipforgeOffline)} (BM25 matched ${pair(s.bm25MatchedLengths)}, BM25 60 s ${pair(s.bm25Windows60s)}, random ${pair(s.randomWindows)})  empty ${fmt(s.clipforgeOffline?.empty)} of ${fmt(s.clipforgeOffline?.queries)}`;
	});

function substanceLines(result: Record<string, unknown>): string[] {
	const substance = (result.substance ?? {}) as Record<string, Scores | string>;
	return Object.entries(substance).flatMap(([name, systems]) => {
		if (typeof systems === "string") return [];
		const o = systems.clipforgeOffline!;
		return [
			`substance ${name}: share of clips inside what people asked about ${fmt(o.insideShare)} vs random same lengths ${fmt(o.randomSameLengths)} (${fmt((o.insideShare ?? 0) / Math.max(1e-9, o.randomSameLengths ?? 0))}x), fluency ${fmt(systems.fluencyWindows?.insideShare)}; coverage ${fmt(o.coverage)}, clips ${fmt(o.meanClipSeconds)} s`,
		];
	});
}

const structureLines = (result: Record<string, unknown>) =>
	section(result, "openingsAndTopics", "openings and topics", (name, s) => {
		const o = s.clipforgeOffline!;
		return `openings and topics ${name.padEnd(18)} clips opening on a word that leans on what came before ${fmt(o.leaningOpenings)} (random ${fmt(o.leaningOpeningsRandom)})  clips crossing a human topic boundary ${fmt(o.topicCrossings)} (random ${fmt(o.topicCrossingsRandom)})  ${fmt(o.clips)} clips of ${fmt(o.meanClipSeconds)} s in ${fmt(o.talks)} talks`;
	});

function chapterLines(result: Record<string, unknown>): string[] {
	const chapters = (result.chapters ?? {}) as Record<string, unknown>;
	return Object.entries(chapters).flatMap(([name, value]) => {
		if (!value || typeof value !== "object") return [];
		if ("skipped" in value) return [`chapters ${name}: skipped`];
		const c = value as Record<string, Record<string, number> | number>;
		const pk = (x: unknown) => fmt((x as Record<string, number> | undefined)?.pk);
		return [
			`chapters ${name.padEnd(20)} Pk ${pk(c.clipforgeOffline)} (uniform with the true count ${pk(c.uniformTrueCount)}, TextTiling ${pk(c.plainTextTiling)})  ${fmt((c.clipforgeOffline as Record<string, number>)?.meetings)} talks, ${fmt(c.meanTrueTopics)} topics each`,
		];
	});
}
