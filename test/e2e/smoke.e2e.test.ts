/**
 * `npm run smoke` against the real local stack (wrangler dev + the native render tier): every
 * check passes (the LLM ones are skipped: the local stack has no AI binding), the signed download
 * is fetched from outside, and what it stored is removed; a wrong key, a wrong URL and missing
 * arguments each fail with a sentence saying what to do (the route switched off is a 404 the
 * Worker tests check: test/integration/smoke.test.ts).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const run = (args: string[], env: Record<string, string> = {}) =>
	spawnSync(process.execPath, [join(ROOT, "scripts/smoke.ts"), ...args], {
		cwd: ROOT,
		encoding: "utf8",
		env: { ...process.env, ...env },
		timeout: 5 * 60_000,
	});

describe("npm run smoke against make up's stack", () => {
	it("passes, checking every binding for real, and leaves nothing behind", () => {
		const result = run(["--url", inject("clipforgeUrl"), "--key", inject("clipforgeOperatorSecret")]);
		expect(result.stderr).toBe("");
		const lines = result.stdout.trim().split("\n");
		expect(lines[0]).toBe(`Checking ${inject("clipforgeUrl")} …`);
		for (const line of [
			/^✓ D1: read the schema and \d+ workspace\(s\) \(\d+ ms\)$/,
			/^✓ R2: put, got back the same 4,096 bytes, deleted \(\d+ ms\)$/,
			/^✓ Transcription \(local, in the render tier\): 2 s of audio transcribed \(\d+ segment\(s\), language en\) \(\d+ ms\)$/,
			/^– LLM for ClipBasic \(LLM_FAST_MODEL\): skipped, no LLM is configured/,
			/^– LLM for ClipPro \(LLM_MODEL\): skipped, no LLM is configured/,
			/^✓ Render tier \(container\): healthy \(ffmpeg [^,]+, yt-dlp [^)]+\); fetched a picture from http:\/\/127\.0\.0\.1:\d+ and stored its 16x16 conversion back/,
			/^✓ Workflows: instance smoke-\w+ created, ran its step and completed/,
			/^✓ Signed download: 65,536 bytes as stored; a forged token refused \(403\)$/,
			/^✓ Cleaned up: removed 1 object\(s\) the run stored, 0 left$/,
		]) {
			expect(
				lines.some((l) => line.test(l)),
				`${line}\n${result.stdout}`,
			).toBe(true);
		}
		expect(lines.at(-1)).toBe("Everything answered as it should.");
		expect(result.status).toBe(0);
	});

	it("says what to do about a wrong key, an unreachable deployment, or missing arguments", () => {
		const wrongKey = run(["--url", inject("clipforgeUrl"), "--key", "cf_live_not-the-operator-key"]);
		expect(wrongKey.status).toBe(1);
		expect(wrongKey.stdout).toContain(
			"✗ The key was refused: pass the deployment's OPERATOR_SECRET with --key (not a tenant's API key).",
		);
		const nowhere = run(["--url", "http://127.0.0.1:9", "--key", "x"]);
		expect(nowhere.status).toBe(1);
		expect(nowhere.stdout).toMatch(/^✗ The Worker at http:\/\/127\.0\.0\.1:9 cannot be reached/);
		const fromEnvironment = run(["--url", inject("clipforgeUrl")], {
			CLIPFORGE_OPERATOR_SECRET: "wrong-but-present",
		});
		expect(fromEnvironment.stdout).toContain("The key was refused");
		const usage = run(["--key", "x"]);
		expect(usage.status).toBe(2);
		expect(usage.stderr).toMatch(/^usage: npm run smoke -- --url/);
	});
});
