/**
 * yt-dlp runs with fixed options only: `--ignore-config` first in every call, the URL after `--`.
 * The second test plants a user configuration that would run a command after each download
 * (`--exec`) and shows the tier's real download does not read it.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { serveDirectory } from "../../../scripts/serve-files.ts";
import { downloadSource } from "../src/source/download.ts";
import { DEFAULT_SOURCE_LIMITS } from "@clipforge/contract";
import { YT_DLP_BASE, ytDlpDownloadArgs, ytDlpFormat, ytDlpProbeArgs } from "../src/source/yt-dlp-args.ts";

const work = await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	const dir = mkdtempSync(`${tmpdir()}/render-ytdlp-`);
	process.env.WORK_DIR = `${dir}/work`;
	return dir;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HOSTILE_URL = "--exec=touch /tmp/pwned";

describe("the argument builders", () => {
	it("start every call with --ignore-config and put the URL last, after --", () => {
		const probe = ytDlpProbeArgs(HOSTILE_URL);
		const download = ytDlpDownloadArgs({
			url: HOSTILE_URL,
			limits: DEFAULT_SOURCE_LIMITS,
			outputTemplate: "/w/download.%(ext)s",
			progressTemplate: "p %(progress.downloaded_bytes)s",
		});
		for (const args of [probe, download]) {
			expect(args[0]).toBe("--ignore-config");
			expect(args.slice(0, YT_DLP_BASE.length)).toEqual([...YT_DLP_BASE]);
			expect(args.at(-2)).toBe("--");
			expect(args.at(-1)).toBe(HOSTILE_URL);
			expect(args.indexOf(HOSTILE_URL)).toBe(args.length - 1);
		}
		expect(probe).toContain("-J");
		expect(download).not.toContain("--exec");
	});

	it("download within the limits: --max-filesize, and a format filter that prefers known sizes ≤ 1080p", () => {
		const args = ytDlpDownloadArgs({
			url: "https://v.example/x",
			limits: { maxPixels: DEFAULT_SOURCE_LIMITS.maxPixels, maxBytes: 123_456 },
			outputTemplate: "/w/d.%(ext)s",
			progressTemplate: "p",
		});
		expect(args[args.indexOf("--max-filesize") + 1]).toBe("123456");
		const format = args[args.indexOf("-f") + 1]!;
		expect(format).toBe(ytDlpFormat({ maxPixels: DEFAULT_SOURCE_LIMITS.maxPixels, maxBytes: 123_456 }));
		const alternatives = format.split("/");
		// Known dimensions first, in both orientations, never above 1080p; the size cap on every one.
		expect(alternatives.slice(0, 4)).toEqual([
			"bv*[height<=1080][width<=1920][filesize<=?123456][filesize_approx<=?123456]+ba",
			"b[height<=1080][width<=1920][filesize<=?123456][filesize_approx<=?123456]",
			"bv*[height<=1920][width<=1080][filesize<=?123456][filesize_approx<=?123456]+ba",
			"b[height<=1920][width<=1080][filesize<=?123456][filesize_approx<=?123456]",
		]);
		// Unknown dimensions (a direct file) only last, still bounded where known; never a bare `b`.
		expect(alternatives[4]).toBe("b[height<=?1080][width<=?1920][filesize<=?123456][filesize_approx<=?123456]");
		expect(alternatives).not.toContain("b");
		expect(alternatives.slice(0, 4).join("/")).not.toMatch(/(height|width)<=\?/);
	});

	it("a plan with a lower pixel limit gets a lower rendition", () => {
		expect(ytDlpFormat({ maxPixels: 1280 * 720, maxBytes: 1e9 })).toMatch(/^bv\*\[height<=720\]\[width<=1280\]/);
	});
});

describe("a yt-dlp configuration file on the machine", () => {
	it("is not read: a planted `--exec` never runs on the tier's download", async () => {
		const media = join(work, "media");
		mkdirSync(media, { recursive: true });
		execFileSync("ffmpeg", [
			"-hide_banner",
			"-loglevel",
			"error",
			"-f",
			"lavfi",
			"-i",
			"testsrc2=size=160x90:rate=10",
			"-t",
			"1",
			"-c:v",
			"libx264",
			"-preset",
			"ultrafast",
			join(media, "tiny.mp4"),
		]);
		const marker = join(work, "config-was-read");
		const config = join(work, "xdg", "yt-dlp");
		mkdirSync(config, { recursive: true });
		writeFileSync(join(config, "config"), `--exec "touch ${marker}"\n`);
		// Proof the planted file works at all: plain yt-dlp reads it.
		const files = await serveDirectory(media);
		const saved = process.env.XDG_CONFIG_HOME;
		process.env.XDG_CONFIG_HOME = join(work, "xdg");
		try {
			// Asynchronously: the file server answers from this process.
			await promisify(execFile)(
				"yt-dlp",
				["--quiet", "-o", join(work, "plain.%(ext)s"), "--", `${files.url}/tiny.mp4`],
				{ env: process.env },
			);
			expect(existsSync(marker)).toBe(true);
			rmSync(marker);
			await downloadSource(
				{
					videoId: "vid_cfg",
					url: `${files.url}/tiny.mp4`,
					limits: DEFAULT_SOURCE_LIMITS,
					expectedDuration: null,
				},
				() => {},
			);
			expect(existsSync(marker)).toBe(false);
		} finally {
			process.env.XDG_CONFIG_HOME = saved;
			if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
			await files.close();
		}
	});
});
