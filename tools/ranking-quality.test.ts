import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../src/worker/domain/video-config.ts";
import { SUBSTANCE_INPUTS } from "@clipforge/moments/ranking/offline/discussion-features";
import { END_MODEL, MOMENT_MODEL, START_MODEL, SUBSTANCE_MODEL } from "@clipforge/moments/ranking/offline/moment-model";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { MOMENT_INPUTS, SIDE_FEATURES } from "@clipforge/moments/ranking/offline/unit-features";
import type { Transcript } from "@clipforge/moments/text";
import { fluencyWindows, randomWindowsOfLengths } from "./quality/baselines.ts";
import type { Span } from "./quality/metrics.ts";
import { scoreHighlights, scorePrompts, type Ranker } from "./quality/evaluate.ts";
import { bundleRankLong, HEAP_CAP_64MB } from "./quality/heap-cap.ts";
import { longTalk } from "./quality/long-talk.ts";
import { buildMeetingCorpus } from "./quality/prompt-corpus.ts";
import { buildTalkCorpus } from "./quality/talk-corpus.ts";

const offline: Ranker = (t, o) =>
	rankOffline(t, { ...defaultConfig(), clipDurationMin: o.min, clipDurationMax: o.max, customPrompt: o.prompt })
		.clips;

describe("the offline ranker on the dev corpora (what it was fitted on: a regression guard, not the reported number)", () => {
	it("finds the planted highlights made as disfluent as the talk around them, where the fewest-fillers windows cannot, with tight edges", async () => {
		const items = buildTalkCorpus("dev", "whisper", undefined, "rough");
		const clips = new Map<Transcript, Span[]>();
		const ours = await scoreHighlights(items, (t, o) => {
			const ranked = offline(t, o) as Span[];
			clips.set(t, ranked);
			return ranked;
		});
		const lengths = (t: Transcript) => (clips.get(t) ?? []).slice(0, 5).map((c) => c.end - c.start);
		const fluency = await scoreHighlights(items, (t) => fluencyWindows(t, lengths(t)));
		const random = await scoreHighlights(items, (t) => randomWindowsOfLengths(t, lengths(t), 7));
		expect(ours.recallAt5).toBeGreaterThanOrEqual(0.8);
		expect(ours.recallAt5).toBeGreaterThan(fluency.recallAt5 + 0.4);
		expect(ours.recallAt5).toBeGreaterThan(random.recallAt5 + 0.6);
		// As fitted: start 1.2-1.3 s, end 2.48-2.54 s (the fit of 2026-11-27, on the local engine's words cased as the Worker
		// writes them); end 2.71 s since chatter weighs by its share of a sentence and only what is chatter anywhere counts
		// (2026-11-28: the same change took continuous talk from recall 0.54 to 0.90 and its end error from 8.3 to 3.7 s).
		// 2.76 s since the edge models are fitted on talk without pauses too (2026-11-28: that shape's edges and the
		// second author's came closer, this row's end moved 2.51 → 2.76 s; docs/ranking-experiments.md).
		expect(ours.startErrorSeconds!).toBeLessThanOrEqual(2.5);
		// 2.91 s since a passage holding a topic break loses gain (2026-11-29: the mean end error over the first
		// author's ten rows went 2.26 → 2.09 s and the second's 7.31 → 6.78 s; this row's 2.76 → 2.91 s).
		expect(ours.endErrorSeconds!).toBeLessThanOrEqual(3.0);
		expect(ours.distractorsPicked).toBeLessThan(0.1);
	});

	it("keeps the edges of highlights in talk spoken without pauses as close as fitted", async () => {
		// As fitted on that shape (2026-11-28): start 3.65 s, end 3.13 s (before: 4.79 s and 3.54 s).
		const ours = await scoreHighlights(buildTalkCorpus("dev", "continuous", undefined, "rough"), offline);
		expect(ours.recallAt5).toBeGreaterThanOrEqual(0.8);
		expect(ours.startErrorSeconds!).toBeLessThanOrEqual(4.0);
		expect(ours.endErrorSeconds!).toBeLessThanOrEqual(3.3);
	});

	it("answers prompts on the written meetings at least as well as it did when tuned", async () => {
		const score = await scorePrompts(buildMeetingCorpus("dev"), offline);
		expect(score.hitAt1).toBeGreaterThanOrEqual(0.4);
		expect(score.hitAt3).toBeGreaterThanOrEqual(0.6);
	});

	it("uses models fitted on the features the code computes now", () => {
		expect(MOMENT_MODEL.features).toEqual(MOMENT_INPUTS);
		expect(START_MODEL.features.slice(0, SIDE_FEATURES.length)).toEqual(SIDE_FEATURES.map((f) => `change:${f}`));
		expect(END_MODEL.features.slice(0, SIDE_FEATURES.length)).toEqual(SIDE_FEATURES.map((f) => `change:${f}`));
		expect(SUBSTANCE_MODEL.features).toEqual(SUBSTANCE_INPUTS);
		for (const model of [MOMENT_MODEL, START_MODEL, END_MODEL, SUBSTANCE_MODEL]) {
			expect(model.weights).toHaveLength(model.features.length);
			expect(model.mean).toHaveLength(model.features.length);
		}
	});

	it("builds the same corpus every time (seeded)", () => {
		expect(JSON.stringify(buildTalkCorpus("dev").slice(0, 2))).toBe(
			JSON.stringify(buildTalkCorpus("dev").slice(0, 2)),
		);
	});

	it("plants the dev split's second author's highlights into the same episodes, each once", () => {
		const first = buildTalkCorpus("dev", "whisper", undefined, "clean", "a");
		const second = buildTalkCorpus("dev", "whisper", undefined, "clean", "b");
		expect(second.map((item) => item.id.replace("dev-b/", "dev/"))).toEqual(first.map((item) => item.id));
		const planted = second.flatMap((item) => item.highlights.map((h) => h.id));
		expect(planted).toHaveLength(50);
		expect(new Set(planted).size).toBe(50);
		expect(planted.every((id) => id.startsWith("hb-"))).toBe(true);
	});
});

describe("npm run rank", () => {
	it("prints the clips the workflow's ranker chooses, as JSON, and refuses a file that is not a transcript", () => {
		const dir = mkdtempSync(join(tmpdir(), "rank-cli-"));
		try {
			const item = buildTalkCorpus("dev")[0]!;
			writeFileSync(join(dir, "t.json"), JSON.stringify(item.transcript));
			writeFileSync(join(dir, "c.json"), JSON.stringify({ clipDurationMin: 15, clipDurationMax: 60 }));
			const run = spawnSync(
				process.execPath,
				[
					"--import",
					"tsx",
					join(import.meta.dirname, "rank.ts"),
					join(dir, "t.json"),
					"--config",
					join(dir, "c.json"),
				],
				{ encoding: "utf8" },
			);
			expect(run.status, run.stderr).toBe(0);
			const printed = JSON.parse(run.stdout);
			const expected = rankOffline(item.transcript, {
				...defaultConfig(),
				clipDurationMin: 15,
				clipDurationMax: 60,
			}).clips;
			expect(printed.rankedBy).toBe("ClipBasic (offline ranker: no LLM is configured)");
			expect(
				printed.clips.map((c: { start: number; end: number; score: number }) => [c.start, c.end, c.score]),
			).toEqual(expected.map((c) => [c.start, c.end, c.score]));
			expect(printed.clips[0]).toHaveProperty("hookTitle");

			const bad = spawnSync(
				process.execPath,
				["--import", "tsx", join(import.meta.dirname, "rank.ts"), join(dir, "c.json")],
				{ encoding: "utf8" },
			);
			expect(bad.status).toBe(2);
			expect(bad.stderr).toMatch(/is not a transcript/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("three hours of talk", () => {
	it("rank at 5-600 s inside a 64 MB heap, bundled as the Worker is, with and without a prompt", () => {
		const dir = mkdtempSync(join(tmpdir(), "rank-long-"));
		try {
			const file = join(dir, "t.json");
			writeFileSync(file, JSON.stringify(longTalk(180)));
			const script = bundleRankLong(dir);
			for (const prompt of [[], ["why did they change the plan for the budget?"]]) {
				const run = spawnSync(process.execPath, [...HEAP_CAP_64MB, script, file, "5", "600", ...prompt], {
					encoding: "utf8",
				});
				expect(run.status, run.stderr.slice(-500)).toBe(0);
				const outcome = JSON.parse(run.stdout);
				expect(outcome.error).toBeNull();
				expect(outcome.clips).toBeGreaterThan(0);
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 120_000);
});
