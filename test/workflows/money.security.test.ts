/**
 * Money under attack: the transcript-then-delete trick, refunds racing completion, and failures the
 * user causes on purpose. The balance always equals the ledger's sum, and a video that completed is
 * never refunded.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { getDb } from "../../src/worker/db/client";
import { markCompleted } from "../../src/worker/db/videos";
import { completeReprocess, failReprocess, startReprocess } from "../../src/worker/db/reprocesses";
import { VideoConfigInput } from "../../src/worker/domain/video-config";
import { markFailedAndRefund } from "../../src/worker/services/video-state";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/m/${crypto.randomUUID()}.mp4`, { duration });

const refundsOf = async (videoId: string) =>
	(await env.DB.prepare("SELECT COUNT(*) AS n FROM minutes_ledger WHERE video_id = ? AND kind = 'refund'")
		.bind(videoId)
		.first<number>("n")) ?? 0;

/** A charged video (submitted without config), then put in `status` with a transcript in R2, as a workflow would leave it. */
async function videoAt(apiKey: string, status: string, duration = 300): Promise<string> {
	let created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(duration) } });
	// These tests submit a dozen videos in a row, past the workspace's probes per 10 s: wait as told.
	while (created.status === 429) {
		await new Promise((r) => setTimeout(r, Number(created.response.headers.get("retry-after") ?? 1) * 1000));
		created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(duration) } });
	}
	expect(created.status).toBe(201);
	const id = created.body.video.id as string;
	const key = `transcripts/${id}.json`;
	await env.MEDIA.put(
		key,
		JSON.stringify({
			language: "en",
			duration,
			text: "secret words",
			segments: [],
			words: [{ word: "secret", start: 0, end: 1 }],
		}),
	);
	await env.DB.prepare("UPDATE videos SET status = ?1, transcript_key = ?2, config = ?3 WHERE id = ?4")
		.bind(status, key, JSON.stringify({ skipClipping: true }), id)
		.run();
	return id;
}

describe("transcript, then delete", () => {
	const cases: [status: string, transcript: number, refunded: boolean][] = [
		["downloading", 409, true],
		["uploading", 409, true],
		["transcribing", 409, true], // the merged transcript already sits in R2: not served
		["analyzing", 409, false],
		["generating_clips", 409, false],
		["completed", 200, false],
	];
	for (const [status, transcript, refunded] of cases) {
		it(`${status}: transcript ${transcript}, DELETE ${refunded ? "refunds" : "keeps the charge"}`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
			const id = await videoAt(apiKey, status);
			const got = await call("GET", `/api/videos/${id}/transcript?format=txt`, { key: apiKey });
			expect(got.status).toBe(transcript);
			if (transcript === 409) {
				expect(got.body.error).toMatchObject({ code: "conflict", details: { status } });
				expect(got.body.error.message).toMatch(/served once the video is completed/);
				expect(JSON.stringify(got.body)).not.toContain("secret");
			}
			const deleted = await call("DELETE", `/api/videos/${id}`, { key: apiKey });
			expect(deleted.status).toBe(200);
			expect(deleted.body.minutesRefunded).toBe(refunded ? 5 : 0);
			expect(await balanceOf(workspaceId)).toBe(refunded ? 20 : 15);
			expect(await ledgerSum(workspaceId)).toBe(await balanceOf(workspaceId));
		});
	}

	it("a failed video (refunded when it failed) is not refunded again by deleting it", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const id = await videoAt(apiKey, "transcribing");
		await markFailedAndRefund(getDb(env), id, "Transcription failed.");
		expect(await balanceOf(workspaceId)).toBe(20);
		expect((await call("GET", `/api/videos/${id}/transcript`, { key: apiKey })).body.error.message).toMatch(
			/failed/,
		);
		expect((await call("DELETE", `/api/videos/${id}`, { key: apiKey })).body.minutesRefunded).toBe(0);
		expect(await balanceOf(workspaceId)).toBe(20);
		expect(await ledgerSum(workspaceId)).toBe(20);
	});

	it("a transcribe-only video serves its transcript once completed, and deleting it then refunds nothing", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const id = await submitAndProcess(apiKey, source(60), { skipClipping: true });
		expect((await call("GET", `/api/videos/${id}/transcript`, { key: apiKey })).status).toBe(200);
		expect((await call("DELETE", `/api/videos/${id}`, { key: apiKey })).body.minutesRefunded).toBe(0);
		expect(await balanceOf(workspaceId)).toBe(9);
	});
});

describe("refunds racing completion", () => {
	it("concurrent DELETEs and a completing workflow: one DELETE wins, and a completed video is never refunded", async () => {
		// Two workspaces take turns: twelve rounds of one submission and four DELETEs stay within one
		// key's writes per minute and one workspace's probes per 10 s.
		const workspaces = [await createWorkspace({ minutes: 200 }), await createWorkspace({ minutes: 200 })];
		const db = getDb(env);
		let completedFirst = 0;
		let deletedFirst = 0;
		for (let round = 0; round < 12; round++) {
			const { apiKey } = workspaces[round % 2]!;
			const id = await videoAt(apiKey, "transcribing", 60);
			// The workflow's "finish" step of a transcribe-only video, landing before, among or after the DELETEs.
			const delay = [-1, 0, 1, 2, 4, 8][round % 6]!;
			const completing =
				delay < 0
					? markCompleted(db, id)
					: new Promise((r) => setTimeout(r, delay)).then(() => markCompleted(db, id));
			const deletes = Array.from({ length: 4 }, () => call("DELETE", `/api/videos/${id}`, { key: apiKey }));
			const [completed, ...answers] = await Promise.all([completing, ...deletes]);
			expect(
				answers.filter((a) => a.status === 200),
				`round ${round}`,
			).toHaveLength(1);
			expect(
				answers.filter((a) => a.status === 404),
				JSON.stringify(answers.map((a) => [a.status, a.body?.error?.code])),
			).toHaveLength(3);
			const refunded = answers.find((a) => a.status === 200)!.body.minutesRefunded;
			expect(await refundsOf(id)).toBe(completed ? 0 : 1);
			expect(refunded).toBe(completed ? 0 : 1);
			if (completed) completedFirst++;
			else deletedFirst++;
		}
		expect(completedFirst + deletedFirst).toBe(12);
		for (const { workspaceId } of workspaces)
			expect(await ledgerSum(workspaceId)).toBe(await balanceOf(workspaceId));
	});

	it("a failure (or the reconciler) racing completion refunds only a video that did not complete", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 200 });
		const db = getDb(env);
		for (let round = 0; round < 10; round++) {
			const id = await videoAt(apiKey, "generating_clips", 60);
			const [completed, failed] = await Promise.all([
				markCompleted(db, id),
				markFailedAndRefund(db, id, "Processing stopped unexpectedly."),
				markFailedAndRefund(db, id, "Processing stopped unexpectedly."),
			]);
			const status = await env.DB.prepare("SELECT status FROM videos WHERE id = ?")
				.bind(id)
				.first<string>("status");
			expect(status).toBe(completed ? "completed" : "failed");
			expect(await refundsOf(id)).toBe(status === "completed" ? 0 : 1);
			expect(failed.minutesRefunded).toBeLessThanOrEqual(1);
		}
		expect(await ledgerSum(workspaceId)).toBe(await balanceOf(workspaceId));
	});

	it("a completed video stays charged when a late failure step or the reconciler reaches it", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const id = await videoAt(apiKey, "generating_clips", 120);
		expect(await markCompleted(getDb(env), id)).toBe(true);
		expect(await markFailedAndRefund(getDb(env), id, "late failure")).toEqual({ ended: false, minutesRefunded: 0 });
		expect(await refundsOf(id)).toBe(0);
		expect(await balanceOf(workspaceId)).toBe(18);
		expect((await call("GET", `/api/videos/${id}`, { key: apiKey })).body.status).toBe("completed");
	});
});

describe("a reprocess's refund goes with its status change", () => {
	/** A completed video with a charged reprocess running (its workflow not started: the test plays its steps). */
	async function reprocessing(apiKey: string, workspaceId: string, number: number) {
		const id = await submitAndProcess(apiKey, source(240), { skipClipping: true });
		const config = VideoConfigInput.parse({ skipClipping: false });
		const reprocess = { id: `${id}-r${number}`, videoId: id, workspaceId, number, config, previousConfig: config };
		expect(await startReprocess(getDb(env), { ...reprocess, minutesCharged: 2 }, 10)).toBe(true);
		return reprocess;
	}

	it("a finish step that fails after the reprocess completed: the failure step refunds nothing", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const reprocess = await reprocessing(apiKey, workspaceId, 2);
		const ranking = { rankedBy: "offline", note: null, clips: 0 };
		await completeReprocess(getDb(env), reprocess, ranking);
		// The rest of "finish reprocess" failed for good: the workflow runs its failure step.
		expect(await failReprocess(getDb(env), reprocess, "cleaning up failed")).toBe(0);
		expect(await refundsOf(reprocess.id)).toBe(0);
		// 4 minutes for the video, 2 for the reprocess: both delivered.
		expect(await balanceOf(workspaceId)).toBe(14);
		expect(await ledgerSum(workspaceId)).toBe(14);
	});

	it("DELETE racing the reprocess's completion: a completed reprocess is never refunded", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 200 });
		for (let round = 0; round < 6; round++) {
			const reprocess = await reprocessing(apiKey, workspaceId, 2);
			const delay = [-1, 0, 1, 2, 4, 8][round]!;
			const ranking = { rankedBy: "offline", note: null, clips: 0 };
			const completing =
				delay < 0
					? completeReprocess(getDb(env), reprocess, ranking)
					: new Promise((r) => setTimeout(r, delay)).then(() =>
							completeReprocess(getDb(env), reprocess, ranking),
						);
			const [completed, deleted] = await Promise.all([
				completing,
				call("DELETE", `/api/videos/${reprocess.videoId}`, { key: apiKey }),
			]);
			expect(deleted.status).toBe(200);
			expect(deleted.body.minutesRefunded, `round ${round}`).toBe(completed ? 0 : 2);
			expect(await refundsOf(reprocess.id)).toBe(completed ? 0 : 1);
		}
		expect(await ledgerSum(workspaceId)).toBe(await balanceOf(workspaceId));
	});
});

describe("a refunded first run delivers nothing", () => {
	it("from the moment it fails and is refunded, its clips are neither listed nor signed, before the clean-up deletes their files", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const id = await submitAndProcess(apiKey, source(60), { clipDurationMin: 10, clipDurationMax: 20 });
		const { clips } = (await call("GET", `/api/videos/${id}/clips`, { key: apiKey })).body;
		expect(clips.length).toBeGreaterThan(0);
		// As a first run whose last render failed: its other clips rendered, the video not completed yet.
		await env.DB.prepare("UPDATE videos SET status = 'generating_clips', delivered_at = NULL WHERE id = ?")
			.bind(id)
			.run();
		// The failure step's first half (finish.ts failAndRefund): the refund, before its clean-up runs.
		expect((await markFailedAndRefund(getDb(env), id, "A render failed.")).minutesRefunded).toBe(1);
		const listed = await call("GET", `/api/videos/${id}/clips`, { key: apiKey });
		expect(listed.body.clips).toEqual([]);
		expect((await call("GET", `/api/clips/${clips[0].id}`, { key: apiKey })).status).toBe(404);
		const link = new URL(clips[0].downloadUrl);
		expect((await call("GET", link.pathname + link.search, { key: null })).status).toBeGreaterThanOrEqual(400);
		expect((await call("GET", `/api/videos/${id}`, { key: apiKey })).body.clipsCount).toBe(0);
	});
});

describe("failures the user causes are not refunded", () => {
	async function withOwnBackground(apiKey: string): Promise<string> {
		const url = `https://media.example.com/bg/${crypto.randomUUID()}.mp4`;
		fake().media.add(url);
		const created = await call("POST", "/api/backgrounds", { key: apiKey, body: { url } });
		expect(created.status).toBe(201);
		return created.body.id as string;
	}

	// The look is prepared right after the download (beside the upload and the audio): deleting during the download is before it.
	for (const [when, path] of [
		["mid-render", renderJobs.renderClip.path],
		["before the look is prepared", renderJobs.download.path],
	] as const) {
		it(`deleting one's own split-screen background ${when}: the video fails saying why, the charge stays, and DELETE refunds nothing`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
			const backgroundId = await withOwnBackground(apiKey);
			fake().before.set(path, async () => {
				expect((await call("DELETE", `/api/backgrounds/${backgroundId}`, { key: apiKey })).status).toBe(204);
			});
			const config = {
				clipDurationMin: 10,
				clipDurationMax: 20,
				enableSplitScreen: true,
				splitScreenBgVideoId: backgroundId,
			};
			const videoId = await submitAndProcess(apiKey, source(60), config, "errored");
			const status = (await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body;
			expect(status.video.status).toBe("failed");
			expect(status.video.errorMessage).toMatch(
				/background .*was deleted by the workspace.*the minutes are not refunded/,
			);
			expect(await refundsOf(videoId)).toBe(0);
			expect(await balanceOf(workspaceId)).toBe(9);
			expect((await call("DELETE", `/api/videos/${videoId}`, { key: apiKey })).body.minutesRefunded).toBe(0);
			expect(await balanceOf(workspaceId)).toBe(9);
			expect(await ledgerSum(workspaceId)).toBe(9);
		});
	}

	it("emptying the category a video picks its background from is the user's doing too", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const backgroundId = await withOwnBackground(apiKey);
		fake().before.set(renderJobs.download.path, async () => {
			await call("DELETE", `/api/backgrounds/${backgroundId}`, { key: apiKey });
		});
		const videoId = await submitAndProcess(
			apiKey,
			source(60),
			{ clipDurationMin: 10, clipDurationMax: 20, enableSplitScreen: true, splitScreenBgCategoryId: "custom" },
			"errored",
		);
		expect((await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.errorMessage).toMatch(
			/category custom was deleted by the workspace/,
		);
		expect(await balanceOf(workspaceId)).toBe(9);
	});

	it("a render-tier failure the user did not cause is still refunded in full", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const backgroundId = await withOwnBackground(apiKey);
		fake().failAlways(renderJobs.renderClip.path, {
			code: "process_failed",
			message: "ffmpeg crashed",
			retryable: false,
		});
		await submitAndProcess(
			apiKey,
			source(60),
			{ clipDurationMin: 10, clipDurationMax: 20, enableSplitScreen: true, splitScreenBgVideoId: backgroundId },
			"errored",
		);
		expect(await balanceOf(workspaceId)).toBe(10);
	});
});
