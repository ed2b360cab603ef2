/**
 * What `npm run bench:quality -- --test` enforces of the held-out protocol (docs/ranking.md):
 * a clean tree, one run per commit unless `--again "<reason>"`, no partial held-out runs, and
 * errors reported without their messages.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { refusal, withoutMessage, type RunRecord } from "./quality/held-out-run.ts";

const run = (commit: string, kind = "bench:quality --test"): RunRecord => ({
	commit,
	date: "2026-11-28T00:00:00.000Z",
	command: "npm run bench:quality -- --test",
	kind,
	completed: true,
});

describe("the held-out run's guard", () => {
	const clean = { commit: "abc123", dirty: [] };

	it("refuses a working tree with changes, tracked or untracked", () => {
		expect(refusal({ commit: "abc123", dirty: ["tools/x.ts"] }, [], "bench:quality --test", undefined)).toMatch(
			/working tree has changes \(tools\/x\.ts\)/,
		);
	});

	it("allows the first run on a commit, refuses a second, and allows it with a reason", () => {
		expect(refusal(clean, [run("other")], "bench:quality --test", undefined)).toBeNull();
		expect(refusal(clean, [run("abc123")], "bench:quality --test", undefined)).toMatch(
			/already has 1 held-out run/,
		);
		expect(refusal(clean, [run("abc123")], "bench:quality --test", "  ")).toMatch(/--again/);
		expect(refusal(clean, [run("abc123")], "bench:quality --test", "the first run died of a full disk")).toBeNull();
	});

	it("counts runs of each kind apart (the bench and the across-commits script)", () => {
		expect(
			refusal(clean, [run("abc123", "across-commits --split test")], "bench:quality --test", undefined),
		).toBeNull();
	});

	it("reports an error by its name and frames, never its message", () => {
		const error = new RangeError("the words of some held-out item");
		const shown = withoutMessage(error);
		expect(shown).toMatch(/^RangeError/);
		expect(shown).not.toMatch(/held-out item"|words of some/);
		expect(withoutMessage("a string thrown")).not.toMatch(/string thrown/);
	});

	it("refuses --only and --highlights with --test before reading anything", () => {
		const bench = join(import.meta.dirname, "bench-quality.ts");
		for (const extra of [
			["--only", "prompts"],
			["--highlights", "b"],
		]) {
			const result = spawnSync(process.execPath, ["--import", "tsx", bench, "--test", ...extra], {
				encoding: "utf8",
				cwd: join(import.meta.dirname, ".."),
			});
			expect(result.status).toBe(2);
			expect(result.stdout).toBe("");
			expect(result.stderr).toMatch(/one scripted held-out run/);
		}
	});
});
