/** The SDK's clip calls against a scripted fetch: the requests they send and what they return. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient, EXIT_CODES, exitCodeFor } from "../src/index.ts";

function recording(answer: (url: URL, init: RequestInit) => Response) {
	const seen: { url: URL; init: RequestInit }[] = [];
	const fetchStub = (async (url: string, init: RequestInit) => {
		seen.push({ url: new URL(url), init });
		return answer(new URL(url), init);
	}) as unknown as typeof fetch;
	return { fetch: fetchStub, seen };
}

const clip = (status: string, extra: Record<string, unknown> = {}) => ({
	id: "clp_1",
	status,
	words: [],
	editError: null,
	...extra,
});

describe("clip calls", () => {
	it("sends the list's filters as the API spells them (favorited as true/false)", async () => {
		const { fetch, seen } = recording(() =>
			Response.json({ videoId: "vid_1", clips: [], count: 0, nextCursor: null }),
		);
		await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch }).listClips("vid_1", {
			minScore: 50,
			maxScore: 90,
			favorited: false,
			status: "completed",
			sortBy: "startTime",
			sortOrder: "asc",
		});
		expect(seen[0]!.url.pathname).toBe("/api/videos/vid_1/clips");
		expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
			minScore: "50",
			maxScore: "90",
			favorited: "false",
			status: "completed",
			sortBy: "startTime",
			sortOrder: "asc",
		});
	});

	it("PATCHes only the changes, and waitForClip polls until the clip is no longer generating", async () => {
		const answers = [clip("generating", { edits: 1 }), clip("generating"), clip("completed", { edits: 1 })];
		const { fetch, seen } = recording(() => Response.json(answers.shift()));
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch });
		const started = await cf.updateClip("clp_1", { startTime: 12.5, captionWords: [{ index: 0, word: "Hello" }] });
		expect(started.status).toBe("generating");
		expect(seen[0]!.init.method).toBe("PATCH");
		expect(JSON.parse(String(seen[0]!.init.body))).toEqual({
			startTime: 12.5,
			captionWords: [{ index: 0, word: "Hello" }],
		});
		const done = await cf.waitForClip("clp_1", { intervalMs: 1 });
		expect(done.status).toBe("completed");
		expect(seen.map((s) => s.url.pathname)).toEqual(["/api/clips/clp_1", "/api/clips/clp_1", "/api/clips/clp_1"]);
	});

	it("a clip being rendered again is exit code 2 like other state conflicts", async () => {
		const { fetch } = recording(() =>
			Response.json({ error: { code: "clip_processing", message: "busy", requestId: "r" } }, { status: 409 }),
		);
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch })
			.updateClip("clp_1", { endTime: 30 })
			.catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "clip_processing", status: 409 });
		expect(exitCodeFor(error)).toBe(EXIT_CODES.usage);
	});

	it("reads captions as text and writes an export to a file", async () => {
		const { fetch, seen } = recording((url) =>
			url.pathname.endsWith("/captions")
				? new Response("WEBVTT\n\n", { headers: { "content-type": "text/vtt" } })
				: new Response(new Uint8Array([80, 75, 5, 6]), { headers: { "content-type": "application/zip" } }),
		);
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch });
		expect(await cf.clipCaptions("clp_1", "vtt")).toBe("WEBVTT\n\n");
		expect(seen[0]!.url.search).toBe("?format=vtt");
		const path = join(mkdtempSync(join(tmpdir(), "cf-export-")), "clips.zip");
		expect(await cf.exportToFile("vid_1", "zip", path, { favorited: true })).toBe(4);
		expect([...readFileSync(path)]).toEqual([80, 75, 5, 6]);
		expect(Object.fromEntries(seen[1]!.url.searchParams)).toEqual({ favorited: "true", format: "zip" });
	});
});

describe("the CLI's clip list", () => {
	it("says why a video has no clips, or fewer, before the list (the video's rankingNote)", async () => {
		const { clipsText } = await import("../src/cli/text.ts");
		const none =
			"No clips: all 80 s of speech in the time frame is greetings, sign-offs or housekeeping, with nothing that stands on its own as a clip. The minutes were refunded.";
		expect(clipsText([], [], none)).toBe(none);
		expect(clipsText([], [])).toBe("No clips.");
		const one = { score: 80, startTime: 2, endTime: 40, title: "A story", viralityReason: "It lands." };
		const text = clipsText([one as never], [], "Only 1 clip: …");
		expect(text.split("\n")[0]).toBe("Only 1 clip: …");
		expect(text).toContain("A story");
	});
});

describe("the CLI's --captions-from", () => {
	it("sends a URL as a URL, a file as its text, and refuses a file too long for a body", async () => {
		const { captionsFrom } = await import("../src/cli/captions-file.ts");
		const { writeFileSync } = await import("node:fs");
		expect(await captionsFrom("https://subs.example.com/talk.vtt")).toEqual({
			url: "https://subs.example.com/talk.vtt",
		});
		const dir = mkdtempSync(join(tmpdir(), "captions-"));
		const srt = join(dir, "talk.srt");
		writeFileSync(srt, "1\n00:00:00,000 --> 00:00:02,000\nनमस्ते\n");
		expect(await captionsFrom(srt)).toEqual({ text: "1\n00:00:00,000 --> 00:00:02,000\nनमस्ते\n" });
		writeFileSync(srt, "x".repeat(60_001));
		await expect(captionsFrom(srt)).rejects.toThrow(
			/longer than 60000 characters; put it where the service can fetch it/,
		);
		await expect(captionsFrom(join(dir, "missing.srt"))).rejects.toThrow(/cannot read/);
	});
});
