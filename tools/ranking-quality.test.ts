import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VideoConfigInput } from "../src/worker/domain/video-config.ts";
import { rankClipBasic } from "../src/worker/services/ranking/clip-basic.ts";
import { buildCorpus } from "./quality-corpus.ts";

const config = VideoConfigInput.parse({ clipDurationMin: 15, clipDurationMax: 60 });

describe("ClipBasic on the planted-highlight corpus", () => {
	it("finds at least 80% of planted highlights in its five best clips (IoU ≥ 0.5), with Auto genre", () => {
		const corpus = buildCorpus(8, 99);
		let found = 0;
		let total = 0;
		for (const item of corpus) {
			const top = rankClipBasic(item.transcript, { ...config, genre: "Auto" }, item.signals).clips.slice(0, 5);
			for (const h of item.highlights) {
				total++;
				if (top.some((c) => Math.max(0, Math.min(c.end, h.end) - Math.max(c.start, h.start)) / (Math.max(c.end, h.end) - Math.min(c.start, h.start)) >= 0.5)) found++;
			}
		}
		expect(found / total).toBeGreaterThanOrEqual(0.8);
	});

	it("builds the same corpus every time (seeded)", () => {
		expect(JSON.stringify(buildCorpus(2))).toBe(JSON.stringify(buildCorpus(2)));
	});
});

describe("npm run rank", () => {
	it("prints the clips the workflow's ranker chooses, as JSON", () => {
		const dir = mkdtempSync(join(tmpdir(), "rank-cli-"));
		try {
			const item = buildCorpus(1, 5)[0]!;
			writeFileSync(join(dir, "t.json"), JSON.stringify(item.transcript));
			writeFileSync(join(dir, "c.json"), JSON.stringify({ clipDurationMin: 15, clipDurationMax: 60, genre: item.genre }));
			writeFileSync(join(dir, "s.json"), JSON.stringify(item.signals));
			const run = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "rank.ts"), join(dir, "t.json"), "--config", join(dir, "c.json"), "--signals", join(dir, "s.json")], { encoding: "utf8" });
			expect(run.status, run.stderr).toBe(0);
			const printed = JSON.parse(run.stdout);
			const expected = rankClipBasic(item.transcript, { ...config, genre: item.genre }, item.signals).clips;
			expect(printed.rankedBy).toBe("ClipBasic");
			expect(printed.clips.map((c: { start: number; end: number; score: number }) => [c.start, c.end, c.score])).toEqual(expected.map((c) => [c.start, c.end, c.score]));

			const bad = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "rank.ts"), join(dir, "c.json")], { encoding: "utf8" });
			expect(bad.status).toBe(2);
			expect(bad.stderr).toMatch(/is not a transcript/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
