/**
 * A connection between the Worker and the tier lost mid-job: the Worker sends the same job again on
 * a fresh connection (signed anew). The tier must not start the work twice: the running job is
 * joined and its result reaches the new connection; a finished one is answered from its result; a
 * job nobody comes back for is stopped and leaves no files.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { JobEvent, renderJobs } from "@clipforge/contract";
import { createRenderServer } from "../src/server.ts";
import { signedPost } from "./signed-post.ts";

// Before the tier's modules load: they read WORK_DIR once.
const work = await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	const dir = mkdtempSync(`${tmpdir()}/render-lost-`);
	process.env.WORK_DIR = dir;
	return dir;
});

/** An audio host that holds each answer until the test lets it go, and counts what it was asked. */
let audioHost: Server;
let audioUrl: string;
let requests = 0;
let release: () => void = () => undefined;
let held = Promise.resolve();
let audio: Buffer;
let tier: string;
let closeTier: () => void;

const hold = () => {
	held = new Promise((resolve) => {
		release = resolve;
	});
};

beforeAll(async () => {
	const wav = join(work, "..", `${work.split("/").pop()}-tone.wav`);
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-y",
		"-f",
		"lavfi",
		"-i",
		"sine=frequency=300:duration=2",
		"-ar",
		"16000",
		"-ac",
		"1",
		wav,
	]);
	audio = readFileSync(wav);
	audioHost = createServer((req, res) => {
		requests++;
		void held.then(() =>
			res.writeHead(200, { "content-type": "audio/wav", "content-length": String(audio.length) }).end(audio),
		);
	}).listen(0, "127.0.0.1");
	await new Promise((r) => audioHost.once("listening", r));
	audioUrl = `http://127.0.0.1:${(audioHost.address() as AddressInfo).port}`;
	const server = createRenderServer({ abandonAfterMs: 1500 }).listen(0, "127.0.0.1");
	await new Promise((r) => server.once("listening", r));
	tier = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	closeTier = () => {
		server.closeAllConnections();
		server.close();
	};
});

afterAll(() => {
	release();
	closeTier?.();
	audioHost?.closeAllConnections();
	audioHost?.close();
});

const scratchFolders = () => readdirSync(work).filter((name) => name.startsWith("asr-"));

/** Starts a transcription and reads until its first event; the caller then cuts or keeps reading. */
async function startTranscription(file: string, signal: AbortSignal) {
	const path = renderJobs.transcribe.path;
	const body = JSON.stringify({ audioUrl: `${audioUrl}/${file}`, language: "en" });
	const { signRenderRequest } = await import("@clipforge/contract");
	const authorization = await signRenderRequest(process.env.RENDER_SECRET!, { method: "POST", path, body });
	const response = await fetch(tier + path, {
		method: "POST",
		headers: { "content-type": "application/json", authorization },
		body,
		signal,
	});
	expect(response.status).toBe(200);
	return response;
}

const eventsOf = async (response: Response) =>
	(await response.text())
		.trim()
		.split("\n")
		.map((line) => JobEvent.parse(JSON.parse(line)));

describe("a job asked for again after its connection was lost", () => {
	it("is joined while it runs: one fetch of its input, and the result reaches the new connection", async () => {
		hold();
		requests = 0;
		const first = new AbortController();
		await startTranscription("a.wav", first.signal);
		await vi.waitFor(() => expect(requests).toBe(1));
		expect(scratchFolders()).toHaveLength(1);
		first.abort(); // the connection is lost mid-job

		const again = await signedPost(tier, renderJobs.transcribe.path, {
			audioUrl: `${audioUrl}/a.wav`,
			language: "en",
		});
		release();
		const events = await eventsOf(again);
		expect(events.at(-1)).toMatchObject({ type: "result", result: { language: "en" } });
		expect(requests).toBe(1);
		await vi.waitFor(() => expect(scratchFolders()).toHaveLength(0));
	});

	it("is answered from its result once finished, without running again", async () => {
		hold();
		requests = 0;
		release();
		const done = await eventsOf(
			await signedPost(tier, renderJobs.transcribe.path, { audioUrl: `${audioUrl}/b.wav`, language: "en" }),
		);
		expect(done.at(-1)?.type).toBe("result");
		const again = await eventsOf(
			await signedPost(tier, renderJobs.transcribe.path, { audioUrl: `${audioUrl}/b.wav`, language: "en" }),
		);
		expect(again).toEqual([done.at(-1)]);
		expect(requests).toBe(1);
	});

	it("another request (another input) is another job", async () => {
		hold();
		requests = 0;
		release();
		for (const file of ["c.wav", "d.wav"])
			await eventsOf(
				await signedPost(tier, renderJobs.transcribe.path, { audioUrl: `${audioUrl}/${file}`, language: "en" }),
			);
		expect(requests).toBe(2);
	});

	it("is stopped when nobody comes back for it, and its scratch folder is removed", async () => {
		hold();
		requests = 0;
		const only = new AbortController();
		await startTranscription("e.wav", only.signal);
		await vi.waitFor(() => expect(requests).toBe(1));
		only.abort();
		// Still there within the grace a retry has to come back in …
		await new Promise((r) => setTimeout(r, 500));
		expect(scratchFolders()).toHaveLength(1);
		// … gone after it, although its input never arrived (the job was aborted, not finished).
		await vi.waitFor(() => expect(scratchFolders()).toHaveLength(0), { timeout: 5000 });
		release();
		// A later request runs the job afresh (an aborted job leaves no result).
		const fresh = await eventsOf(
			await signedPost(tier, renderJobs.transcribe.path, { audioUrl: `${audioUrl}/e.wav`, language: "en" }),
		);
		expect(fresh.at(-1)?.type).toBe("result");
		expect(requests).toBe(2);
		expect(existsSync(work)).toBe(true);
	});

	it("a download cut off mid-way leaves no partial file: the aborted job's folder is swept", async () => {
		// A host that sends the first part of a video, then nothing (the download is under way when the connection goes).
		const video = join(work, "..", `${work.split("/").pop()}-video.mp4`);
		execFileSync("ffmpeg", [
			"-hide_banner",
			"-loglevel",
			"error",
			"-y",
			"-f",
			"lavfi",
			"-i",
			"testsrc2=size=320x180:rate=25",
			"-f",
			"lavfi",
			"-i",
			"sine=duration=6",
			"-t",
			"6",
			"-c:v",
			"libx264",
			"-preset",
			"ultrafast",
			"-c:a",
			"aac",
			"-shortest",
			video,
		]);
		const bytes = readFileSync(video);
		const stalling = createServer((req, res) => {
			res.writeHead(200, {
				"content-type": "video/mp4",
				"content-length": String(bytes.length),
				"accept-ranges": "none",
			});
			if (req.method === "HEAD") return res.end();
			res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
		}).listen(0, "127.0.0.1");
		await new Promise((r) => stalling.once("listening", r));
		const server = createRenderServer({ abandonAfterMs: 0 }).listen(0, "127.0.0.1");
		await new Promise((r) => server.once("listening", r));
		const impatient = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const path = renderJobs.download.path;
			const body = JSON.stringify({
				videoId: "vid_cut_download",
				url: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/talk.mp4`,
				expectedDuration: 6,
			});
			const { signRenderRequest } = await import("@clipforge/contract");
			const authorization = await signRenderRequest(process.env.RENDER_SECRET!, { method: "POST", path, body });
			const connection = new AbortController();
			const response = await fetch(impatient + path, {
				method: "POST",
				headers: { "content-type": "application/json", authorization },
				body,
				signal: connection.signal,
			});
			expect(response.status).toBe(200);
			const folder = join(work, "vid_cut_download");
			await vi.waitFor(
				() =>
					expect(
						existsSync(folder) ? readdirSync(folder).some((f) => f.startsWith("download.")) : false,
					).toBe(true),
				{ timeout: 30_000, interval: 100 },
			);
			connection.abort();
			await vi.waitFor(() => expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]), {
				timeout: 10_000,
				interval: 100,
			});
		} finally {
			server.closeAllConnections();
			server.close();
			stalling.closeAllConnections();
			stalling.close();
		}
	});
});
