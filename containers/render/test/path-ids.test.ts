/**
 * Ids become file names in the tier (a video's folder, a clip's files). Before, `clipId` reached
 * `join(dir, clipId + ".mp4")` unchecked, so `../../x` wrote and deleted outside the work folder.
 * Now the contract refuses any id but `[A-Za-z0-9][A-Za-z0-9_-]*` (400 before any work), and every
 * path is resolved and checked to stay inside the work folder.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { createRenderServer } from "../src/server.ts";
import { idFile, pathInside, removeVideoDir, videoDir } from "../src/runtime/workdir.ts";
import { signedPost } from "./signed-post.ts";

const work = await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	const dir = mkdtempSync(`${tmpdir()}/render-ids-`);
	process.env.WORK_DIR = `${dir}/work`;
	return dir;
});
const root = join(work, "work");
/** A file beside the work folder: what a `../` id would reach. */
const outside = join(work, "outside.txt");

const HOSTILE_IDS = [
	"../outside",
	"..",
	".",
	"../../../../etc/passwd",
	"/etc/passwd",
	"/tmp/x",
	"vid/../../outside",
	"vid\\..\\..\\outside",
	"%2e%2e",
	"%2e%2e%2foutside",
	"..%2F..%2Foutside",
	"vid\u0000.mp4",
	"\u0000",
	"_shared",
	"-rf",
	"",
	"a".repeat(129),
	"vid 1",
	"vid.mp4",
	"ｖｉｄ",
];

let tier: string;
let close: () => void;
beforeAll(async () => {
	mkdirSync(join(root, "_shared"), { recursive: true });
	writeFileSync(join(root, "_shared", "keep.mp4"), "x");
	writeFileSync(outside, "x");
	const server = createRenderServer().listen(0, "127.0.0.1");
	await new Promise((r) => server.once("listening", r));
	tier = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	close = () => server.close();
});
afterAll(() => {
	close?.();
	rmSync(work, { recursive: true, force: true });
});

const untouched = () => {
	expect(existsSync(outside)).toBe(true);
	expect(existsSync(join(root, "_shared", "keep.mp4"))).toBe(true);
	expect(readdirSync(work).sort()).toEqual(["outside.txt", "work"]);
};

const url = "http://127.0.0.1:9/x.mp4";
const put = "http://127.0.0.1:9/put";
/** Every job whose request carries an id that becomes a path, with the id in each place it goes. */
const requests: [string, (id: string) => unknown][] = [
	[renderJobs.download.path, (id) => ({ videoId: id, url })],
	[renderJobs.uploadSource.path, (id) => ({ videoId: id, url, putUrl: put })],
	[
		renderJobs.extractAudio.path,
		(id) => ({ videoId: id, sourceUrl: url, chunks: [{ index: 0, start: 0, duration: 1, putUrl: put }] }),
	],
	[renderJobs.signals.path, (id) => ({ videoId: id, sourceUrl: url, duration: 1, start: 0, end: 1, putUrl: put })],
	[
		renderJobs.renderClip.path,
		(id) => ({
			videoId: id,
			clipId: "clp_1",
			sourceUrl: url,
			start: 0,
			end: 1,
			aspectRatio: "9:16",
			videoPutUrl: put,
			thumbnailPutUrl: put,
		}),
	],
	[
		renderJobs.renderClip.path,
		(id) => ({
			videoId: "vid_1",
			clipId: id,
			sourceUrl: url,
			start: 0,
			end: 1,
			aspectRatio: "9:16",
			videoPutUrl: put,
			thumbnailPutUrl: put,
		}),
	],
	[renderJobs.cleanup.path, (id) => ({ videoId: id })],
];

describe("hostile ids are refused with 400 before any work", () => {
	for (const [path, body] of requests) {
		it(`${path}`, async () => {
			for (const id of HOSTILE_IDS) {
				const response = await signedPost(tier, path, body(id));
				expect(response.status, `${path} ${JSON.stringify(id)}`).toBe(400);
				expect(((await response.json()) as any).error.code).toBe("invalid_request");
			}
			untouched();
		});
	}

	it("cleanup of the shared cache by its folder name is refused", async () => {
		const response = await signedPost(tier, renderJobs.cleanup.path, { videoId: "_shared" });
		expect(response.status).toBe(400);
		untouched();
	});
});

describe("paths stay inside the work folder whatever reaches them", () => {
	it("pathInside refuses `..`, absolute paths, separators that climb, and NUL; keeps literal names", () => {
		for (const name of ["..", "../x", "/etc/passwd", "a/../../x", "a\0b", ""])
			expect(() => pathInside(root, name), JSON.stringify(name)).toThrow(/Unsafe/);
		expect(pathInside(root, "vid_1", "clp_1.mp4")).toBe(join(root, "vid_1", "clp_1.mp4"));
		// Percent-encodings are never decoded here: at worst a literal, harmless name inside the folder.
		expect(dirname(pathInside(root, "%2e%2e"))).toBe(root);
	});

	it("videoDir, idFile and removeVideoDir refuse ids outside the contract's pattern", async () => {
		for (const id of HOSTILE_IDS) {
			await expect(videoDir(id), JSON.stringify(id)).rejects.toThrow(/Unsafe/);
			await expect(removeVideoDir(id), JSON.stringify(id)).rejects.toThrow(/Unsafe/);
			expect(() => idFile(root, id, ".mp4"), JSON.stringify(id)).toThrow(/Unsafe/);
		}
		expect(await videoDir("vid_ok-1")).toBe(join(root, "vid_ok-1"));
		untouched();
	});
});
