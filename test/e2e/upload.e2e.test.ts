/**
 * A local video file instead of a URL, on the real local stack (render tier with ffmpeg/yt-dlp,
 * wrangler dev with its R2): through the SDK (in parts, interrupted and resumed), the CLI
 * (`clipforge submit ./file.mp4 --wait --out`), and the dashboard's drop zone in Chromium, each to
 * completed clips; a file that is not a video is refused and charges nothing.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createClient } from "../../packages/sdk/src/index.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";
import { api, stackUrl } from "./client.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const ARTIFACTS = join(ROOT, "test-artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PART = 5 * 1024 ** 2;

let dir: string;
/** A 30 s talk (one part). */
let talk: string;
/** The same talk at a constant 6 Mbit/s: about 22 MB, five parts of 5 MiB. */
let bigTalk: string;

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "clipforge-e2e-upload-"));
	talk = join(dir, "my talk.mp4");
	cachedTalkVideo({ out: talk, seconds: 30 });
	bigTalk = join(dir, "big talk.mov");
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-y",
		"-i",
		talk,
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-b:v",
		"6M",
		"-minrate",
		"6M",
		"-maxrate",
		"6M",
		"-bufsize",
		"2M",
		"-x264-params",
		"nal-hrd=cbr:filler=1",
		"-c:a",
		"copy",
		"-f",
		"mov",
		bigTalk,
	]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const minutes = async () => (await api("GET", "/api/workspaces")).body[0].minutesBalance as number;

describe("upload with the SDK", () => {
	it("uploads in parts, is interrupted, resumes with only the missing parts, and becomes a completed video", async () => {
		const cf = createClient({ baseUrl: stackUrl(), apiKey: inject("clipforgeApiKey") });
		const size = statSync(bigTalk).size;
		expect(size).toBeGreaterThan(4 * PART);
		const stop = new AbortController();
		let uploadId = "";
		const interrupted = await cf
			.uploadFile(bigTalk, {
				partSize: PART,
				concurrency: 1,
				signal: stop.signal,
				onProgress: (p) => {
					uploadId = p.uploadId;
					if (p.partsDone >= 2) stop.abort();
				},
			})
			.catch((e: unknown) => e);
		expect(interrupted).toMatchObject({ code: "aborted" });
		const halfway = await cf.upload(uploadId);
		expect(halfway.status).toBe("uploading");
		expect(halfway.parts.length).toBeGreaterThanOrEqual(2);
		expect(halfway.missingParts.length).toBeGreaterThan(0);

		const sentAfterResume: number[] = [];
		const upload = await cf.uploadFile(bigTalk, { uploadId, onProgress: (p) => sentAfterResume.push(p.partsDone) });
		expect(upload).toMatchObject({
			id: uploadId,
			status: "completed",
			size,
			contentType: "video/quicktime",
			fileName: "big talk.mov",
		});
		expect(sentAfterResume[0]).toBe(halfway.parts.length);

		const before = await minutes();
		const submitted = await cf.submitUpload(upload.id, { clipDurationMin: 8, clipDurationMax: 20 });
		expect(submitted.video).toMatchObject({ sourceType: "upload", title: "big talk", status: "downloading" });
		expect(submitted.videoInfo.duration).toBeGreaterThan(29);
		expect(await minutes()).toBe(before - 1);
		const done = await cf.waitForCompletion(submitted.video.id, { intervalMs: 1000 });
		expect(done.video.status).toBe("completed");
		const clips = await cf.allClips(submitted.video.id);
		expect(clips.length).toBeGreaterThan(0);
		const file = join(dir, "sdk-clip.mp4");
		await cf.downloadClip(clips[0]!, file);
		const probe = spawnSync(
			"ffprobe",
			["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", file],
			{ encoding: "utf8" },
		);
		expect(probe.stdout).toContain("video");
		expect((await cf.upload(upload.id)).status).toBe("used");
	});
});

/** Runs the CLI as a user would, with its own state folder (where interrupted uploads are remembered). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[join(ROOT, "packages/sdk/src/cli.ts"), ...args],
			{
				env: {
					...process.env,
					CLIPFORGE_URL: stackUrl(),
					CLIPFORGE_API_KEY: inject("clipforgeApiKey"),
					CLIPFORGE_STATE_DIR: join(dir, "cli-state"),
				},
				encoding: "utf8",
				timeout: 5 * 60_000,
			},
			(error, stdout, stderr) =>
				resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
		);
	});
}

describe("clipforge submit ./file", () => {
	it("uploads a local file, waits and downloads its clips", async () => {
		const out = join(dir, "cli-clips");
		const run = await cli([
			"--json",
			"submit",
			talk,
			"--aspect",
			"1:1",
			"--min",
			"8",
			"--max",
			"20",
			"--wait",
			"--interval",
			"1",
			"--out",
			out,
		]);
		expect(run.code, run.stderr + run.stdout).toBe(0);
		const result = JSON.parse(run.stdout);
		expect(result.video.status).toBe("completed");
		expect(result.files.length).toBeGreaterThan(0);
		for (const file of result.files) expect(existsSync(file)).toBe(true);
		const probe = spawnSync(
			"ffprobe",
			["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", result.files[0]],
			{ encoding: "utf8" },
		);
		expect(probe.stdout.trim().split("\n")[0]).toBe("1080,1080");
	});

	it("a file that is not a video: exit 8 (bad source), nothing charged", async () => {
		const notes = join(dir, "notes.mp4");
		writeFileSync(notes, "these are my meeting notes, not a video\n".repeat(100));
		const before = await minutes();
		const run = await cli(["submit", notes]);
		expect(run.code, run.stderr).toBe(8);
		expect(run.stderr).toMatch(/not a video/);
		expect(await minutes()).toBe(before);
	});
});

describe("dashboard drop zone", () => {
	let browser: Browser;
	beforeAll(async () => {
		mkdirSync(ARTIFACTS, { recursive: true });
		browser = await chromium.launch({
			executablePath: CHROMIUM,
			headless: true,
			args: [
				"--no-sandbox",
				"--disable-gpu",
				"--no-first-run",
				"--disable-background-networking",
				"--disable-component-update",
				"--disable-sync",
			],
		});
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("takes a dropped file, shows the upload's progress, and follows the video to completed", async () => {
		const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
		await page.goto(`${stackUrl()}/app#/login`);
		await page.getByLabel("Email").fill(inject("clipforgeEmail"));
		await page.getByLabel("Password").fill(inject("clipforgePassword"));
		await page.getByRole("button", { name: "Sign in" }).click();
		await page.getByRole("heading", { name: "New video" }).waitFor();

		// A drop on the zone picks the file (a tiny synthetic one), and Remove gives the URL back.
		await page.locator("#dropzone").evaluate((zone) => {
			const data = new DataTransfer();
			data.items.add(new File(["x"], "dropped.mp4", { type: "video/mp4" }));
			zone.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
		});
		expect(await page.locator("#chosenFile").textContent()).toMatch(/^dropped\.mp4/);
		expect(await page.getByLabel("Video URL").isDisabled()).toBe(true);
		await page.getByRole("button", { name: "Remove" }).click();
		expect(await page.getByLabel("Video URL").isDisabled()).toBe(false);

		// The real file, chosen through the zone's input; the bar moves, then the video page follows it.
		await page.setInputFiles("#sourceFile", bigTalk);
		expect(await page.locator("#chosenFile").textContent()).toMatch(/^big talk\.mov \(2\d\.\d MiB\)/);
		await page.getByLabel("Shortest clip (s)").fill("8");
		await page.getByLabel("Longest clip (s)").fill("20");
		const percents: number[] = [];
		const watching = (async () => {
			for (let i = 0; i < 200 && !page.isClosed(); i++) {
				const value = await page
					.locator("#uploadProgress")
					.evaluate((el: HTMLProgressElement) => (el.hidden ? -1 : el.value))
					.catch(() => -2);
				if (value === -2) return;
				if (value >= 0) percents.push(value);
				await page.waitForTimeout(50);
			}
		})();
		await page.getByRole("button", { name: "Make clips" }).click();
		await page.waitForURL(/#\/videos\/vid_/, { timeout: 60_000 });
		await watching;
		expect(percents.length).toBeGreaterThan(0);
		expect(percents).toEqual([...percents].sort((a, b) => a - b));
		const id = /#\/videos\/(vid_\w+)/.exec(page.url())![1]!;
		const stage = page.locator(".stage");
		await expect
			.poll(async () => (await stage.textContent()) ?? "", { timeout: 4 * 60_000, interval: 500 })
			.toMatch(/^completed · 100%/);
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-upload.png"), fullPage: true });
		const video = (await api("GET", `/api/videos/${id}`)).body;
		expect(video).toMatchObject({ sourceType: "upload", title: "big talk", status: "completed" });
		expect(problems).toEqual([]);
		await context.close();
	});
});
