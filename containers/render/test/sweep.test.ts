/**
 * Nothing left behind in the tier's work folder: what a killed job wrote (its process gone with the
 * instance, SIGKILL) is swept when the tier starts again, and the timer's sweep removes what no
 * running job holds, keeping a fresh complete download and the cached backgrounds.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jobFilesIn, sweepWorkRoot } from "../src/runtime/sweep.ts";

const SERVER = join(import.meta.dirname, "../src/server.ts");
const roots: string[] = [];

afterEach(() => {
	for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A work folder as a SIGKILLed tier leaves it: scratch of jobs cut mid-way, a video's files, the shared cache. */
function leftByKilledJobs(): string {
	const root = mkdtempSync(join(tmpdir(), "render-sweep-"));
	roots.push(root);
	const files = [
		"asr-Xq81aZ/chunk.audio",
		"asr-Xq81aZ/chunk.wav",
		"asr-p0Lk2e/chunk.audio",
		"preview-a1b2c3/look.ass",
		"vid_cut/download.mp4.part",
		"vid_cut/audio-0.mp3",
		"vid_done/source.mp4",
		"vid_done/signals.json",
		"vid_done/clp_done_1.mp4",
		"vid_done/clp_done_1.ass",
		"_shared/0123456789abcdef0123456789abcdef.mp4",
		"_shared/0123456789abcdef0123456789abcdef.mp4.4242.1700000000000.part",
		"_shared/make-gradient-1700000000000.mp4",
		"_shared/import-1700000000000-x1.png",
	];
	for (const file of files) {
		mkdirSync(join(root, file, ".."), { recursive: true });
		writeFileSync(join(root, file), "x");
	}
	return root;
}

/** Starts `node src/server.ts` on `root` and stops it once it listens. */
function startAndStop(root: string, env: Record<string, string> = {}): Promise<string> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [SERVER], {
			env: {
				PATH: process.env.PATH,
				WORK_DIR: root,
				PORT: "0",
				RENDER_SECRET: process.env.RENDER_SECRET,
				...env,
			},
			stdio: ["ignore", "pipe", "pipe"],
		});
		let output = "";
		const collect = (chunk: Buffer) => {
			output += chunk.toString();
			if (output.includes('"listening"')) child.kill();
		};
		child.stdout.on("data", collect);
		child.stderr.on("data", collect);
		child.on("close", () => resolve(output));
	});
}

describe("the tier's work folder after jobs were killed", () => {
	it("is swept when the tier starts: scratch folders, partial and intermediate files go; a fresh download and the cache stay", async () => {
		const root = leftByKilledJobs();
		const output = await startAndStop(root, { RENDER_QUIET: "false" });
		expect(output).toContain('"event":"swept"');
		expect(await jobFilesIn(root)).toEqual(["vid_done/source.mp4"]);
		expect(await sweepWorkRoot({ root, held: new Set(), idleMs: 60_000 })).toEqual({ removed: [] });
	});

	it("a video folder idle longer than RENDER_SWEEP_IDLE_SECONDS goes whole, its download too", async () => {
		const root = leftByKilledJobs();
		await startAndStop(root, { RENDER_SWEEP_IDLE_SECONDS: "0" });
		expect(await jobFilesIn(root)).toEqual([]);
	});
});

describe("sweepWorkRoot", () => {
	it("leaves alone every path a running job holds", async () => {
		const root = leftByKilledJobs();
		const held = new Set([
			join(root, "asr-Xq81aZ"),
			join(root, "vid_cut"),
			join(root, "_shared/make-gradient-1700000000000.mp4"),
		]);
		const { removed } = await sweepWorkRoot({ root, held, idleMs: 0, now: Date.now() + 1000 });
		expect(removed.sort()).toEqual([
			"_shared/0123456789abcdef0123456789abcdef.mp4.4242.1700000000000.part",
			"_shared/import-1700000000000-x1.png",
			"asr-p0Lk2e",
			"preview-a1b2c3",
			"vid_done",
		]);
		expect(await jobFilesIn(root)).toEqual([
			"_shared/make-gradient-1700000000000.mp4",
			"asr-Xq81aZ/chunk.audio",
			"asr-Xq81aZ/chunk.wav",
			"vid_cut/audio-0.mp3",
			"vid_cut/download.mp4.part",
		]);
	});

	it("counts the cached backgrounds as no job's files", async () => {
		const root = leftByKilledJobs();
		await sweepWorkRoot({ root, held: new Set(), idleMs: 0, now: Date.now() + 1000 });
		expect(await jobFilesIn(root)).toEqual([]);
		expect(await sweepWorkRoot({ root: join(root, "missing"), held: new Set(), idleMs: 0 })).toEqual({
			removed: [],
		});
	});
});
