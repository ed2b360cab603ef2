/**
 * POST /api/videos/:id/reprocess end to end in the Workers runtime (real D1, R2 and Workflows, the
 * render tier faked): analyzing and generating_clips run again from the stored source and
 * transcript, the new clips replace the old ones once rendered, and the charging rule (first one
 * free, then half the frame's minutes; refunded on failure; never twice) holds.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace, ledgerSum, statusEvents } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { reconcileStaleVideos } from "../../src/worker/services/reconcile";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;

/** Posts a reprocess and waits for its workflow instance to end. */
async function reprocessAndWait(
	key: string,
	videoId: string,
	body: unknown,
	expectStatus: "complete" | "errored" = "complete",
	headers: Record<string, string> = {},
) {
	await using introspector = await introspectVideoRuns();
	const response = await call("POST", `/api/videos/${videoId}/reprocess`, { key, body, headers });
	if (response.status !== 202) return response;
	for (const instance of await introspector.get()) await instance.waitForStatus(expectStatus);
	return response;
}

async function clipsOf(key: string, videoId: string) {
	return (await call("GET", `/api/videos/${videoId}/clips`, { key })).body;
}

const renderCalls = (path: string) => fake().calls.filter((c) => c.path === path).length;

describe("reprocessing a finished video", () => {
	it("runs analyzing and generating_clips again with the new settings, replaces the clips, and the first one is free", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("talk"), { duration: 240 });
		const videoId = await submitAndProcess(apiKey, source, { clipDurationMin: 15, clipDurationMax: 30 });
		const before = await clipsOf(apiKey, videoId);
		expect(before.count).toBeGreaterThan(0);
		const balance = await balanceOf(workspaceId);
		const downloads = renderCalls(renderJobs.download.path);
		const transcriptions = renderCalls(renderJobs.transcribe.path) + renderCalls(renderJobs.extractAudio.path);

		const started = await reprocessAndWait(apiKey, videoId, {
			config: {
				aspectRatio: "1:1",
				clipDurationMin: 10,
				clipDurationMax: 20,
				customPrompt: "the bakery in Chicago",
			},
		});
		expect(started.status, JSON.stringify(started.body)).toBe(202);
		expect(started.body.reprocess).toMatchObject({
			id: `${videoId}-r1`,
			number: 1,
			status: "processing",
			minutesCharged: 0,
		});
		expect(started.body.video).toMatchObject({ status: "analyzing", progress: 55 });
		expect(started.body.video.config).toMatchObject({
			aspectRatio: "1:1",
			clipDurationMin: 10,
			clipDurationMax: 20,
			customPrompt: "the bakery in Chicago",
			enableWatermark: true,
		});

		// No new download, audio extraction or transcription.
		expect(renderCalls(renderJobs.download.path)).toBe(downloads);
		expect(renderCalls(renderJobs.transcribe.path) + renderCalls(renderJobs.extractAudio.path)).toBe(
			transcriptions,
		);
		expect((await statusEvents(videoId)).slice(-4)).toEqual([
			"completed",
			"analyzing",
			"generating_clips",
			"completed",
		]);

		const status = (await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body;
		expect(status.video).toMatchObject({ status: "completed", errorMessage: null });
		expect(status.job.progress).toBe(100);
		const after = await clipsOf(apiKey, videoId);
		expect(after.count).toBeGreaterThan(0);
		for (const clip of after.clips) {
			// New ids, random (nothing in them says which video or reprocess made them).
			expect(clip.id).toMatch(/^clp_[A-Za-z0-9]{16}$/);
			expect(before.clips.some((old: { id: string }) => old.id === clip.id)).toBe(false);
			expect(clip.aspectRatio).toBe("1:1");
			expect(clip.duration).toBeGreaterThanOrEqual(10);
			expect(clip.duration).toBeLessThanOrEqual(20);
			const file = await call("GET", new URL(clip.downloadUrl).pathname + new URL(clip.downloadUrl).search);
			expect(file.body).toMatchObject({ aspectRatio: "1:1", clip: clip.id });
		}
		// The old clips are gone, rows and files; their signed links no longer serve anything.
		const old = before.clips[0];
		expect((await call("GET", new URL(old.downloadUrl).pathname + new URL(old.downloadUrl).search)).status).toBe(
			403,
		);
		const stored = (await env.MEDIA.list({ prefix: `clips/${videoId}/` })).objects.map((o) => o.key);
		expect(stored.filter((k) => !k.endsWith("watermark.png")).sort()).toEqual(
			after.clips
				.flatMap((c: { id: string }) => [`clips/${videoId}/${c.id}.jpg`, `clips/${videoId}/${c.id}.mp4`])
				.sort(),
		);

		expect(await balanceOf(workspaceId)).toBe(balance);
		expect(await ledgerSum(workspaceId)).toBe(balance);
		const list = (await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body;
		expect(list.reprocesses).toHaveLength(1);
		expect(list.reprocesses[0]).toMatchObject({
			status: "completed",
			minutesCharged: 0,
			clipsCount: after.count,
			errorMessage: null,
		});
		// The next one costs half of the 4-minute frame.
		expect(list.next).toMatchObject({ minutes: 2, freeReprocessesLeft: 0 });
	});

	it("charges the second one half the frame's minutes, once, and keeps the balance equal to the ledger", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 300 }), {});
		expect(await balanceOf(workspaceId)).toBe(95);
		expect(
			(await reprocessAndWait(apiKey, videoId, { config: { aspectRatio: "16:9" } })).body.reprocess
				.minutesCharged,
		).toBe(0);
		// A 2-minute time frame this time: ceil(2 / 2) = 1 minute.
		const second = await reprocessAndWait(apiKey, videoId, { config: { timeframeStart: 60, timeframeEnd: 180 } });
		expect(second.status).toBe(202);
		expect(second.body.reprocess).toMatchObject({ id: `${videoId}-r2`, minutesCharged: 1 });
		expect(await balanceOf(workspaceId)).toBe(94);
		expect(await ledgerSum(workspaceId)).toBe(94);
		const rows = await env.DB.prepare("SELECT kind, minutes FROM minutes_ledger WHERE video_id = ?")
			.bind(`${videoId}-r2`)
			.all();
		expect(rows.results).toEqual([{ kind: "charge", minutes: -1 }]);
		for (const clip of (await clipsOf(apiKey, videoId)).clips) {
			expect(clip.startTime).toBeGreaterThanOrEqual(60);
			expect(clip.endTime).toBeLessThanOrEqual(180);
		}
	});

	it("fails with the cause, keeps the previous clips and config, and refunds the reprocess (not the video)", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), {
			clipDurationMin: 15,
			clipDurationMax: 30,
		});
		await reprocessAndWait(apiKey, videoId, { config: { genre: "Podcast" } });
		const before = await clipsOf(apiKey, videoId);
		const balance = await balanceOf(workspaceId);

		fake().failAlways(renderJobs.renderClip.path, {
			code: "process_failed",
			message: "ffmpeg could not open the font",
			retryable: false,
		});
		const started = await reprocessAndWait(apiKey, videoId, { config: { aspectRatio: "1:1" } }, "errored");
		expect(started.body.reprocess.minutesCharged).toBe(2);
		expect(await balanceOf(workspaceId)).toBe(balance);
		expect(await ledgerSum(workspaceId)).toBe(balance);

		const status = (await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body;
		expect(status.video.status).toBe("failed");
		expect(status.video.errorMessage).toBe(
			"Reprocessing with the new settings failed: Rendering a clip failed: ffmpeg could not open the font. The previous clips and settings are kept and its 2 minute(s) were refunded.",
		);
		const detail = (await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body;
		expect(detail.config).toMatchObject({ aspectRatio: "9:16", genre: "Podcast" });
		const after = await clipsOf(apiKey, videoId);
		expect(after.clips.map((c: { id: string }) => c.id)).toEqual(before.clips.map((c: { id: string }) => c.id));
		expect(
			(
				await call(
					"GET",
					new URL(after.clips[0].downloadUrl).pathname + new URL(after.clips[0].downloadUrl).search,
				)
			).status,
		).toBe(200);
		// The failed reprocess's files are gone: every clip file left is a listed clip's.
		const listed = after.clips.map((c: { id: string }) => c.id);
		for (const { key } of (await env.MEDIA.list({ prefix: `clips/${videoId}/` })).objects)
			expect(key.endsWith("watermark.png") || listed.some((id: string) => key.includes(id)), key).toBe(true);
		const list = (await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body;
		expect(list.reprocesses.map((r: { status: string }) => r.status)).toEqual(["completed", "failed"]);

		// Its files were kept: it can be reprocessed again (and the failed one did not count).
		fake().failures.clear();
		const again = await reprocessAndWait(apiKey, videoId, { config: { aspectRatio: "1:1" } });
		expect(again.status).toBe(202);
		expect(again.body.reprocess).toMatchObject({ number: 3, minutesCharged: 2 });
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe(
			"completed",
		);
	});

	it("a failed free reprocess leaves the free one unused", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {});
		fake().failAlways(renderJobs.renderClip.path, { code: "process_failed", message: "boom", retryable: false });
		await reprocessAndWait(apiKey, videoId, {}, "errored");
		const list = (await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body;
		expect(list.next).toMatchObject({ minutes: 0, freeReprocessesLeft: 1 });
	});

	it("makes clips for a transcribe-only video", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {
			skipClipping: true,
		});
		expect((await clipsOf(apiKey, videoId)).count).toBe(0);
		expect(
			(await reprocessAndWait(apiKey, videoId, { config: { clipDurationMin: 10, clipDurationMax: 30 } })).status,
		).toBe(202);
		expect((await clipsOf(apiKey, videoId)).count).toBeGreaterThan(0);
		expect((await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.config.skipClipping).toBe(false);
	});
});

describe("a reprocess the workspace itself breaks", () => {
	async function ownBackground(apiKey: string): Promise<string> {
		const bgUrl = `https://media.example.com/bg/${crypto.randomUUID()}.mp4`;
		fake().media.add(bgUrl);
		const created = await call("POST", "/api/backgrounds", { key: apiKey, body: { url: bgUrl } });
		expect(created.status).toBe(201);
		return created.body.id as string;
	}

	/** While the reprocess renders: every clip it is making is asked for by id, then its background deleted. */
	function attackDuringRender(apiKey: string, videoId: string, backgroundId: string, seen: number[]) {
		fake().before.set(renderJobs.renderClip.path, async () => {
			const rows = await env.DB.prepare("SELECT id FROM clips WHERE video_id = ? AND generation > 0")
				.bind(videoId)
				.all<{ id: string }>();
			expect(rows.results.length).toBeGreaterThan(0);
			for (const { id } of rows.results)
				seen.push((await call("GET", `/api/clips/${id}`, { key: apiKey })).status);
			seen.push((await call("GET", `/api/clips/${rows.results[0]!.id}/captions`, { key: apiKey })).status);
			expect((await call("DELETE", `/api/backgrounds/${backgroundId}`, { key: apiKey })).status).toBe(204);
		});
	}

	it("deleting the background it draws: its clips are never served, its charge stays, and it counts toward the free one", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), {
			clipDurationMin: 15,
			clipDurationMax: 30,
		});
		const firstClips = (await clipsOf(apiKey, videoId)).clips.map((c: { id: string }) => c.id);
		const balance = await balanceOf(workspaceId);

		// The free one, broken by the workspace: it is used up all the same.
		const seen: number[] = [];
		const firstBackground = await ownBackground(apiKey);
		attackDuringRender(apiKey, videoId, firstBackground, seen);
		const free = await reprocessAndWait(
			apiKey,
			videoId,
			{ config: { enableSplitScreen: true, splitScreenBgVideoId: firstBackground } },
			"errored",
		);
		expect(free.status).toBe(202);
		expect(seen.length).toBeGreaterThan(1);
		expect(seen.every((status) => status === 404)).toBe(true);
		let list = (await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body;
		expect(list.reprocesses[0]).toMatchObject({ status: "failed", minutesCharged: 0 });
		expect(list.reprocesses[0].errorMessage).toMatch(/was deleted by the workspace.*not refunded/);
		expect(list.next).toMatchObject({ minutes: 2, freeReprocessesLeft: 0 });
		const detail = (await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body;
		expect(detail.status).toBe("failed");
		expect(detail.config.enableSplitScreen).toBe(false);
		expect((await clipsOf(apiKey, videoId)).clips.map((c: { id: string }) => c.id)).toEqual(firstClips);

		// A charged one broken so keeps its charge.
		const seenAgain: number[] = [];
		const backgroundId = await ownBackground(apiKey);
		attackDuringRender(apiKey, videoId, backgroundId, seenAgain);
		const charged = await reprocessAndWait(
			apiKey,
			videoId,
			{ config: { enableSplitScreen: true, splitScreenBgVideoId: backgroundId } },
			"errored",
		);
		expect(charged.body.reprocess).toMatchObject({ number: 2, minutesCharged: 2 });
		expect(seenAgain.every((status) => status === 404)).toBe(true);
		expect(await balanceOf(workspaceId)).toBe(balance - 2);
		expect(await ledgerSum(workspaceId)).toBe(balance - 2);
		list = (await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body;
		expect(list.reprocesses.map((r: { status: string }) => r.status)).toEqual(["failed", "failed"]);
		expect(list.next).toMatchObject({ minutes: 2, freeReprocessesLeft: 0 });
	});
});

describe("reprocess refusals (nothing charged)", () => {
	it("refuses while processing (409 video_processing), before processing (409 conflict), and a second one at once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {});
		await env.DB.prepare("UPDATE videos SET status = 'transcribing' WHERE id = ?").bind(videoId).run();
		const busy = await call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: {} });
		expect(busy.status).toBe(409);
		expect(busy.body.error).toMatchObject({
			code: "video_processing",
			message: "The video is still processing (transcribing); reprocess it once it has completed.",
		});
		await env.DB.prepare("UPDATE videos SET status = 'completed' WHERE id = ?").bind(videoId).run();

		const pendingUrl = fake().addSource(url("pending"), { duration: 60 });
		const pending = (await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: pendingUrl } }))
			.body.video.id;
		expect(
			(await call("POST", `/api/videos/${pending}/reprocess`, { key: apiKey, body: {} })).body.error.code,
		).toBe("conflict");

		// Two at once: one starts, the other is refused; one reprocess row.
		await using introspector = await introspectVideoRuns();
		const balance = await balanceOf(workspaceId);
		const answers = await Promise.all(
			[1, 2, 3].map(() => call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: {} })),
		);
		expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
		expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === "video_processing")).toBe(
			true,
		);
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		expect(
			(await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body.reprocesses,
		).toHaveLength(1);
		expect(await balanceOf(workspaceId)).toBe(balance);
	});

	it("takes one of the workspace's processing slots: with its plan's limit in use, a (free) reprocess is refused with 429 queue_full, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		await env.DB.prepare("UPDATE plans SET max_concurrent_videos = 1 WHERE workspace_id = ?")
			.bind(workspaceId)
			.run();
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {
			clipDurationMin: 15,
			clipDurationMax: 30,
		});
		const busy = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {
			clipDurationMin: 15,
			clipDurationMax: 30,
		});
		// Another video of the workspace holds its one slot.
		await env.DB.prepare("UPDATE videos SET status = 'generating_clips' WHERE id = ?").bind(busy).run();
		const balance = await balanceOf(workspaceId);
		const refused = await call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: {} });
		expect(refused.status).toBe(429);
		expect(refused.response.headers.get("retry-after")).toBe("60");
		expect(refused.body.error).toMatchObject({ code: "queue_full", details: { maxConcurrent: 1 } });
		expect(
			(await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body.reprocesses,
		).toHaveLength(0);
		expect(await balanceOf(workspaceId)).toBe(balance);

		await env.DB.prepare("UPDATE videos SET status = 'completed' WHERE id = ?").bind(busy).run();
		expect((await reprocessAndWait(apiKey, videoId, {})).status).toBe(202);
	});

	it("refuses a video whose source was cleaned up, or that failed on its first run (410 source_deleted)", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {});
		await env.MEDIA.delete(`sources/${videoId}/source.mp4`);
		const gone = await call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: {} });
		expect(gone.status).toBe(410);
		expect(gone.body.error.code).toBe("source_deleted");

		const broken = fake().addSource(url("broken"), { duration: 60 });
		fake().failNext(renderJobs.download.path, {
			code: "unsupported_source",
			message: "The source answered HTTP 404.",
			retryable: false,
		});
		const failed = await submitAndProcess(apiKey, broken, {}, "errored");
		const refused = await call("POST", `/api/videos/${failed}/reprocess`, { key: apiKey, body: {} });
		expect(refused.status).toBe(410);
		expect(refused.body.error.message).toMatch(/failed and its stored files were deleted/);
		expect(await balanceOf(workspaceId)).toBe(98);
		expect((await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body.reprocesses).toEqual([]);
	});

	it("refuses settings a transcript cannot serve, and bad config, with the fields in details", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 300 }), {
			timeframeStart: 30,
			timeframeEnd: 200,
			language: "en",
		});
		const refuse = async (config: unknown) => {
			const answer = await call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: { config } });
			expect(answer.status).toBe(400);
			expect(answer.body.error.code).toBe("invalid_request");
			return answer.body.error.details.map((d: { path: string }) => d.path);
		};
		expect(await refuse({ language: "es" })).toEqual(["config.language"]);
		expect(await refuse({ timeframeStart: 0 })).toEqual(["config.timeframeStart"]);
		expect(await refuse({ timeframeEnd: 250 })).toEqual(["config.timeframeEnd"]);
		expect(await refuse({ skipClipping: true })).toEqual(["config.skipClipping"]);
		expect(await refuse({ clipDurationMin: 120 })).toEqual(["config.clipDurationMax"]); // 120 > the kept max of 90
		expect(await refuse({ aspectRatio: "4:3" })).toEqual(["config.aspectRatio"]);
		expect(await refuse({ colour: "red" })).toEqual(["config"]);
		expect(await refuse({ enableSplitScreen: true, splitScreenBgVideoId: "bg_nope" })).toEqual([
			"config.splitScreenBgVideoId",
		]);
		expect((await call("GET", `/api/videos/${videoId}/reprocesses`, { key: apiKey })).body.reprocesses).toEqual([]);
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe(
			"completed",
		);
	});

	it("refuses a charged reprocess the balance cannot cover (402), and another workspace's video (404)", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 6 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 300 }), {});
		await reprocessAndWait(apiKey, videoId, {});
		expect(await balanceOf(workspaceId)).toBe(1);
		const poor = await call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: {} });
		expect(poor.status).toBe(402);
		expect(poor.body.error).toMatchObject({ code: "insufficient_minutes", details: { required: 3, balance: 1 } });
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe(
			"completed",
		);
		const other = await createWorkspace();
		expect((await call("POST", `/api/videos/${videoId}/reprocess`, { key: other.apiKey, body: {} })).status).toBe(
			404,
		);
	});
});

describe("reprocess and money", () => {
	it("replays an Idempotency-Key instead of starting (or charging) a second reprocess", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 120 }), {});
		await reprocessAndWait(apiKey, videoId, {});
		const balance = await balanceOf(workspaceId);
		const headers = { "idempotency-key": `rep-${crypto.randomUUID()}` };
		const first = await reprocessAndWait(apiKey, videoId, { config: { genre: "Gaming" } }, "complete", headers);
		const again = await call("POST", `/api/videos/${videoId}/reprocess`, {
			key: apiKey,
			body: { config: { genre: "Gaming" } },
			headers,
		});
		expect(again.status).toBe(202);
		expect(again.response.headers.get("idempotent-replayed")).toBe("true");
		expect(again.body.reprocess.id).toBe(first.body.reprocess.id);
		expect(await balanceOf(workspaceId)).toBe(balance - 1);
		expect(
			(
				await call("POST", `/api/videos/${videoId}/reprocess`, {
					key: apiKey,
					body: { config: { genre: "Podcast" } },
					headers,
				})
			).status,
		).toBe(409);
	});

	it("deleting a video mid-reprocess refunds the reprocess only (the video's own minutes were delivered)", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), {});
		await reprocessAndWait(apiKey, videoId, {});
		expect(await balanceOf(workspaceId)).toBe(96);
		fake().failAlways(renderJobs.renderClip.path, "hang");
		const started = await call("POST", `/api/videos/${videoId}/reprocess`, {
			key: apiKey,
			body: { config: { aspectRatio: "1:1" } },
		});
		expect(started.body.reprocess.minutesCharged).toBe(2);
		expect(await balanceOf(workspaceId)).toBe(94);
		const deleted = await call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 2 });
		expect(await balanceOf(workspaceId)).toBe(96);
		expect(await ledgerSum(workspaceId)).toBe(96);
		expect(
			await env.DB.prepare("SELECT COUNT(*) AS n FROM video_reprocesses WHERE video_id = ?")
				.bind(videoId)
				.first<number>("n"),
		).toBe(0);
		// A completed, reprocessed video is deleted without a refund.
		fake().failures.clear();
		const other = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 60 }), {});
		await reprocessAndWait(apiKey, other, {});
		expect((await call("DELETE", `/api/videos/${other}`, { key: apiKey })).body.minutesRefunded).toBe(0);
	});

	it("the reconciler fails a reprocess whose workflow died: its minutes back, the video's files kept", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), {});
		await reprocessAndWait(apiKey, videoId, {});
		// A charged reprocess whose instance never existed (as if the engine lost it), stale for an hour.
		await env.DB.batch([
			env.DB.prepare("UPDATE workspaces SET minutes_balance = minutes_balance - 2 WHERE id = ?").bind(
				workspaceId,
			),
			env.DB.prepare(
				`INSERT INTO video_reprocesses (id, video_id, workspace_id, number, status, config, previous_config, minutes_charged)
				 SELECT ?1, id, workspace_id, 2, 'processing', config, config, 2 FROM videos WHERE id = ?2`,
			).bind(`${videoId}-r2`, videoId),
			env.DB.prepare(
				"INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes) VALUES (?1, ?2, 'charge', -2)",
			).bind(workspaceId, `${videoId}-r2`),
			env.DB.prepare(
				"UPDATE videos SET status = 'generating_clips', updated_at = '2020-01-01T00:00:00.000Z' WHERE id = ?",
			).bind(videoId),
		]);
		const report = await reconcileStaleVideos(env);
		expect(report.failed).toContain(videoId);
		const status = (await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body;
		expect(status.video.status).toBe("failed");
		expect(status.video.errorMessage).toMatch(
			/^Reprocessing with the new settings failed: it stopped unexpectedly \(its processing job no longer exists\)\. The previous clips and settings are kept and its 2 minute\(s\) were refunded\.$/,
		);
		expect(await balanceOf(workspaceId)).toBe(96);
		expect(await ledgerSum(workspaceId)).toBe(96);
		expect(await env.MEDIA.head(`sources/${videoId}/source.mp4`)).not.toBeNull();
		expect((await clipsOf(apiKey, videoId)).count).toBeGreaterThan(0);
	});
});
