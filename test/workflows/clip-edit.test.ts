/**
 * PATCH /api/clips/:id that changes the picture, end to end in the Workers runtime (real D1, R2
 * and Workflows, the render tier faked): the clip alone is rendered again in a workflow instance of
 * its own (`<clipId>-e<n>`), `generating` → `completed`, its previous file served meanwhile; times
 * snap to word edges; corrected words keep their timings; a failed render restores the clip; the
 * refusals (409, 410, 400) and the charging rule (free, capped per clip) hold.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { presetLook, renderJobs, type RenderClipRequest } from "@clipforge/contract";
import { balanceOf, createWorkspace, ledgerSum, statusEvents } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { MAX_EDITS_PER_CLIP } from "../../src/worker/domain/clip-edit";
import { reconcileStaleVideos } from "../../src/worker/services/reconcile";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;
const path = (signed: string) => new URL(signed).pathname + new URL(signed).search;

async function processed(config: Record<string, unknown> = {}) {
	const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
	const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), {
		clipDurationMin: 15,
		clipDurationMax: 30,
		...config,
	});
	const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as Array<
		Record<string, any>
	>;
	const clip = (await call("GET", `/api/clips/${clips[0]!.id}`, { key: apiKey })).body;
	return { apiKey, workspaceId, videoId, clip };
}

/** PATCHes and, when a re-render started, waits for its workflow instance to end. */
async function editAndWait(
	key: string,
	clipId: string,
	body: unknown,
	expectStatus: "complete" | "errored" = "complete",
) {
	await using introspector = await introspectVideoRuns();
	const response = await call("PATCH", `/api/clips/${clipId}`, { key, body });
	if (response.status === 202)
		for (const instance of await introspector.get()) await instance.waitForStatus(expectStatus);
	return response;
}

const renders = () =>
	fake()
		.calls.filter((c) => c.path === renderJobs.renderClip.path)
		.map((c) => c.body as RenderClipRequest);

describe("editing a clip re-renders it alone", () => {
	it("trims to word edges, renders the clip alone into files of its own, and is free", async () => {
		const { apiKey, workspaceId, videoId, clip } = await processed();
		const balance = await balanceOf(workspaceId);
		const events = await statusEvents(videoId);
		const before = renders().length;
		// Word 3 starts at clip start + words[3].start; ask 0.12 s after it, and end 0.1 s before word 40 ends.
		const words = clip.words as Array<{ start: number; end: number }>;
		const wantStart = clip.startTime + words[3]!.start;
		const wantEnd = clip.startTime + words[Math.min(40, words.length - 1)]!.end;

		const started = await editAndWait(apiKey, clip.id, {
			startTime: wantStart + 0.12,
			endTime: wantEnd - 0.1,
			title: "Trimmed",
		});
		expect(started.status, JSON.stringify(started.body)).toBe(202);
		expect(started.body).toMatchObject({ id: clip.id, status: "generating", edits: 1, title: "Trimmed" });
		expect(started.body.startTime).toBeCloseTo(wantStart, 3);
		expect(started.body.endTime).toBeCloseTo(wantEnd, 3);

		const after = (await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body;
		expect(after).toMatchObject({ status: "completed", edits: 1, editError: null, title: "Trimmed" });
		expect(after.startTime).toBeCloseTo(wantStart, 3);
		expect(after.duration).toBeCloseTo(wantEnd - wantStart, 1);
		expect(after.words[0].start).toBe(0);
		expect(after.transcript.split(" ").length).toBe(after.words.length);
		// Exactly one render, of this clip, with the new in/out points; its file is what is served now.
		expect(renders().slice(before)).toHaveLength(1);
		expect(renders().at(-1)).toMatchObject({ clipId: clip.id, start: after.startTime, end: after.endTime });
		expect((await call("GET", path(after.downloadUrl))).body).toMatchObject({
			clip: clip.id,
			start: after.startTime,
			end: after.endTime,
		});
		const stored = (await env.MEDIA.list({ prefix: `clips/${videoId}/${clip.id}` })).objects
			.map((o) => o.key)
			.sort();
		expect(stored).toEqual([`clips/${videoId}/${clip.id}.e1.jpg`, `clips/${videoId}/${clip.id}.e1.mp4`]);
		expect((await call("GET", path(clip.downloadUrl))).status).toBe(403);

		// The video never moved, and nothing was charged.
		expect((await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.status).toBe("completed");
		expect(await statusEvents(videoId)).toEqual(events);
		expect(await balanceOf(workspaceId)).toBe(balance);
		expect(await ledgerSum(workspaceId)).toBe(balance);
	});

	it("corrects caption words keeping their timings, and a caption look of its own", async () => {
		const { apiKey, clip } = await processed({ enableCaptions: true, captionTemplateId: "karaoke" });
		const edited = await editAndWait(apiKey, clip.id, {
			captionWords: [
				{ index: 0, word: "Hello" },
				{ index: 2, word: "wörld" },
			],
			captionStyle: "sentence",
		});
		expect(edited.status, JSON.stringify(edited.body)).toBe(202);
		const request = renders().at(-1)!;
		expect(request.captions?.look).toEqual(presetLook("sentence"));
		const drawn = request.captions!.words;
		expect(drawn.map((w) => w.word.trim()).slice(0, 3)).toEqual(["Hello", clip.words[1].word.trim(), "wörld"]);
		expect(drawn).toHaveLength(clip.words.length);
		drawn.forEach((w, i) => {
			expect(w.start).toBeCloseTo(clip.words[i].start, 3);
			expect(w.end).toBeCloseTo(clip.words[i].end, 3);
		});
		const after = (await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body;
		expect(after).toMatchObject({ status: "completed", captionStyle: "sentence", edits: 1 });
		expect(after.words[0]).toMatchObject({
			index: 0,
			word: "Hello",
			start: clip.words[0].start,
			end: clip.words[0].end,
		});
		expect(after.transcript.startsWith("Hello")).toBe(true);
		const srt = await call("GET", `/api/clips/${clip.id}/captions?format=srt`, { key: apiKey });
		expect(srt.body).toMatch(/^1\n00:00:00,\d{3} --> 00:00:\d\d,\d{3}\nHello /);
	});

	it("saves words of captions not shown, a hook title not drawn and a title without rendering", async () => {
		const { apiKey, clip } = await processed({ enableCaptions: false, enableIntroTitle: false });
		const before = renders().length;
		const edited = await editAndWait(apiKey, clip.id, {
			captionWords: [{ index: 1, word: "fixed" }],
			hookTitle: "Wait for it",
			title: "New title",
		});
		expect(edited.status).toBe(200);
		expect(edited.body).toMatchObject({
			status: "completed",
			edits: 0,
			hookTitle: "Wait for it",
			title: "New title",
		});
		expect(edited.body.words[1].word).toBe("fixed");
		expect(renders().length).toBe(before);
		const vtt = (await call("GET", `/api/clips/${clip.id}/captions?format=vtt`, { key: apiKey })).body as string;
		expect(vtt).toContain(" fixed ");
	});

	it("a corrected word cannot forge cues: it is stored on one line, and SRT and VTT escape what is left", async () => {
		const { apiKey, clip } = await processed({ enableCaptions: false });
		const forged = "hi\n\n99\n00:00:00,000 --> 00:09:00,000\r\n<b>forged</b> & cue\u2028x";
		const edited = await editAndWait(apiKey, clip.id, { captionWords: [{ index: 0, word: forged }] });
		expect(edited.status, JSON.stringify(edited.body)).toBe(200);
		expect(edited.body.words[0].word).toBe("hi 99 00:00:00,000 --> 00:09:00,000 <b>forged</b> & cue x");
		const srt = (await call("GET", `/api/clips/${clip.id}/captions?format=srt`, { key: apiKey })).body as string;
		const vtt = (await call("GET", `/api/clips/${clip.id}/captions?format=vtt`, { key: apiKey })).body as string;
		for (const [file, sep] of [
			[srt, ","],
			[vtt, "."],
		] as const) {
			const arrows = file.split("\n").filter((line) => line.includes("-->"));
			const timing = new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\${sep}\\d{3} --> \\d\\d:\\d\\d:\\d\\d\\${sep}\\d{3}$`);
			for (const line of arrows) expect(line, file).toMatch(timing);
			expect(file.split("\n")).not.toContain("99");
			expect(file).not.toContain("\u2028");
		}
		expect(vtt).toContain("&lt;b&gt;forged&lt;/b&gt; &amp; cue");
		expect(
			(
				await call("PATCH", `/api/clips/${clip.id}`, {
					key: apiKey,
					body: { captionWords: [{ index: 0, word: "\n\t" }] },
				})
			).status,
		).toBe(400);
	});

	it("keeps the previous version when the render fails, and says why", async () => {
		const { apiKey, videoId, clip } = await processed();
		fake().failAlways(renderJobs.renderClip.path, {
			code: "process_failed",
			message: "ffmpeg could not open the font",
			retryable: false,
		});
		const started = await editAndWait(apiKey, clip.id, { startTime: clip.startTime + 2 }, "errored");
		expect(started.status).toBe(202);
		const after = (await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body;
		expect(after).toMatchObject({
			status: "completed",
			startTime: clip.startTime,
			endTime: clip.endTime,
			duration: clip.duration,
			edits: 1,
		});
		expect(after.editError).toMatch(
			/could not be rendered: .*ffmpeg could not open the font.*keeps its previous version/,
		);
		expect((await call("GET", path(after.downloadUrl))).body).toMatchObject({
			clip: clip.id,
			start: clip.startTime,
		});
		const stored = (await env.MEDIA.list({ prefix: `clips/${videoId}/${clip.id}` })).objects
			.map((o) => o.key)
			.sort();
		expect(stored).toEqual([`clips/${videoId}/${clip.id}.jpg`, `clips/${videoId}/${clip.id}.mp4`]);
		// A later edit works again and clears the error.
		fake().failures.clear();
		expect((await editAndWait(apiKey, clip.id, { startTime: clip.startTime + 2 })).status).toBe(202);
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			edits: 2,
			editError: null,
		});
	});
});

describe("deleting the video while a clip renders again", () => {
	it("leaves no clip files behind and refunds nothing for the edit", async () => {
		const { apiKey, workspaceId, videoId, clip } = await processed();
		const balance = await balanceOf(workspaceId);
		await using introspector = await introspectVideoRuns();
		let deleted: Promise<unknown> | null = null;
		// The user deletes the video while the tier draws the edit.
		fake().before.set(renderJobs.renderClip.path, async () => {
			deleted = call("DELETE", `/api/videos/${videoId}`, { key: apiKey });
			await deleted;
		});
		expect(
			(await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { startTime: clip.startTime + 2 } }))
				.status,
		).toBe(202);
		for (const instance of await introspector.get())
			await instance.waitForStatus("complete").catch(() => instance.waitForStatus("errored"));
		expect(deleted).not.toBeNull();
		expect(((await deleted!) as { status: number }).status).toBe(200);
		expect((await env.MEDIA.list({ prefix: `clips/${videoId}/` })).objects).toEqual([]);
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).status).toBe(404);
		expect(await balanceOf(workspaceId)).toBe(balance);
		expect(await ledgerSum(workspaceId)).toBe(balance);
	});
});

describe("the reconciler", () => {
	it("puts a clip whose edit's job vanished back to its previous version", async () => {
		const { apiKey, clip } = await processed();
		// As if an edit had started an hour ago and its instance were lost.
		await env.DB.prepare(
			"UPDATE clips SET status = 'generating', edits = 1, start_time = start_time + 3, previous_edit = ?, updated_at = '2020-01-01T00:00:00.000Z' WHERE id = ?",
		)
			.bind(
				JSON.stringify({
					startTime: clip.startTime,
					endTime: clip.endTime,
					hookTitle: clip.hookTitle,
					captionStyle: null,
					captionFixes: null,
					transcript: clip.transcript,
				}),
				clip.id,
			)
			.run();
		const report = await reconcileStaleVideos(env);
		expect(report.failed).toContain(clip.id);
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			startTime: clip.startTime,
			editError: expect.stringMatching(/stopped unexpectedly/),
		});
	});
});

describe("refusals", () => {
	it("409 clip_processing while the clip renders again, and a reprocess waits for it too", async () => {
		const { apiKey, videoId, clip } = await processed();
		fake().renderDelays.push(800);
		await using introspector = await introspectVideoRuns();
		expect(
			(await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { startTime: clip.startTime + 2 } }))
				.status,
		).toBe(202);
		const again = await call("PATCH", `/api/clips/${clip.id}`, {
			key: apiKey,
			body: { endTime: clip.endTime - 2 },
		});
		expect(again.status).toBe(409);
		expect(again.body.error.code).toBe("clip_processing");
		// Meanwhile the clip is listed as generating, and the signed URL handed out before still serves its previous file.
		const listed = (await call("GET", `/api/videos/${videoId}/clips?status=generating`, { key: apiKey })).body;
		expect(listed.clips.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
			[clip.id, "generating"],
		]);
		expect((await call("GET", path(clip.downloadUrl))).body).toMatchObject({
			clip: clip.id,
			start: clip.startTime,
		});
		// Favoriting draws nothing: fine meanwhile.
		expect((await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { favorited: true } })).status).toBe(
			200,
		);
		const reprocess = await call("POST", `/api/videos/${videoId}/reprocess`, { key: apiKey, body: {} });
		expect(reprocess.status).toBe(409);
		expect(reprocess.body.error.code).toBe("video_processing");
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			favorited: true,
			edits: 1,
		});
	});

	it("at most 3 clips of a workspace render again at once: the 4th edit that would render gets 429 queue_full and changes nothing", async () => {
		const { apiKey, videoId } = await processed();
		const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as Array<{
			id: string;
			startTime: number;
		}>;
		expect(clips.length).toBeGreaterThanOrEqual(4);
		fake().renderDelays.push(1500, 1500, 1500);
		await using introspector = await introspectVideoRuns();
		for (const clip of clips.slice(0, 3))
			expect(
				(await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { startTime: clip.startTime + 1 } }))
					.status,
			).toBe(202);
		const fourth = clips[3]!;
		const refused = await call("PATCH", `/api/clips/${fourth.id}`, {
			key: apiKey,
			body: { startTime: fourth.startTime + 1, title: "not saved" },
		});
		expect(refused.status).toBe(429);
		expect(refused.response.headers.get("retry-after")).toBe("30");
		expect(refused.body.error).toMatchObject({ code: "queue_full", details: { maxConcurrent: 3 } });
		expect((await call("GET", `/api/clips/${fourth.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			edits: 0,
			startTime: fourth.startTime,
		});
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		expect(
			(await call("PATCH", `/api/clips/${fourth.id}`, { key: apiKey, body: { startTime: fourth.startTime + 1 } }))
				.status,
		).toBe(202);
	});

	it("of two edits sent at once, one starts and the other is refused: one re-render, never two", async () => {
		const { apiKey, clip } = await processed();
		const before = renders().length;
		await using introspector = await introspectVideoRuns();
		const answers = await Promise.all([
			call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { startTime: clip.startTime + 2 } }),
			call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { endTime: clip.endTime - 2 } }),
		]);
		expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
		expect(answers.find((a) => a.status === 409)!.body.error.code).toBe("clip_processing");
		const instances = await introspector.get();
		expect(instances).toHaveLength(1);
		await instances[0]!.waitForStatus("complete");
		expect(renders().length - before).toBe(1);
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			edits: 1,
		});
	});

	it("409 video_processing while the video is being reprocessed", async () => {
		const { apiKey, videoId, clip } = await processed();
		await using introspector = await introspectVideoRuns();
		expect(
			(
				await call("POST", `/api/videos/${videoId}/reprocess`, {
					key: apiKey,
					body: { config: { aspectRatio: "1:1" } },
				})
			).status,
		).toBe(202);
		const edit = await call("PATCH", `/api/clips/${clip.id}`, {
			key: apiKey,
			body: { startTime: clip.startTime + 2 },
		});
		expect(edit.status).toBe(409);
		expect(edit.body.error).toMatchObject({ code: "video_processing", details: { status: "analyzing" } });
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
	});

	it("410 source_deleted when the stored source is gone", async () => {
		const { apiKey, videoId, clip } = await processed();
		await env.MEDIA.delete(`sources/${videoId}/source.mp4`);
		const edit = await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { endTime: clip.endTime - 2 } });
		expect(edit.status).toBe(410);
		expect(edit.body.error.code).toBe("source_deleted");
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			edits: 0,
			endTime: clip.endTime,
		});
	});

	it("400 for times outside the source, too short or too long, backwards, and unknown words or fields", async () => {
		const { apiKey, clip } = await processed();
		const cases: [unknown, string][] = [
			[{ endTime: 241 }, "endTime"],
			[{ startTime: 10, endTime: 12 }, "endTime"],
			[{ startTime: 60, endTime: 50 }, "endTime"],
			[{ startTime: -1 }, "startTime"],
			[{ captionWords: [{ index: 10_000, word: "x" }] }, "captionWords.0.index"],
			[{ captionStyle: "comic-sans" }, "captionStyle"],
			[{ speed: 2 }, ""],
		];
		for (const [body, field] of cases) {
			const { status, body: answer } = await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body });
			expect(status, JSON.stringify(body)).toBe(400);
			expect(answer.error.code).toBe("invalid_request");
			if (field) expect(JSON.stringify(answer.error.details), JSON.stringify(body)).toContain(field);
		}
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			edits: 0,
		});
	});

	it("400 for a trim outside the charged time frame, with the frame in details: an edit renders only what was paid for", async () => {
		// A 3-hour source with a 60 s time frame: 1 minute charged.
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("long"), { duration: 3 * 3600 }), {
			timeframeStart: 100,
			timeframeEnd: 160,
			clipDurationMin: 15,
			clipDurationMax: 30,
		});
		expect(await balanceOf(workspaceId)).toBe(9);
		const [clip] = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips;
		for (const body of [
			{ startTime: 5000, endTime: 5600 },
			{ startTime: 5000, endTime: 5030 },
			{ startTime: 90, endTime: 120 },
			{ endTime: 170 },
		]) {
			const { status, body: answer } = await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body });
			expect(status, JSON.stringify(body)).toBe(400);
			expect(answer.error.code).toBe("invalid_request");
			expect(answer.error.details, JSON.stringify(body)).toContainEqual(
				expect.objectContaining({ frame: { start: 100, end: 160 } }),
			);
		}
		expect(renders()).toHaveLength((await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.clipsCount);
		expect((await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body).toMatchObject({ edits: 0 });
		// Inside the frame a trim is fine.
		const inside = await editAndWait(apiKey, clip.id, { startTime: 120, endTime: 150 });
		expect(inside.status, JSON.stringify(inside.body)).toBe(202);
		expect(await balanceOf(workspaceId)).toBe(9);
	});

	it(`re-renders are free up to ${MAX_EDITS_PER_CLIP} per clip, then 409 quota_exceeded`, async () => {
		const { apiKey, workspaceId, clip } = await processed();
		await env.DB.prepare("UPDATE clips SET edits = ? WHERE id = ?").bind(MAX_EDITS_PER_CLIP, clip.id).run();
		const edit = await call("PATCH", `/api/clips/${clip.id}`, {
			key: apiKey,
			body: { startTime: clip.startTime + 2 },
		});
		expect(edit.status).toBe(409);
		expect(edit.body.error).toMatchObject({
			code: "quota_exceeded",
			details: { limit: MAX_EDITS_PER_CLIP, used: MAX_EDITS_PER_CLIP },
		});
		// What draws nothing stays possible.
		expect((await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { favorited: true } })).status).toBe(
			200,
		);
		expect(await ledgerSum(workspaceId)).toBe(await balanceOf(workspaceId));
	});
});
