/**
 * The clip-level API as a client sees it: GET /api/clips/:id (the list's view, fresh signed URLs,
 * caption words), the list's filters and orders (and the seed's `sort`), favorites with PATCH, and
 * GET /api/videos/:id as the whole record with its clip counts.
 */
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;

async function processed(config: Record<string, unknown> = { clipDurationMin: 10, clipDurationMax: 30 }) {
	const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
	const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), config);
	const list = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body;
	expect(list.count).toBeGreaterThan(2);
	return { apiKey, workspaceId, videoId, clips: list.clips as Array<Record<string, any>> };
}

const path = (signed: string) => new URL(signed).pathname + new URL(signed).search;

describe("GET /api/clips/:id", () => {
	it("is the list's view with fresh signed URLs, plus the words its captions show", async () => {
		const { apiKey, videoId, clips } = await processed();
		const listed = clips[0]!;
		const { status, body, response } = await call("GET", `/api/clips/${listed.id}`, { key: apiKey });
		expect(status).toBe(200);
		expect(response.headers.get("cache-control")).toBe("no-store");
		const { downloadUrl, thumbnailUrl, words, ...rest } = body;
		const { downloadUrl: _d, thumbnailUrl: _t, ...listedRest } = listed;
		expect(rest).toEqual(listedRest);
		expect(rest).toMatchObject({
			videoId,
			status: "completed",
			favorited: false,
			edits: 0,
			editError: null,
			captionStyle: null,
		});
		expect((await call("GET", path(downloadUrl))).body).toMatchObject({ clip: listed.id });
		expect((await call("GET", path(thumbnailUrl))).status).toBe(200);
		// Words from the clip's start, indexed, inside the clip.
		expect(words.length).toBeGreaterThan(5);
		expect(words[0]).toMatchObject({ index: 0 });
		for (const w of words) {
			expect(w.start).toBeGreaterThanOrEqual(0);
			expect(w.end).toBeLessThanOrEqual(listed.duration + 0.001);
		}
		expect(words.map((w: { word: string }) => w.word.trim()).join(" ")).toBe(listed.transcript);
	});

	it("is 404 for an unknown clip and for another workspace's clip, 401 without credentials", async () => {
		const { clips } = await processed();
		const other = await createWorkspace();
		expect((await call("GET", `/api/clips/${clips[0]!.id}`, { key: other.apiKey })).body.error.code).toBe(
			"not_found",
		);
		expect(
			(await call("PATCH", `/api/clips/${clips[0]!.id}`, { key: other.apiKey, body: { favorited: true } }))
				.status,
		).toBe(404);
		expect((await call("GET", "/api/clips/clp_nope_1", { key: other.apiKey })).status).toBe(404);
		expect((await call("GET", `/api/clips/${clips[0]!.id}`, { key: null })).status).toBe(401);
	});
});

describe("favorites and the list's filters", () => {
	it("PATCH favorited is saved at once, counted, and filters the list", async () => {
		const { apiKey, videoId, clips } = await processed();
		const [a, b] = [clips[0]!, clips[2]!];
		for (const clip of [a, b]) {
			const patched = await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { favorited: true } });
			expect(patched.status).toBe(200);
			expect(patched.body).toMatchObject({ id: clip.id, favorited: true, status: "completed", edits: 0 });
		}
		const favorites = (await call("GET", `/api/videos/${videoId}/clips?favorited=true`, { key: apiKey })).body;
		expect(favorites.clips.map((c: { id: string }) => c.id)).toEqual([a.id, b.id]);
		expect(favorites.filters).toMatchObject({ favorited: true, sortBy: "score", sortOrder: "desc" });
		const others = (await call("GET", `/api/videos/${videoId}/clips?favorited=false`, { key: apiKey })).body;
		expect(others.count).toBe(clips.length - 2);

		const video = (await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body;
		expect(video).toMatchObject({ clipsCount: clips.length, favoritedClipsCount: 2 });
		await call("PATCH", `/api/clips/${a.id}`, {
			key: apiKey,
			body: { favorited: false, title: "  A better title " },
		});
		const again = (await call("GET", `/api/clips/${a.id}`, { key: apiKey })).body;
		expect(again).toMatchObject({ favorited: false, title: "A better title", status: "completed" });
		expect(again.updatedAt).toEqual(expect.any(String));
	});

	it("filters by score range and status, and orders by score, start, duration or creation either way", async () => {
		const { apiKey, videoId, clips } = await processed();
		const scores = clips.map((c) => c.score as number);
		const mid = [...scores].sort((x, y) => x - y)[Math.floor(scores.length / 2)]!;
		const list = async (query: string) =>
			(await call("GET", `/api/videos/${videoId}/clips?${query}`, { key: apiKey })).body;

		const ranged = await list(`minScore=${mid}&maxScore=${mid}`);
		expect(ranged.clips.length).toBe(scores.filter((s) => s === mid).length);
		expect((await list(`maxScore=${mid}`)).clips.every((c: { score: number }) => c.score <= mid)).toBe(true);
		expect((await list("status=completed")).count).toBe(clips.length);
		expect((await list("status=generating")).count).toBe(0);
		expect((await list("status=failed")).count).toBe(0);

		const starts = (await list("sortBy=startTime&sortOrder=asc")).clips.map(
			(c: { startTime: number }) => c.startTime,
		);
		expect(starts).toEqual([...starts].sort((x: number, y: number) => x - y));
		const startsDesc = (await list("sortBy=startTime")).clips.map((c: { startTime: number }) => c.startTime);
		expect(startsDesc).toEqual([...starts].reverse());
		const durations = (await list("sortBy=duration&sortOrder=asc")).clips.map(
			(c: { duration: number }) => c.duration,
		);
		expect(durations).toEqual([...durations].sort((x: number, y: number) => x - y));
		const worstFirst = (await list("sortBy=score&sortOrder=asc")).clips.map((c: { score: number }) => c.score);
		expect(worstFirst).toEqual([...scores].sort((x, y) => x - y));
		expect((await list("sortBy=createdAt")).count).toBe(clips.length);

		// The seed's parameters keep working unchanged.
		expect((await list("sort=time")).clips.map((c: { startTime: number }) => c.startTime)).toEqual(starts);
		expect((await list("sort=score")).clips.map((c: { id: string }) => c.id)).toEqual(clips.map((c) => c.id));
		expect((await list(`minScore=${mid}`)).clips.every((c: { score: number }) => c.score >= mid)).toBe(true);
	});

	it("refuses unknown values and a minScore above maxScore with 400 invalid_request", async () => {
		const { apiKey, videoId } = await processed();
		for (const query of [
			"sortBy=loudness",
			"sortOrder=up",
			"status=queued",
			"favorited=yes",
			"minScore=101",
			"minScore=80&maxScore=20",
		]) {
			const { status, body } = await call("GET", `/api/videos/${videoId}/clips?${query}`, { key: apiKey });
			expect(status, query).toBe(400);
			expect(body.error.code).toBe("invalid_request");
		}
	});
});

describe("GET /api/videos/:id", () => {
	it("returns the whole record: config with defaults, duration, language, error, charge and clip counts", async () => {
		const { apiKey, videoId, clips } = await processed({
			clipDurationMin: 10,
			clipDurationMax: 30,
			enableCaptions: true,
		});
		const { status, body } = await call("GET", `/api/videos/${videoId}`, { key: apiKey });
		expect(status).toBe(200);
		expect(body).toMatchObject({
			id: videoId,
			status: "completed",
			sourceType: "hosted",
			duration: 240,
			transcriptLanguage: "en",
			language: "en",
			errorMessage: null,
			minutesCharged: 4,
			clipsCount: clips.length,
			favoritedClipsCount: 0,
			progress: 100,
			videoInfo: { duration: 240 },
			config: {
				clipDurationMin: 10,
				clipDurationMax: 30,
				enableCaptions: true,
				aspectRatio: "9:16",
				captionTemplateId: "karaoke",
			},
		});
		expect(body.completedAt).toEqual(expect.any(String));
		// The list of videos shows the same counts.
		const listed = (await call("GET", "/api/videos", { key: apiKey })).body.videos.find(
			(v: { id: string }) => v.id === videoId,
		);
		expect(listed).toMatchObject({ clipsCount: clips.length, duration: 240 });
	});
});
