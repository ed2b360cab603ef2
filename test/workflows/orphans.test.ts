/**
 * Nothing left behind in R2: the orphan report (services/orphans.ts, GET /internal/orphans) finds
 * every object no row points to, and each way a video or clip ends (completed, reprocessed, edited,
 * failed with renders still running, deleted mid-render) leaves none.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs, signRenderRequest } from "@clipforge/contract";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { findOrphans } from "../../src/worker/services/orphans";
import { signInternalObjectUrl } from "../../src/worker/services/signing";
import { r2Keys } from "../../src/worker/services/r2-keys";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/o/${crypto.randomUUID()}.mp4`;
const config = { clipDurationMin: 10, clipDurationMax: 20 };

/** The objects of `videoId` the report calls orphans (the bucket is shared by the file's tests). */
async function orphansOf(videoId: string): Promise<string[]> {
	const report = await findOrphans(env, { minAgeMinutes: 0 });
	return report.orphans
		.map((o) => o.key)
		.filter((key) => key.includes(videoId))
		.sort();
}

async function storedUnder(videoId: string): Promise<string[]> {
	const keys: string[] = [];
	for (const prefix of r2Keys.videoPrefixes(videoId))
		keys.push(...(await env.MEDIA.list({ prefix })).objects.map((o) => o.key));
	return keys.sort();
}

/** Waits until the fake tier has no render running (late renders are what this file is about). */
async function rendersSettled(): Promise<void> {
	for (let i = 0; i < 100 && fake().renderLog.some((r) => r.end === 0); i++)
		await new Promise((r) => setTimeout(r, 50));
	await new Promise((r) => setTimeout(r, 200));
}

describe("the orphan report", () => {
	it("calls nothing an orphan after a video's whole life: processed, reprocessed, a clip edited", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 90 }), config);
		await using introspector = await introspectVideoRuns();
		expect(
			(
				await call("POST", `/api/videos/${videoId}/reprocess`, {
					key: apiKey,
					body: { config: { ...config, aspectRatio: "1:1" } },
				})
			).status,
		).toBe(202);
		await (await introspector.get())[0]!.waitForStatus("complete");
		const { body } = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(body.count).toBeGreaterThan(0);
		const clip = body.clips[0];
		expect(
			(await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { startTime: clip.startTime + 2 } }))
				.status,
		).toBe(202);
		await (await introspector.get())[1]!.waitForStatus("complete");
		expect((await storedUnder(videoId)).length).toBeGreaterThan(0);
		expect(await orphansOf(videoId)).toEqual([]);
	});

	it("reports objects of deleted videos, of unknown kinds and stray clip files, with why", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		await env.MEDIA.put(`clips/${videoId}/clp_stray_9.mp4`, "x");
		await env.MEDIA.put(`audio/${videoId}/chunk-0.mp3`, "x");
		await env.MEDIA.put(`sources/vid_gone${videoId}/source.mp4`, "x");
		await env.MEDIA.put(`misc/${videoId}.bin`, "x");
		const report = await findOrphans(env, { minAgeMinutes: 0 });
		const mine = Object.fromEntries(
			report.orphans.filter((o) => o.key.includes(videoId)).map((o) => [o.key, o.reason]),
		);
		expect(mine).toEqual({
			[`clips/${videoId}/clp_stray_9.mp4`]: "no clip row names it",
			[`audio/${videoId}/chunk-0.mp3`]: "its video is completed (audio chunks go once merged)",
			[`sources/vid_gone${videoId}/source.mp4`]: "no video or upload row",
			[`misc/${videoId}.bin`]: "a key of no known kind",
		});
		// Younger than the grace given to writes under way: not counted yet.
		const graced = await findOrphans(env, { minAgeMinutes: 10 });
		expect(graced.orphans.filter((o) => o.key.includes(videoId))).toEqual([]);
		expect(graced.young).toBeGreaterThanOrEqual(4);
		await env.MEDIA.delete(Object.keys(mine));
	});

	it("is the operator's only: GET /internal/orphans must be signed with SIGNING_SECRET", async () => {
		const { apiKey } = await createWorkspace();
		const path = "/internal/orphans?minAgeMinutes=0";
		expect((await call("GET", path, { key: apiKey })).status).toBe(401);
		const wrong = await signRenderRequest(env.RENDER_SECRET, { method: "GET", path, body: "" });
		expect((await call("GET", path, { headers: { authorization: wrong } })).status).toBe(401);
		const signed = await signRenderRequest(env.SIGNING_SECRET, { method: "GET", path, body: "" });
		const { status, body } = await call("GET", path, { headers: { authorization: signed } });
		expect(status).toBe(200);
		expect(body).toMatchObject({ minAgeMinutes: 0 });
		expect(body.scanned).toBeGreaterThan(0);
	});
});

describe("no object is left behind", () => {
	it("by renders still running when another clip's render fails the video", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const hostedUrl = fake().addSource(url(), { duration: 120 });
		// The first render fails for good at once; the two beside it finish a moment later.
		fake().failNext(renderJobs.renderClip.path, {
			code: "invalid_request",
			message: "The look cannot be drawn.",
			retryable: false,
		});
		fake().renderDelays.push(400, 400);
		const videoId = await submitAndProcess(apiKey, hostedUrl, config, "errored");
		// The failure was handled once the renders beside it had ended (their files then went with the rest).
		expect(
			fake().renderLog.filter((r) => r.end > 0).length,
			"renders in flight had ended when the video failed",
		).toBeGreaterThanOrEqual(1);
		await rendersSettled();
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe("failed");
		expect(await storedUnder(videoId)).toEqual([]);
		expect(await orphansOf(videoId)).toEqual([]);
	});

	it("by a render that finishes after its video was deleted", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const hostedUrl = fake().addSource(url(), { duration: 60 });
		fake().renderDelays.push(1500, 1500, 1500);
		await using introspector = await introspectVideoRuns();
		const videoId = (await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl, config } })).body
			.video.id;
		// The user deletes the video while its clips are being rendered.
		for (let i = 0; i < 200 && fake().renderLog.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
		expect(fake().renderLog.length).toBeGreaterThan(0);
		expect((await call("DELETE", `/api/videos/${videoId}`, { key: apiKey })).status).toBe(200);
		await rendersSettled();
		expect(await storedUnder(videoId)).toEqual([]);
		expect(await orphansOf(videoId)).toEqual([]);
		await (await introspector.get())[0]!.waitForStatus("terminated").catch(() => undefined);
	});

	it("by a job that outlives what it writes for: the internal PUT refuses it (409), stores nothing", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const kept = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		const { body } = await call("GET", `/api/videos/${kept}/clips`, { key: apiKey });
		const put = async (key: string) => {
			const signed = await signInternalObjectUrl(env, key, "PUT");
			const response = await call("PUT", signed.replace(env.INTERNAL_BASE_URL, ""), {
				rawBody: "late bytes",
				headers: { "content-type": "video/mp4", "content-length": "10" },
			});
			return { status: response.status, stored: (await env.MEDIA.head(key)) !== null };
		};
		// A deleted video: every kind of its files.
		const deleted = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		expect((await call("DELETE", `/api/videos/${deleted}`, { key: apiKey })).status).toBe(200);
		for (const key of [
			r2Keys.clipVideo(deleted, "clp_x_1"),
			r2Keys.source(deleted),
			r2Keys.audioChunk(deleted, 0),
			r2Keys.signals(deleted),
		]) {
			expect(await put(key), key).toEqual({ status: 409, stored: false });
		}
		// A first run that failed: its files were deleted, none may come back.
		fake().failAlways(renderJobs.download.path, { code: "unsupported_source", message: "gone", retryable: false });
		const failed = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config, "errored");
		fake().failures.clear();
		expect(await put(r2Keys.signals(failed))).toEqual({ status: 409, stored: false });
		// A clip file no row names (an edit overtaken, a generation replaced) …
		expect(await put(r2Keys.clipEditVideo(kept, body.clips[0].id, 7))).toEqual({ status: 409, stored: false });
		// … while the files of a video and clip that expect them are stored.
		expect(await put(r2Keys.clipVideo(kept, body.clips[0].id))).toEqual({ status: 201, stored: true });
		expect(await orphansOf(kept)).toEqual([]);
	});

	it("by a multipart upload of a deleted video's source: no step that writes is taken (409), an abort still is", async () => {
		const { apiKey } = await createWorkspace({ minutes: 20 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		const key = r2Keys.source(videoId);
		const signed = (await signInternalObjectUrl(env, key, "PUT")).replace(env.INTERNAL_BASE_URL, "");
		// A multipart upload the tier started while the video was alive …
		const started = await call("POST", `${signed}&uploads`, {
			rawBody: "",
			headers: { "content-type": "video/mp4" },
		});
		expect(started.status).toBe(200);
		const uploadId = started.body.uploadId as string;
		expect((await call("DELETE", `/api/videos/${videoId}`, { key: apiKey })).status).toBe(200);
		// … then the video was deleted: a new start, a part and the completion are refused, nothing is stored.
		const again = await call("POST", `${signed}&uploads`, {
			rawBody: "",
			headers: { "content-type": "video/mp4" },
		});
		expect(again.status).toBe(409);
		const part = await call("PUT", `${signed}&uploadId=${encodeURIComponent(uploadId)}&partNumber=1`, {
			rawBody: "late bytes",
			headers: { "content-type": "application/octet-stream", "content-length": "10" },
		});
		expect(part.status).toBe(409);
		const complete = await call("POST", `${signed}&uploadId=${encodeURIComponent(uploadId)}`, {
			body: { parts: [{ partNumber: 1, etag: "x" }] },
		});
		expect(complete.status).toBe(409);
		expect(await env.MEDIA.head(key)).toBeNull();
		// Aborting frees R2's parts: always allowed.
		expect((await call("DELETE", `${signed}&uploadId=${encodeURIComponent(uploadId)}`)).status).toBe(204);
	});
});
