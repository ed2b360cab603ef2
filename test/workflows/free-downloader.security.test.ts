/**
 * The free downloader (issue 45, H1): submit a hosted video, take its stored source through
 * GET …/source-url while it is still processing, then DELETE it for a full refund. A source link
 * is a delivery: it is handed out only once the video's charge was delivered (`completed`), and
 * once one was signed the video's charge is never given back.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { fakeVideoFile, useFakeRenderTier } from "../helpers/fake-render-tier";
import { purgeExpiredSources } from "../../src/worker/services/source-retention";
import { signInternalObjectUrl } from "../../src/worker/services/signing";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/dl/${crypto.randomUUID()}.mp4`, { duration });
const pathOf = (link: string) => {
	const u = new URL(link);
	return u.pathname + u.search;
};
const sourceKeyOf = (videoId: string) =>
	env.DB.prepare("SELECT source_key FROM videos WHERE id = ?").bind(videoId).first<string | null>("source_key");

describe("the free downloader: source link, then DELETE", () => {
	it("a 75 s video still transcribing: the link is refused (409), so DELETE's refund gives nothing away", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		await using introspector = await introspectVideoRuns();
		const seen: { link?: { status: number; body: any }; download?: number } = {};
		let videoId = "";
		// While the tier transcribes (the video is `transcribing`), the attacker asks for the source…
		fake().before.set(renderJobs.transcribe.path, async () => {
			// The source is stored by now (the upload runs beside the audio): the window the issue found.
			for (let i = 0; i < 100 && !(await sourceKeyOf(videoId)); i++) await new Promise((r) => setTimeout(r, 20));
			const status = (await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status;
			expect(status).toBe("transcribing");
			seen.link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
			if (seen.link.status === 200)
				seen.download = (await call("GET", pathOf(seen.link.body.url), { key: null })).status;
		});
		// …and deletes it while the transcription still runs.
		fake().jobDelays.set(renderJobs.transcribe.path, 2000);
		const submitted = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(75), config: {} },
		});
		expect(submitted.status).toBe(201);
		videoId = submitted.body.video.id;
		expect(await balanceOf(workspaceId)).toBe(8);
		for (let i = 0; i < 400 && !seen.link; i++) await new Promise((r) => setTimeout(r, 25));
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		await (await introspector.get())[0]!.waitForStatus("terminated").catch(() => undefined);

		expect(seen.download).toBeUndefined();
		expect(seen.link?.status).toBe(409);
		expect(seen.link?.body.error).toMatchObject({ code: "conflict", details: { status: "transcribing" } });
		expect(JSON.stringify(seen.link?.body)).not.toContain("source?token");
		// Nothing was delivered, so the refund is owed, and nothing left with it.
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 2 });
		expect(await balanceOf(workspaceId)).toBe(10);
		expect(await ledgerSum(workspaceId)).toBe(10);
	});

	it("a completed video: the link is served, and DELETE then refunds nothing", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, source(75), {});
		const link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(link.status).toBe(200);
		expect((await call("GET", pathOf(link.body.url), { key: null })).status).toBe(200);
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 0 });
		expect(await balanceOf(workspaceId)).toBe(8);
		expect(await ledgerSum(workspaceId)).toBe(8);
	});

	it("the refund guard knows a link was signed: a video with a signed source is never refunded, whatever its status", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, source(75), { skipClipping: true });
		expect((await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey })).status).toBe(200);
		// Whatever path could ever put a delivered video back before `analyzing` (none does today), DELETE still refunds nothing.
		await env.DB.prepare("UPDATE videos SET status = 'transcribing' WHERE id = ?").bind(videoId).run();
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 0 });
		expect(await balanceOf(workspaceId)).toBe(8);
		expect(await ledgerSum(workspaceId)).toBe(8);
	});
});

describe("only what was paid for is kept and served", () => {
	it("timeframeStart 0, timeframeEnd 1 of a 75 s source costs 1 minute, and the source kept and served is that second", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const config = { timeframeStart: 0, timeframeEnd: 1, skipClipping: true };
		const videoId = await submitAndProcess(apiKey, source(75), config);
		expect(await balanceOf(workspaceId)).toBe(9);
		const link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(link.body).toMatchObject({ startsAt: 0 });
		// The fake tier's "file" says which stretch of the source it holds.
		const served = await call("GET", pathOf(link.body.url), { key: null });
		expect(served.status).toBe(200);
		expect(served.body.frame).toEqual({ start: 0, end: 1 });
	});

	it("a frame in the middle: the kept file holds 20-50 s, and clips, words and renders stay in the source's seconds", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const config = { timeframeStart: 20, timeframeEnd: 50, clipDurationMin: 5, clipDurationMax: 12 };
		const videoId = await submitAndProcess(apiKey, source(75), config);
		const link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(link.body.startsAt).toBe(20);
		expect((await call("GET", pathOf(link.body.url), { key: null })).body.frame).toEqual({ start: 20, end: 50 });

		const words = (await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey })).body.words as {
			start: number;
			end: number;
		}[];
		expect(words.length).toBeGreaterThan(20);
		expect(words.every((w) => w.start >= 20 && w.end <= 50)).toBe(true);
		const { clips } = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body;
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) {
			expect(clip.startTime).toBeGreaterThanOrEqual(20);
			expect(clip.endTime).toBeLessThanOrEqual(50);
			// Each rendered file shows the stretch of the source the API says (the tier read the kept file at its own times).
			const file = (await call("GET", pathOf(clip.downloadUrl), { key: null })).body;
			expect(file.start).toBeCloseTo(clip.startTime, 2);
			expect(file.end).toBeCloseTo(clip.endTime, 2);
		}
		// A clip edit reads the same kept file: trimmed by a second, it renders the new stretch.
		const [clip] = clips;
		const edited = await editAndWait(apiKey, clip.id, { startTime: clip.startTime + 1 });
		const file = (await call("GET", pathOf(edited.downloadUrl), { key: null })).body;
		expect(file.start).toBeCloseTo(edited.startTime, 2);
	});

	it("an upload with a narrower frame keeps only that frame: the rest of the uploaded file is deleted", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const file = fakeVideoFile({ duration: 75 }, 4096);
		const created = await call("POST", "/api/uploads", {
			key: apiKey,
			body: { fileName: "talk.mp4", size: file.length, contentType: "video/mp4" },
		});
		expect(created.status).toBe(201);
		const part = await exports.default.fetch(created.body.partUrlTemplate.replace("{partNumber}", "1"), {
			method: "PUT",
			body: file,
			headers: { "content-type": "application/octet-stream" },
		});
		expect(part.status).toBe(200);
		expect((await call("POST", `/api/uploads/${created.body.id}/complete`, { key: apiKey })).status).toBe(200);
		await using introspector = await introspectVideoRuns();
		const config = { timeframeStart: 10, timeframeEnd: 40, skipClipping: true };
		const submitted = await call("POST", "/api/videos/upload", {
			key: apiKey,
			body: { uploadId: created.body.id, config },
		});
		expect(submitted.status).toBe(201);
		await (await introspector.get())[0]!.waitForStatus("complete");
		const videoId = submitted.body.video.id;

		expect(await env.MEDIA.head(`sources/${videoId}/source.mp4`)).toBeNull();
		const link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(link.body.startsAt).toBe(10);
		const served = await call("GET", pathOf(link.body.url), { key: null });
		expect(served.body).toMatchObject({ framedUpload: true, frame: { start: 10, end: 40 } });
		const words = (await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey })).body.words as {
			start: number;
		}[];
		expect(words.length).toBeGreaterThan(10);
		expect(words.every((w) => w.start >= 10 && w.start < 40)).toBe(true);
	});
});

describe("sources expire under a retention", () => {
	const DAY = 86_400_000;

	it("kept 7 days after the video completed, then deleted by the cron: link 410, reprocess and re-render 410 saying why, the rest stays", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const config = { clipDurationMin: 5, clipDurationMax: 12 };
		const videoId = await submitAndProcess(apiKey, source(60), config);
		const link = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(link.status).toBe(200);
		const keptFor = Date.parse(link.body.keptUntil) - Date.now();
		expect(keptFor).toBeGreaterThan(7 * DAY - 60_000);
		expect(keptFor).toBeLessThanOrEqual(7 * DAY);

		// Six days on, nothing is due; eight days on, the source goes (the cron calls this every 5 minutes).
		expect((await purgeExpiredSources(env, Date.now() + 6 * DAY)).purged).toBe(0);
		expect((await call("GET", pathOf(link.body.url), { key: null })).status).toBe(200);
		expect((await purgeExpiredSources(env, Date.now() + 8 * DAY)).purged).toBeGreaterThanOrEqual(1);
		expect((await env.MEDIA.list({ prefix: `sources/${videoId}/` })).objects).toEqual([]);

		const refused = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(refused.status).toBe(410);
		expect(refused.body.error.code).toBe("source_deleted");
		expect(refused.body.error.message).toMatch(/kept 7 days after the video completed/);
		const old = await call("GET", pathOf(link.body.url), { key: null });
		expect(old.status).toBe(410);
		expect(old.body.error.code).toBe("source_deleted");

		const reprocess = await call("POST", `/api/videos/${videoId}/reprocess`, {
			key: apiKey,
			body: { config: { clipDurationMax: 15 } },
		});
		expect(reprocess.status).toBe(410);
		expect(reprocess.body.error).toMatchObject({ code: "source_deleted" });
		expect(reprocess.body.error.message).toMatch(/kept 7 days.*cannot be reprocessed.*Submit the URL again/);
		const { clips } = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body;
		expect(clips.length).toBeGreaterThan(0);
		const trim = await call("PATCH", `/api/clips/${clips[0].id}`, {
			key: apiKey,
			body: { startTime: clips[0].startTime + 1 },
		});
		expect(trim.status).toBe(410);
		expect(trim.body.error.message).toMatch(/kept 7 days.*cannot be rendered again/);

		// What was delivered stays: the clips' files, the transcript, the chapters.
		expect((await call("GET", pathOf(clips[0].downloadUrl), { key: null })).status).toBe(200);
		expect((await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey })).status).toBe(200);
		expect((await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).status).toBe(200);
		// And nothing may store the source again (a late job of the tier).
		const put = await call(
			"PUT",
			(await signInternalObjectUrl(env, `sources/${videoId}/source.mp4`, "PUT")).replace(
				env.INTERNAL_BASE_URL,
				"",
			),
			{
				rawBody: "late bytes",
				headers: { "content-type": "video/mp4", "content-length": "10" },
			},
		);
		expect(put.status).toBe(409);
	});
});

/** PATCHes a clip with a re-render and waits until it is drawn again. */
async function editAndWait(apiKey: string, clipId: string, changes: Record<string, unknown>) {
	await using introspector = await introspectVideoRuns();
	const patched = await call("PATCH", `/api/clips/${clipId}`, { key: apiKey, body: changes });
	expect(patched.status, JSON.stringify(patched.body)).toBe(202);
	for (const instance of await introspector.get()) await instance.waitForStatus("complete");
	return (await call("GET", `/api/clips/${clipId}`, { key: apiKey })).body;
}
