import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });

const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/r/${crypto.randomUUID()}`, { duration });

describe("GET /api/videos", () => {
	it("lists newest first, filters by status and project, and pages with a cursor", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		await env.DB.prepare("INSERT INTO projects (id, workspace_id, name) VALUES (?1, ?2, 'p')")
			.bind(`prj_${workspaceId}`, workspaceId)
			.run();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			const body =
				i % 2 === 0 ? { hostedUrl: source(60), projectId: `prj_${workspaceId}` } : { hostedUrl: source(60) };
			ids.push((await call("POST", "/api/videos/hosted", { key: apiKey, body })).body.video.id);
		}
		const all = await call("GET", "/api/videos", { key: apiKey });
		expect(all.body.videos.map((v: { id: string }) => v.id)).toEqual([...ids].reverse());
		expect(all.body.nextCursor).toBeNull();

		const first = await call("GET", "/api/videos?limit=2", { key: apiKey });
		const second = await call("GET", `/api/videos?limit=2&cursor=${first.body.nextCursor}`, { key: apiKey });
		const third = await call("GET", `/api/videos?limit=2&cursor=${second.body.nextCursor}`, { key: apiKey });
		expect(
			[...first.body.videos, ...second.body.videos, ...third.body.videos].map((v: { id: string }) => v.id),
		).toEqual([...ids].reverse());
		expect(third.body.nextCursor).toBeNull();

		const inProject = await call("GET", `/api/videos?projectId=prj_${workspaceId}`, { key: apiKey });
		expect(inProject.body.videos).toHaveLength(3);
		const pending = await call("GET", "/api/videos?status=pending_config", { key: apiKey });
		expect(pending.body.videos).toHaveLength(5);
		expect((await call("GET", "/api/videos?status=completed", { key: apiKey })).body.videos).toHaveLength(0);
	});

	it("never lists another workspace's videos, and refuses a bad cursor or filter with 400", async () => {
		const mine = await createWorkspace();
		const theirs = await createWorkspace();
		await call("POST", "/api/videos/hosted", { key: theirs.apiKey, body: { hostedUrl: source(60) } });
		expect((await call("GET", "/api/videos", { key: mine.apiKey })).body.videos).toHaveLength(0);
		expect((await call("GET", "/api/videos?cursor=garbage", { key: mine.apiKey })).status).toBe(400);
		expect((await call("GET", "/api/videos?status=done", { key: mine.apiKey })).status).toBe(400);
		expect((await call("GET", "/api/videos?limit=0", { key: mine.apiKey })).status).toBe(400);
	});
});

describe("DELETE /api/videos/:id", () => {
	it("refunds an unfinished video in full and removes it", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(300) } });
		expect(await balanceOf(workspaceId)).toBe(15);
		const deleted = await call("DELETE", `/api/videos/${created.body.video.id}`, { key: apiKey });
		expect(deleted.status).toBe(200);
		expect(deleted.body).toEqual({ id: created.body.video.id, deleted: true, minutesRefunded: 5 });
		expect(await balanceOf(workspaceId)).toBe(20);
		expect(await ledgerSum(workspaceId)).toBe(20);
		expect((await call("GET", `/api/videos/${created.body.video.id}`, { key: apiKey })).status).toBe(404);
		expect((await call("DELETE", `/api/videos/${created.body.video.id}`, { key: apiKey })).status).toBe(404);
	});

	it("keeps the charge of a completed video and deletes its files and clips", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const videoId = await submitAndProcess(apiKey, source(60), { clipDurationMin: 10, clipDurationMax: 20 });
		const clipsBefore = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(clipsBefore.body.count).toBeGreaterThan(0);
		expect((await env.MEDIA.list({ prefix: `clips/${videoId}/` })).objects.length).toBeGreaterThan(0);
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		expect(deleted.body.minutesRefunded).toBe(0);
		expect(await balanceOf(workspaceId)).toBe(19);
		for (const prefix of [`clips/${videoId}/`, `sources/${videoId}/`, `transcripts/${videoId}`]) {
			expect((await env.MEDIA.list({ prefix })).objects).toHaveLength(0);
		}
		expect(
			(
				await call(
					"GET",
					new URL(clipsBefore.body.clips[0].downloadUrl).pathname +
						new URL(clipsBefore.body.clips[0].downloadUrl).search,
				)
			).status,
		).toBe(403);
	});

	it("cannot delete another workspace's video (404)", async () => {
		const owner = await createWorkspace();
		const stranger = await createWorkspace();
		const created = await call("POST", "/api/videos/hosted", {
			key: owner.apiKey,
			body: { hostedUrl: source(60) },
		});
		expect((await call("DELETE", `/api/videos/${created.body.video.id}`, { key: stranger.apiKey })).status).toBe(
			404,
		);
		expect((await call("GET", `/api/videos/${created.body.video.id}`, { key: owner.apiKey })).status).toBe(200);
	});
});

describe("GET /api/videos/:id/transcript", () => {
	it("serves JSON with word timings, SRT, WebVTT and text", async () => {
		const { apiKey } = await createWorkspace();
		const videoId = await submitAndProcess(apiKey, source(45), { skipClipping: true });
		const json = await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey });
		expect(json.status).toBe(200);
		expect(json.body.language).toBe("en");
		expect(json.body.words[0]).toEqual({ word: "Welcome", start: expect.any(Number), end: expect.any(Number) });

		const srt = await call("GET", `/api/videos/${videoId}/transcript?format=srt`, { key: apiKey });
		expect(srt.response.headers.get("content-type")).toMatch(/^application\/x-subrip/);
		expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:01,620\nWelcome back to the show\.\n\n2\n/);
		const vtt = await call("GET", `/api/videos/${videoId}/transcript?format=vtt`, { key: apiKey });
		expect(vtt.body).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.620\nWelcome back to the show\.\n/);
		const txt = await call("GET", `/api/videos/${videoId}/transcript?format=txt`, { key: apiKey });
		expect(txt.body.split("\n")[1]).toBe("Today we are talking about sleep and how it shapes your work.");
		expect((await call("GET", `/api/videos/${videoId}/transcript?format=doc`, { key: apiKey })).status).toBe(400);
	});

	it("answers 409 before the transcript exists", async () => {
		const { apiKey } = await createWorkspace();
		const created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(60) } });
		const early = await call("GET", `/api/videos/${created.body.video.id}/transcript`, { key: apiKey });
		expect(early.status).toBe(409);
		expect(early.body.error.details).toEqual({ status: "pending_config" });
	});
});

describe("GET /api/videos/:id/clips parameters", () => {
	it("filters by minScore, sorts by score or time, and pages with limit + cursor", async () => {
		const { apiKey } = await createWorkspace();
		const videoId = await submitAndProcess(apiKey, source(240), { clipDurationMin: 10, clipDurationMax: 20 });
		const all = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body;
		expect(all.count).toBeGreaterThanOrEqual(4);
		const scores = all.clips.map((c: { score: number }) => c.score);
		const threshold = scores[Math.floor(scores.length / 2)];
		const high = (await call("GET", `/api/videos/${videoId}/clips?minScore=${threshold}`, { key: apiKey })).body;
		expect(high.clips.every((c: { score: number }) => c.score >= threshold)).toBe(true);
		expect(high.count).toBe(scores.filter((s: number) => s >= threshold).length);

		const byTime = (await call("GET", `/api/videos/${videoId}/clips?sort=time`, { key: apiKey })).body.clips.map(
			(c: { startTime: number }) => c.startTime,
		);
		expect(byTime).toEqual([...byTime].sort((a, b) => a - b));

		const page1 = (await call("GET", `/api/videos/${videoId}/clips?limit=2`, { key: apiKey })).body;
		const page2 = (
			await call("GET", `/api/videos/${videoId}/clips?limit=2&cursor=${page1.nextCursor}`, { key: apiKey })
		).body;
		expect(page1.count).toBe(2);
		expect([...page1.clips, ...page2.clips].map((c: { id: string }) => c.id)).toEqual(
			all.clips.slice(0, 2 + page2.count).map((c: { id: string }) => c.id),
		);
		expect((await call("GET", `/api/videos/${videoId}/clips?sort=random`, { key: apiKey })).status).toBe(400);
	});
});
