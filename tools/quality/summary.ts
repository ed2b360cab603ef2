/** The bench's headline numbers as a few plain lines, each system beside its baselines. */
type Scores = Record<string, Record<string, number | null> | undefined>;

const fmt = (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : "-");

export function summaryLines(result: Record<string, unknown>): string[] {
	const lines: string[] = [];
	const highlights = (result.highlights ?? {}) as Record<string, Scores | { skipped: string }>;
	for (const [name, systems] of Object.entries(highlights)) {
		if ("skipped" in systems) {
			lines.push(`highlights ${name}: skipped`);
			continue;
		}
		const s = systems as Scores;
		const o = s.clipforgeOffline!;
		const fitting = (o as unknown as { fitting?: Record<string, number | null> }).fitting;
		lines.push(
			`highlights ${name.padEnd(22)} recall@5 ${fmt(o.recallAt5)} (fluency ${fmt(s.fluencyWindows?.recallAt5)}, random ${fmt(s.randomWindows?.recallAt5)})  start err ${fmt(o.startErrorSeconds)} s (bias ${fmt(o.startBiasSeconds)})  end err ${fmt(o.endErrorSeconds)} s (bias ${fmt(o.endBiasSeconds)})  clips ${fmt(o.clipSeconds)} s vs ${fmt(o.highlightSeconds)} s` +
				(fitting
					? `  (highlights that fit: start ${fmt(fitting.startErrorSeconds)} s, end ${fmt(fitting.endErrorSeconds)} s; ${fmt(fitting.longerThanMax)} longer than the maximum)`
					: ""),
		);
	}
	const prompts = (result.prompts ?? {}) as Record<string, Scores | { skipped: string }>;
	for (const [name, systems] of Object.entries(prompts)) {
		if ("skipped" in systems) {
			lines.push(`prompts ${name}: skipped`);
			continue;
		}
		const s = systems as Scores;
		const pair = (x: Scores[string]) => `${fmt(x?.hitAt1)}/${fmt(x?.hitAt3)}`;
		lines.push(
			`prompts ${name.padEnd(20)} hit@1/@3 ${pair(s.clipforgeOffline)} (BM25 matched ${pair(s.bm25MatchedLengths)}, BM25 60 s ${pair(s.bm25Windows60s)}, random ${pair(s.randomWindows)})  empty ${fmt(s.clipforgeOffline?.empty)} of ${fmt(s.clipforgeOffline?.queries)}`,
		);
	}
	const substance = (result.substance ?? {}) as Record<string, Scores | string>;
	for (const [name, systems] of Object.entries(substance)) {
		if (typeof systems === "string") continue;
		const o = systems.clipforgeOffline!;
		lines.push(
			`substance ${name}: share of clips inside what people asked about ${fmt(o.insideShare)} vs random same lengths ${fmt(o.randomSameLengths)} (${fmt((o.insideShare ?? 0) / Math.max(1e-9, o.randomSameLengths ?? 0))}x), fluency ${fmt(systems.fluencyWindows?.insideShare)}; coverage ${fmt(o.coverage)}, clips ${fmt(o.meanClipSeconds)} s`,
		);
	}
	const structure = (result.openingsAndTopics ?? {}) as Record<string, Scores | { skipped: string }>;
	for (const [name, systems] of Object.entries(structure)) {
		if ("skipped" in systems) {
			lines.push(`openings and topics ${name}: skipped`);
			continue;
		}
		const o = (systems as Scores).clipforgeOffline!;
		lines.push(
			`openings and topics ${name.padEnd(18)} clips opening on a word that leans on what came before ${fmt(o.leaningOpenings)} (random ${fmt(o.leaningOpeningsRandom)})  clips crossing a human topic boundary ${fmt(o.topicCrossings)} (random ${fmt(o.topicCrossingsRandom)})  ${fmt(o.clips)} clips of ${fmt(o.meanClipSeconds)} s in ${fmt(o.talks)} talks`,
		);
	}
	const chapters = (result.chapters ?? {}) as Record<string, unknown>;
	for (const [name, value] of Object.entries(chapters)) {
		if (!value || typeof value !== "object") continue;
		if ("skipped" in value) {
			lines.push(`chapters ${name}: skipped`);
			continue;
		}
		const c = value as Record<string, Record<string, number> | number>;
		const pk = (x: unknown) => fmt((x as Record<string, number> | undefined)?.pk);
		lines.push(
			`chapters ${name.padEnd(20)} Pk ${pk(c.clipforgeOffline)} (uniform with the true count ${pk(c.uniformTrueCount)}, TextTiling ${pk(c.plainTextTiling)})  ${fmt((c.clipforgeOffline as Record<string, number>)?.meetings)} talks, ${fmt(c.meanTrueTopics)} topics each`,
		);
	}
	if (result.speed) lines.push(`speed ${JSON.stringify(result.speed)}`);
	return lines;
}
