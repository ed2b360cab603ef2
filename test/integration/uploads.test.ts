/**
 * Uploading a file instead of a URL: the resumable multipart upload into R2 (real Miniflare R2 and
 * D1), then POST /api/videos/upload through the same checks, charge and workflow as a hosted URL,
 * with nothing fetched from anywhere. The render tier is the fake, probing the stored file through
 * the Worker's signed URL as the real tier does.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { UPLOAD_LIMITS } from "../../src/worker/domain/upload-limits";
import { balanceOf, createWorkspace, ledgerSum, statusEvents } from "../helpers/accounts";
import { call } from "../helpers/api";
import { itCountsInOneWindow } from "../helpers/rate-window";
import { fakeVideoFile, useFakeRenderTier, WEBHOOK_BASE } from "../helpers/fake-render-tier";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });

const MiB = 1024 ** 2;
/** R2's (and Miniflare's) smallest part but the last. */
const PART = 5 * MiB;

interface Upload {
	id: string;
	status: string;
	partSize: number;
	partCount: number;
	partUrlTemplate: string | null;
	parts: { partNumber: number; size: number; etag: string }[];
	missingParts: number[];
	videoId: string | null;
}

async function startUpload(key: string, file: Uint8Array, extra: Record<string, unknown> = {}): Promise<Upload> {
	const created = await call("POST", "/api/uploads", {
		key,
		body: { fileName: "My talk.mp4", size: file.length, contentType: "video/mp4", partSize: PART, ...extra },
	});
	expect(created.status, JSON.stringify(created.body)).toBe(201);
	return created.body as Upload;
}

const partUrl = (upload: Upload, n: number) => upload.partUrlTemplate!.replace("{partNumber}", String(n));
const partBytes = (file: Uint8Array, upload: Upload, n: number) =>
	file.subarray((n - 1) * upload.partSize, Math.min(file.length, n * upload.partSize));

/** A PUT of raw bytes, as a browser or the SDK sends a part (no Authorization: the URL is the credential). */
async function putPart(url: string, bytes: Uint8Array): Promise<{ status: number; body: any }> {
	const response = await exports.default.fetch(url, {
		method: "PUT",
		body: bytes,
		headers: { "content-type": "application/octet-stream" },
	});
	return { status: response.status, body: await response.json() };
}

async function uploadAll(key: string, file: Uint8Array): Promise<Upload> {
	const upload = await startUpload(key, file);
	for (let n = 1; n <= upload.partCount; n++)
		expect((await putPart(partUrl(upload, n), partBytes(file, upload, n))).status).toBe(200);
	const completed = await call("POST", `/api/uploads/${upload.id}/complete`, { key });
	expect(completed.status, JSON.stringify(completed.body)).toBe(200);
	return completed.body as Upload;
}

/** Submits the upload and waits for its workflow instance to end. */
async function submitAndProcess(key: string, body: Record<string, unknown>) {
	await using introspector = await introspectVideoRuns();
	const submitted = await call("POST", "/api/videos/upload", { key, body });
	expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
	const [instance] = await introspector.get();
	await instance!.waitForStatus("complete");
	return submitted.body;
}

describe("a resumable upload", () => {
	it("takes parts in any order, says which are missing, completes only when all are stored, then becomes a video with the same stages and charge", async () => {
		const { apiKey: key, workspaceId } = await createWorkspace({ minutes: 100 });
		const file = fakeVideoFile({ duration: 150 }, 2 * PART + 1234);
		const upload = await startUpload(key, file);
		expect(upload).toMatchObject({
			status: "uploading",
			partSize: PART,
			partCount: 3,
			missingParts: [1, 2, 3],
			parts: [],
		});

		// Out of order: 3, then 1; the client "crashes" before part 2.
		expect((await putPart(partUrl(upload, 3), partBytes(file, upload, 3))).body).toMatchObject({
			partNumber: 3,
			size: 1234,
		});
		expect((await putPart(partUrl(upload, 1), partBytes(file, upload, 1))).status).toBe(200);
		const early = await call("POST", `/api/uploads/${upload.id}/complete`, { key });
		expect(early.status).toBe(409);
		expect(early.body.error.details).toEqual({ missingParts: [2] });
		const early2 = await call("POST", "/api/videos/upload", { key, body: { uploadId: upload.id, config: {} } });
		expect(early2.status).toBe(409);

		// Resume: ask what is stored, send the rest (a part sent twice replaces itself).
		const state = (await call("GET", `/api/uploads/${upload.id}`, { key })).body as Upload;
		expect(state.parts.map((p) => p.partNumber)).toEqual([1, 3]);
		expect(state.missingParts).toEqual([2]);
		for (const n of state.missingParts)
			expect((await putPart(partUrl(state, n), partBytes(file, state, n))).status).toBe(200);
		expect((await putPart(partUrl(state, 1), partBytes(file, state, 1))).status).toBe(200);
		// As HTTP clients send a bodiless POST: `Content-Length: 0` and no type (no JSON to validate, so no JSON type needed).
		const bodiless = await exports.default.fetch(`http://clipforge.test/api/uploads/${upload.id}/complete`, {
			method: "POST",
			body: new Uint8Array(0),
			headers: { authorization: `Bearer ${key}` },
		});
		const done = { status: bodiless.status, body: (await bodiless.json()) as any };
		expect(done.body).toMatchObject({ status: "completed", missingParts: [], partUrlTemplate: null });
		expect((await call("POST", `/api/uploads/${upload.id}/complete`, { key })).status).toBe(200);
		expect(done.body.videoId).toBeNull();
		const before = await balanceOf(workspaceId);

		const submitted = await submitAndProcess(key, {
			uploadId: upload.id,
			config: { clipDurationMin: 15, clipDurationMax: 45 },
			webhookUrl: `${WEBHOOK_BASE}uploads`,
		});
		expect(submitted.video).toMatchObject({
			sourceType: "upload",
			sourceUrl: `upload://${upload.id}`,
			title: "My talk",
		});
		expect(submitted.videoInfo).toMatchObject({ duration: 150, channelName: "Upload" });
		const videoId = submitted.video.id as string;
		const object = await env.MEDIA.get(`sources/${videoId}/source.mp4`);
		expect(new Uint8Array(await object!.arrayBuffer())).toEqual(file);

		expect(await balanceOf(workspaceId)).toBe(before - 3);
		expect(await ledgerSum(workspaceId)).toBe(await balanceOf(workspaceId));
		expect(await statusEvents(videoId)).toEqual([
			"downloading",
			"uploading",
			"transcribing",
			"analyzing",
			"generating_clips",
			"completed",
		]);
		// Nothing fetched from the internet, nothing stored twice: the tier was never asked to download or upload the source.
		const paths = fake().calls.map((c) => c.path);
		expect(paths).not.toContain("/jobs/download");
		expect(paths).not.toContain("/jobs/upload-source");
		expect(paths).toContain("/jobs/extract-audio");
		const hook = JSON.parse(fake().webhooks.at(-1)!.body);
		expect(hook).toMatchObject({
			event: "video.completed",
			video: { id: videoId, sourceType: "upload", sourceUrl: `upload://${upload.id}` },
		});
		const clips = await call("GET", `/api/videos/${videoId}/clips`, { key });
		expect(clips.body.count).toBeGreaterThan(0);
		expect((await call("GET", `/api/uploads/${upload.id}`, { key })).body).toMatchObject({
			status: "used",
			videoId,
		});
		// Reprocessing reads the stored upload too: new clips, still nothing fetched.
		{
			await using introspector = await introspectVideoRuns();
			expect(
				(
					await call("POST", `/api/videos/${videoId}/reprocess`, {
						key,
						body: { config: { aspectRatio: "1:1" } },
					})
				).status,
			).toBe(202);
			for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		}
		const square = (await call("GET", `/api/videos/${videoId}/clips`, { key })).body;
		expect(square.count).toBeGreaterThan(0);
		expect(square.clips.every((c: { aspectRatio: string }) => c.aspectRatio === "1:1")).toBe(true);
		expect(fake().calls.map((c) => c.path)).not.toContain("/jobs/download");
		// Used once: a second submission is refused, nothing charged.
		const again = await call("POST", "/api/videos/upload", { key, body: { uploadId: upload.id, config: {} } });
		expect(again.status).toBe(409);
		expect(await balanceOf(workspaceId)).toBe(before - 3);
		expect((await call("DELETE", `/api/uploads/${upload.id}`, { key })).status).toBe(409);
	});

	it("refuses a part of the wrong size, number or token, and answers in the one error body", async () => {
		const { apiKey: key } = await createWorkspace();
		const file = fakeVideoFile({ duration: 60 }, PART + 10);
		const upload = await startUpload(key, file);
		const short = await putPart(partUrl(upload, 1), file.subarray(0, PART - 1));
		expect(short.status).toBe(400);
		expect(short.body.error).toMatchObject({
			code: "invalid_request",
			details: [{ path: "Content-Length", message: `expected ${PART}` }],
		});
		expect((await putPart(partUrl(upload, 2), file.subarray(0, 11))).status).toBe(400); // the last part is 10 bytes
		expect((await putPart(partUrl(upload, 3), file.subarray(0, 10))).status).toBe(400); // no part 3
		expect((await putPart(partUrl(upload, 0), file.subarray(0, 10))).status).toBe(400);
		const tampered = partUrl(upload, 2).replace(
			/token=(\d+)\.(.)/,
			(_, exp, c) => `token=${exp}.${c === "A" ? "B" : "A"}`,
		);
		expect((await putPart(tampered, file.subarray(PART))).status).toBe(403);
		const otherUpload = await startUpload(key, file);
		const crossed = partUrl(upload, 2).replace(upload.id, otherUpload.id);
		expect((await putPart(crossed, file.subarray(PART))).body.error.code).toBe("forbidden");
		expect((await putPart(partUrl(upload, 2), file.subarray(PART))).status).toBe(200);
		expect((await call("GET", `/api/uploads/${upload.id}`, { key })).body.missingParts).toEqual([1]);
	});

	it("refuses a part body over 50 MiB with 413 before reading it (the one route past the 64 KiB limit)", async () => {
		const { apiKey: key } = await createWorkspace();
		const upload = await startUpload(key, new Uint8Array(60 * MiB), { partSize: 50 * MiB });
		const over = await putPart(partUrl(upload, 1), new Uint8Array(50 * MiB + 1));
		expect(over.status).toBe(413);
		expect(over.body.error).toMatchObject({ code: "payload_too_large", details: { maxBytes: 50 * MiB } });
		// A small JSON body elsewhere still meets the 64 KiB limit.
		expect(
			(
				await call("POST", `/api/uploads/${upload.id}/complete`, {
					key,
					rawBody: JSON.stringify({ pad: "x".repeat(70_000) }),
				})
			).status,
		).toBe(413);
	});

	it("bounds size (the plan's source bytes), type and uploads in flight", async () => {
		const { apiKey: key, workspaceId } = await createWorkspace();
		const tooBig = await call("POST", "/api/uploads", {
			key,
			body: { fileName: "huge.mp4", size: 5 * 1024 ** 3, contentType: "video/mp4" },
		});
		expect(tooBig.status).toBe(413);
		expect(tooBig.body.error).toMatchObject({ code: "payload_too_large", details: { maxBytes: 4 * 1024 ** 3 } });
		await env.DB.prepare("UPDATE plans SET max_source_bytes = ? WHERE workspace_id = ?")
			.bind(20 * MiB, workspaceId)
			.run();
		expect(
			(
				await call("POST", "/api/uploads", {
					key,
					body: { fileName: "a.mp4", size: 20 * MiB + 1, contentType: "video/mp4" },
				})
			).status,
		).toBe(413);
		const text = await call("POST", "/api/uploads", {
			key,
			body: { fileName: "notes.txt", size: 100, contentType: "text/plain" },
		});
		expect(text.status).toBe(422);
		expect(text.body.error.code).toBe("unsupported_source");
		const broke = await createWorkspace({ minutes: 0 });
		const noMinutes = await call("POST", "/api/uploads", {
			key: broke.apiKey,
			body: { fileName: "a.mp4", size: 100, contentType: "video/mp4" },
		});
		expect(noMinutes.body.error).toMatchObject({
			code: "insufficient_minutes",
			details: { required: 1, balance: 0 },
		});
		const badPart = await call("POST", "/api/uploads", {
			key,
			body: { fileName: "a.mp4", size: 100, contentType: "video/mp4", partSize: 1024 },
		});
		expect(badPart.status).toBe(400);

		const open = [];
		for (let i = 0; i < 5; i++)
			open.push(
				(
					await call("POST", "/api/uploads", {
						key,
						body: { fileName: `f${i}.mov`, size: 1000, contentType: "video/quicktime" },
					})
				).body as Upload,
			);
		expect(open.every((u) => u.status === "uploading" && u.partCount === 1)).toBe(true);
		const sixth = await call("POST", "/api/uploads", {
			key,
			body: { fileName: "f6.mp4", size: 1000, contentType: "video/mp4" },
		});
		expect(sixth.status).toBe(409);
		expect(sixth.body.error).toMatchObject({ code: "quota_exceeded", details: { limit: 5, used: 5 } });
		// Aborting one makes room; the aborted upload is gone and its URL stops working.
		expect((await call("DELETE", `/api/uploads/${open[0]!.id}`, { key })).body).toEqual({
			id: open[0]!.id,
			deleted: true,
		});
		expect((await call("GET", `/api/uploads/${open[0]!.id}`, { key })).status).toBe(404);
		expect((await putPart(partUrl(open[0]!, 1), new Uint8Array(1000))).status).toBe(404);
		expect(
			(
				await call("POST", "/api/uploads", {
					key,
					body: { fileName: "f6.mp4", size: 1000, contentType: "video/mp4" },
				})
			).status,
		).toBe(201);
	});

	it("another workspace's upload is not found, whatever is asked of it", async () => {
		const owner = await createWorkspace();
		const other = await createWorkspace();
		const file = fakeVideoFile({ duration: 60 }, 2000);
		const upload = await uploadAll(owner.apiKey, file);
		for (const [method, path, body] of [
			["GET", `/api/uploads/${upload.id}`],
			["POST", `/api/uploads/${upload.id}/complete`],
			["DELETE", `/api/uploads/${upload.id}`],
			["POST", "/api/videos/upload", { uploadId: upload.id, config: {} }],
		] as const) {
			const result = await call(method, path, { key: other.apiKey, body });
			expect(result.status, `${method} ${path}`).toBe(404);
			expect(result.body.error.code).toBe("not_found");
		}
		expect(await balanceOf(other.workspaceId)).toBe(600);
		expect((await call("GET", `/api/uploads/${upload.id}`, { key: owner.apiKey })).body.status).toBe("completed");
	});
});

describe("POST /api/videos/upload refusals charge nothing", () => {
	it("not a video → 422, too long for the plan → 413, no audio → 422", async () => {
		const { apiKey: key, workspaceId } = await createWorkspace({ maxVideoSeconds: 600 });
		const garbage = new TextEncoder().encode("these are my meeting notes, not a video\n".repeat(50));
		const notVideo = await uploadAll(key, garbage);
		const refused = await call("POST", "/api/videos/upload", { key, body: { uploadId: notVideo.id, config: {} } });
		expect(refused.status).toBe(422);
		expect(refused.body.error.code).toBe("unsupported_source");
		expect(refused.body.error.message).toMatch(/uploaded file/);

		const long = await uploadAll(key, fakeVideoFile({ duration: 601 }, 3000));
		const tooLong = await call("POST", "/api/videos/upload", { key, body: { uploadId: long.id, config: {} } });
		expect(tooLong.status).toBe(413);
		expect(tooLong.body.error).toMatchObject({
			code: "video_too_long",
			details: { duration: 601, maxDuration: 600 },
		});

		const mute = await uploadAll(key, fakeVideoFile({ duration: 60, hasAudio: false }, 3000));
		expect(
			(await call("POST", "/api/videos/upload", { key, body: { uploadId: mute.id, config: {} } })).status,
		).toBe(422);

		const badConfig = await call("POST", "/api/videos/upload", {
			key,
			body: { uploadId: mute.id, config: { aspectRatio: "2:1" } },
		});
		expect(badConfig.status).toBe(400);
		expect(await balanceOf(workspaceId)).toBe(600);
		// A refused upload stays completed: the user may delete it (or the cron will).
		const objectKey = await env.DB.prepare("SELECT object_key FROM uploads WHERE id = ?")
			.bind(long.id)
			.first<string>("object_key");
		expect(await env.MEDIA.head(objectKey!)).not.toBeNull();
		expect((await call("DELETE", `/api/uploads/${long.id}`, { key })).status).toBe(200);
		expect(await env.MEDIA.head(objectKey!)).toBeNull();
	});

	it("without a config the video waits in pending_config; Idempotency-Key replays the first answer, charged once", async () => {
		const { apiKey: key, workspaceId } = await createWorkspace();
		const upload = await uploadAll(key, fakeVideoFile({ duration: 61 }, 3000));
		const headers = { "idempotency-key": `up-${crypto.randomUUID()}` };
		const first = await call("POST", "/api/videos/upload", { key, body: { uploadId: upload.id }, headers });
		expect(first.status).toBe(201);
		expect(first.body.video.status).toBe("pending_config");
		const replay = await call("POST", "/api/videos/upload", { key, body: { uploadId: upload.id }, headers });
		expect(replay.status).toBe(201);
		expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
		expect(replay.body).toEqual(first.body);
		expect(await balanceOf(workspaceId)).toBe(598);
		const otherBody = await call("POST", "/api/videos/upload", {
			key,
			body: { uploadId: upload.id, config: {} },
			headers,
		});
		expect(otherBody.status).toBe(409);
	});

	it("two submissions of one upload at once: one video, one charge", async () => {
		const { apiKey: key, workspaceId } = await createWorkspace();
		const upload = await uploadAll(key, fakeVideoFile({ duration: 30 }, 3000));
		const results = await Promise.all(
			[0, 1, 2].map(() => call("POST", "/api/videos/upload", { key, body: { uploadId: upload.id } })),
		);
		expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
		expect(await balanceOf(workspaceId)).toBe(599);
		expect(await ledgerSum(workspaceId)).toBe(599);
	});
});

describe("a video made of an upload", () => {
	it("whose file vanished before processing fails and is refunded; deleting a video deletes its uploaded file", async () => {
		const { apiKey: key, workspaceId } = await createWorkspace();
		const upload = await uploadAll(key, fakeVideoFile({ duration: 90 }, 3000));
		const pending = await call("POST", "/api/videos/upload", { key, body: { uploadId: upload.id } });
		expect(pending.body.video.status).toBe("pending_config");
		const videoId = pending.body.video.id as string;
		expect(await balanceOf(workspaceId)).toBe(598);
		await env.MEDIA.delete(`sources/${videoId}/source.mp4`);

		await using introspector = await introspectVideoRuns();
		expect((await call("PUT", `/api/videos/${videoId}/config`, { key, body: {} })).status).toBe(200);
		await (await introspector.get())[0]!.waitForStatus("errored");
		const failed = (await call("GET", `/api/videos/${videoId}`, { key })).body;
		expect(failed).toMatchObject({
			status: "failed",
			errorMessage: expect.stringMatching(/uploaded file is no longer stored/),
		});
		expect(await balanceOf(workspaceId)).toBe(600);
		expect(fake().calls.map((c) => c.path)).not.toContain("/jobs/download");

		const other = await uploadAll(key, fakeVideoFile({ duration: 30 }, 3000));
		const made = await call("POST", "/api/videos/upload", { key, body: { uploadId: other.id } });
		const otherId = made.body.video.id as string;
		expect(await env.MEDIA.head(`sources/${otherId}/source.mp4`)).not.toBeNull();
		expect((await call("DELETE", `/api/videos/${otherId}`, { key })).status).toBe(200);
		expect(await env.MEDIA.head(`sources/${otherId}/source.mp4`)).toBeNull();
	});
});

describe("abandoned uploads", () => {
	it("the cron aborts an upload past its expiry, and deletes a completed one no video used", async () => {
		const { apiKey: key } = await createWorkspace();
		const file = fakeVideoFile({ duration: 60 }, PART + 100);
		const partial = await startUpload(key, file);
		expect((await putPart(partUrl(partial, 1), partBytes(file, partial, 1))).status).toBe(200);
		const completed = await uploadAll(key, fakeVideoFile({ duration: 60 }, 2000));
		const live = await startUpload(key, file);
		const rows = await env.DB.prepare("SELECT id, object_key, r2_upload_id FROM uploads WHERE id IN (?, ?)")
			.bind(partial.id, completed.id)
			.all<{ id: string; object_key: string; r2_upload_id: string }>();
		const keys = Object.fromEntries(rows.results.map((r) => [r.id, r]));
		expect(await env.MEDIA.head(keys[completed.id]!.object_key)).not.toBeNull();
		await env.DB.prepare("UPDATE uploads SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id IN (?, ?)")
			.bind(partial.id, completed.id)
			.run();

		const ctx = createExecutionContext();
		worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env, ctx);
		await waitOnExecutionContext(ctx);

		expect((await call("GET", `/api/uploads/${partial.id}`, { key })).status).toBe(404);
		expect((await call("GET", `/api/uploads/${completed.id}`, { key })).status).toBe(404);
		expect(
			await env.DB.prepare("SELECT COUNT(*) AS n FROM upload_parts WHERE upload_id = ?")
				.bind(partial.id)
				.first("n"),
		).toBe(0);
		expect(await env.MEDIA.head(keys[completed.id]!.object_key)).toBeNull();
		// R2's multipart upload is aborted: its parts can no longer be completed.
		const multipart = env.MEDIA.resumeMultipartUpload(keys[partial.id]!.object_key, keys[partial.id]!.r2_upload_id);
		await expect(multipart.complete([])).rejects.toThrow();
		// The one still within its time is untouched.
		expect((await call("GET", `/api/uploads/${live.id}`, { key })).body.status).toBe("uploading");
	});
});

/** The bucket, except that deleting `failKey` fails `times` times (an R2 error, as the platform may answer). */
function bucketFailingDelete(failKey: string, times = 1): R2Bucket {
	let left = times;
	return new Proxy(env.MEDIA, {
		get(target, property) {
			if (property === "delete")
				return async (keys: string | string[]) => {
					if (keys === failKey && left-- > 0)
						throw new Error("R2 delete failed: We encountered an internal error (10001)");
					return target.delete(keys);
				};
			const value = Reflect.get(target, property);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

async function objectKeyOf(uploadId: string): Promise<string> {
	return (await env.DB.prepare("SELECT object_key FROM uploads WHERE id = ?")
		.bind(uploadId)
		.first("object_key")) as string;
}

describe("releasing an upload's storage when R2 fails", () => {
	it("the cron: one failure leaves that upload `deleting` and the batch goes on; the next run removes it", async () => {
		const { apiKey: key } = await createWorkspace();
		const first = await uploadAll(key, fakeVideoFile({ duration: 60 }, 2000));
		const second = await uploadAll(key, fakeVideoFile({ duration: 60 }, 2000));
		await env.DB.prepare("UPDATE uploads SET expires_at = '2019-01-01T00:00:00.000Z' WHERE id IN (?, ?)")
			.bind(first.id, second.id)
			.run();
		const firstKey = await objectKeyOf(first.id);
		const runCron = async (withEnv: Env) => {
			const ctx = createExecutionContext();
			worker.scheduled(
				createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
				withEnv,
				ctx,
			);
			await waitOnExecutionContext(ctx);
		};
		await runCron({ ...env, MEDIA: bucketFailingDelete(firstKey) });
		// The row still points at the stored file (nothing orphaned), and it can no longer be used.
		const kept = await call("GET", `/api/uploads/${first.id}`, { key });
		expect(kept.body.status).toBe("deleting");
		expect(await env.MEDIA.head(firstKey)).not.toBeNull();
		expect((await call("POST", "/api/videos/upload", { key, body: { uploadId: first.id } })).status).toBe(409);
		expect((await call("GET", `/api/uploads/${second.id}`, { key })).status).toBe(404);

		await runCron(env);
		expect((await call("GET", `/api/uploads/${first.id}`, { key })).status).toBe(404);
		expect(await env.MEDIA.head(firstKey)).toBeNull();
	});

	it("DELETE: a failed release is 503 and the upload stays `deleting` (no open slot held); DELETE again finishes", async () => {
		const { apiKey: key } = await createWorkspace();
		const upload = await uploadAll(key, fakeVideoFile({ duration: 60 }, 2000));
		const objectKey = await objectKeyOf(upload.id);
		const request = new Request(`http://clipforge.test/api/uploads/${upload.id}`, {
			method: "DELETE",
			headers: { authorization: `Bearer ${key}` },
		});
		const ctx = createExecutionContext();
		const failed = await worker.fetch(request, { ...env, MEDIA: bucketFailingDelete(objectKey) }, ctx);
		await waitOnExecutionContext(ctx);
		expect(failed.status).toBe(503);
		expect(((await failed.json()) as any).error.code).toBe("service_unavailable");
		expect((await call("GET", `/api/uploads/${upload.id}`, { key })).body.status).toBe("deleting");
		expect(await env.MEDIA.head(objectKey)).not.toBeNull();

		const again = await call("DELETE", `/api/uploads/${upload.id}`, { key });
		expect(again.status).toBe(200);
		expect((await call("GET", `/api/uploads/${upload.id}`, { key })).status).toBe(404);
		expect(await env.MEDIA.head(objectKey)).toBeNull();
	});
});

describe("the part route's rate limit", () => {
	itCountsInOneWindow(
		`past ${UPLOAD_LIMITS.partWritesPerMinute} part PUTs a minute on one upload → 429 with Retry-After; another upload goes on`,
		60,
		async () => {
			const { apiKey: key } = await createWorkspace();
			const file = fakeVideoFile({ duration: 60 }, PART + 100);
			const upload = await startUpload(key, file);
			const other = await startUpload(key, file);
			const tiny = new Uint8Array(10); // the wrong size: refused, but counted
			for (let i = 0; i < UPLOAD_LIMITS.partWritesPerMinute; i += 50) {
				const batch = await Promise.all(Array.from({ length: 50 }, () => putPart(partUrl(upload, 1), tiny)));
				expect(batch.every((r) => r.status === 400 || r.status === 409)).toBe(true);
			}
			const response = await exports.default.fetch(partUrl(upload, 1), { method: "PUT", body: tiny });
			expect(response.status).toBe(429);
			expect(response.headers.get("retry-after")).toBe("60");
			expect(((await response.json()) as any).error.code).toBe("rate_limited");
			expect((await putPart(partUrl(other, 1), partBytes(file, other, 1))).status).toBe(200);
		},
	);
});
