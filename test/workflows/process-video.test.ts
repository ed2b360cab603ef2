import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum, statusEvents } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { renderJobs } from "@clipforge/contract";

const fake = useFakeRenderTier({ introspect: false });

const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;

describe("ProcessVideoWorkflow", () => {
	it("passes the stages in the seed's order and ends completed with rendered clips", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("talk"), { duration: 120 });
		const videoId = await submitAndProcess(apiKey, source, { clipDurationMin: 15, clipDurationMax: 30 });

		expect(await statusEvents(videoId)).toEqual([
			"downloading",
			"uploading",
			"transcribing",
			"analyzing",
			"generating_clips",
			"completed",
		]);
		const status = await call("GET", `/api/videos/${videoId}/status`, { key: apiKey });
		expect(status.body.video.status).toBe("completed");
		expect(status.body.job).toMatchObject({
			progress: 100,
			stage: "completed",
			startedAt: expect.any(String),
			updatedAt: expect.any(String),
		});
		expect(status.body.video.errorMessage).toBeNull();

		const clips = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(clips.body.count).toBeGreaterThanOrEqual(2);
		for (const clip of clips.body.clips) {
			expect(clip.duration).toBeGreaterThanOrEqual(15);
			expect(clip.duration).toBeLessThanOrEqual(30);
			expect(clip.status).toBe("completed");
			// The rendered object is really in R2 behind the signed URL.
			const file = await call("GET", new URL(clip.downloadUrl).pathname + new URL(clip.downloadUrl).search);
			expect(file.status).toBe(200);
			expect(file.body.start).toBeCloseTo(clip.startTime, 2);
		}
		// Scores are best-first.
		const scores = clips.body.clips.map((c: { score: number }) => c.score);
		expect([...scores].sort((a, b) => b - a)).toEqual(scores);
		// Intermediate objects are cleaned up; the transcript and source stay.
		expect((await env.MEDIA.list({ prefix: `audio/${videoId}/` })).objects).toHaveLength(0);
		expect(await env.MEDIA.head(`transcripts/${videoId}.json`)).not.toBeNull();
		expect(await balanceOf(workspaceId)).toBe(98);
		expect(await ledgerSum(workspaceId)).toBe(98);
	});

	it("makes at most maxClips clips: the best ones the ranking found, and renders only those", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const config = { clipDurationMin: 15, clipDurationMax: 30 };
		const all = await submitAndProcess(apiKey, fake().addSource(url("all"), { duration: 240 }), config);
		const every = (await call("GET", `/api/videos/${all}/clips`, { key: apiKey })).body.clips as {
			score: number;
			startTime: number;
		}[];
		expect(every.length).toBeGreaterThan(2);

		const rendersBefore = fake().calls.filter((c) => c.path === renderJobs.renderClip.path).length;
		const capped = await submitAndProcess(apiKey, fake().addSource(url("capped"), { duration: 240 }), {
			...config,
			maxClips: 2,
		});
		const clips = (await call("GET", `/api/videos/${capped}/clips`, { key: apiKey })).body.clips as {
			score: number;
			startTime: number;
		}[];
		expect(clips.map((c) => [c.startTime, c.score])).toEqual(every.slice(0, 2).map((c) => [c.startTime, c.score]));
		expect(fake().calls.filter((c) => c.path === renderJobs.renderClip.path).length - rendersBefore).toBe(2);
		expect((await call("GET", `/api/videos/${capped}`, { key: apiKey })).body.config.maxClips).toBe(2);
		expect(
			(
				await call("POST", "/api/videos/hosted", {
					key: apiKey,
					body: { hostedUrl: url("x"), config: { maxClips: 0 } },
				})
			).status,
		).toBe(400);
	});

	it("fails with the cause as errorMessage, refunds in full, and leaves no clips or objects", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const source = fake().addSource(url("gone"), { duration: 200 });
		fake().failNext(renderJobs.download.path, {
			code: "unsupported_source",
			message: "The source answered HTTP 404.",
			retryable: false,
		});
		const videoId = await submitAndProcess(apiKey, source, {}, "errored");

		const status = await call("GET", `/api/videos/${videoId}/status`, { key: apiKey });
		expect(status.body.video.status).toBe("failed");
		expect(status.body.video.errorMessage).toBe("Downloading the source failed: The source answered HTTP 404.");
		expect(await statusEvents(videoId)).toEqual(["downloading", "failed"]);
		expect(await balanceOf(workspaceId)).toBe(10);
		expect(await ledgerSum(workspaceId)).toBe(10);
		const ledger = await env.DB.prepare("SELECT kind, minutes FROM minutes_ledger WHERE video_id = ? ORDER BY id")
			.bind(videoId)
			.all();
		expect(ledger.results).toEqual([
			{ kind: "charge", minutes: -4 },
			{ kind: "refund", minutes: 4 },
		]);
		expect((await env.MEDIA.list({ prefix: `sources/${videoId}/` })).objects).toHaveLength(0);
	});

	it("retries a transient render-tier error and still completes", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("flaky"), { duration: 60 });
		fake().failNext(renderJobs.renderClip.path, {
			code: "process_failed",
			message: "ffmpeg was killed",
			retryable: true,
		});
		const videoId = await submitAndProcess(apiKey, source, { clipDurationMin: 10, clipDurationMax: 20 });
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe(
			"completed",
		);
		const renders = fake().calls.filter((c) => c.path === renderJobs.renderClip.path).length;
		const clips = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(renders).toBe(clips.body.count + 1);
	});

	it("measures the audio and ranks a loud stretch higher (energy in the breakdown)", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("loud"), { duration: 240 });
		fake().loudAt.push([150, 175]);
		const videoId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			genre: "Gaming",
		});
		const signals = await (await env.MEDIA.get(`signals/${videoId}.json`))!.json<{ loudness: number[] }>();
		expect(signals.loudness).toHaveLength(480);
		const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips;
		// The loud stretch is cut as a clip of its own, among the best, and its breakdown says why.
		const loud = clips.find((c: { startTime: number; endTime: number }) => c.startTime < 175 && c.endTime > 150);
		expect(loud).toBeDefined();
		expect(clips.indexOf(loud)).toBeLessThan(2);
		for (const other of clips)
			if (other !== loud) expect(loud.scoreBreakdown.energy).toBeGreaterThan(other.scoreBreakdown.energy);
	});

	it("renders clips as a pool: a new render starts as soon as any finishes, not in lock-step batches", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("pool"), { duration: 150 });
		// The first render is slow; the others are quick.
		fake().renderDelays.push(1500, 50, 50, 50, 50, 50, 50, 50);
		const videoId = await submitAndProcess(apiKey, source, {
			clipType: "split-clips",
			clipDurationMin: 20,
			clipDurationMax: 30,
		});
		const ids = await env.DB.prepare("SELECT id FROM clips WHERE video_id = ?").bind(videoId).all<{ id: string }>();
		const log = fake().renderLog.filter((r) => ids.results.some((c) => c.id === r.clipId));
		expect(log.length).toBeGreaterThanOrEqual(5);
		const slow = log[0]!;
		// While the slow first clip renders, the other lanes keep going: clips 3, 4 and 5 all start before it ends.
		for (const later of log.slice(2, 5)) expect(later.start).toBeLessThan(slow.end);
		// Never more than three in flight.
		for (const r of log)
			expect(log.filter((o) => o.start <= r.start && o.end > r.start).length).toBeLessThanOrEqual(3);
	});

	it("nothing that only needs the source waits for the words: the upload, audio, loudness and look overlap, chunks run two at once, renders follow the ranking", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("overlap"), { duration: 600 });
		fake().jobDelays.set(renderJobs.uploadSource.path, 600);
		fake().jobDelays.set(renderJobs.transcribe.path, 150);
		const videoId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			enableCaptions: true,
		});
		const ran = (path: string) => fake().jobLog.filter((j) => j.path === path);
		const [upload] = ran(renderJobs.uploadSource.path);
		// The audio and the loudness are taken from the download while it is being stored.
		expect(ran(renderJobs.extractAudio.path)[0]!.start).toBeLessThan(upload!.end);
		expect(ran(renderJobs.signals.path)[0]!.start).toBeLessThan(upload!.end);
		// 600 s in the local stack's 150 s chunks: four, two at a time (TRANSCRIBE_PARALLELISM), never more.
		const chunks = ran(renderJobs.transcribe.path);
		expect(chunks).toHaveLength(4);
		const inFlight = chunks.map((c) => chunks.filter((o) => o.start <= c.start && o.end > c.start).length);
		expect(Math.max(...inFlight)).toBe(2);
		// The timeline the workflow recorded: one row per step, in the plan's order.
		const rows = (
			await env.DB.prepare(
				"SELECT step, started_at AS startedAt, ended_at AS endedAt, ok FROM video_steps WHERE video_id = ? ORDER BY id",
			)
				.bind(videoId)
				.all<{ step: string; startedAt: string; endedAt: string; ok: number }>()
		).results;
		const at = (step: string) => rows.find((r) => r.step === step)!;
		for (const step of [
			"load video",
			"download source",
			"upload source",
			"extract audio",
			"compute signals",
			"prepare the caption look",
			"merge transcript",
			"find chapters",
			"rank moments",
			"finish",
		]) {
			expect(at(step), step).toMatchObject({ ok: 1 });
		}
		expect(rows.filter((r) => r.step.startsWith("transcribe chunk"))).toHaveLength(4);
		// The look was ready before the ranking ended, so the first render starts right after it.
		expect(at("prepare the caption look").endedAt <= at("rank moments").endedAt).toBe(true);
		const renders = rows.filter((r) => r.step.startsWith("render clip"));
		expect(renders.length).toBeGreaterThanOrEqual(2);
		for (const render of renders) expect(render.startedAt >= at("rank moments").endedAt).toBe(true);
		expect(await statusEvents(videoId)).toEqual([
			"downloading",
			"uploading",
			"transcribing",
			"analyzing",
			"generating_clips",
			"completed",
		]);
	});

	it("split-clips renders every consecutive part of the frame, numbered", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("split"), { duration: 150 });
		const videoId = await submitAndProcess(apiKey, source, {
			clipType: "split-clips",
			clipDurationMin: 20,
			clipDurationMax: 40,
			timeframeStart: 10,
			timeframeEnd: 130,
		});
		const clips = (await call("GET", `/api/videos/${videoId}/clips?sort=time`, { key: apiKey })).body.clips;
		expect(clips.length).toBeGreaterThanOrEqual(3);
		clips.forEach((clip: { title: string; startTime: number; endTime: number }, i: number) => {
			expect(clip.title).toMatch(new RegExp(`^Part ${i + 1}: `));
			expect(clip.startTime).toBeGreaterThanOrEqual(10);
			expect(clip.endTime).toBeLessThanOrEqual(130);
			if (i > 0) expect(clip.startTime).toBeGreaterThanOrEqual(clips[i - 1].endTime - 0.61);
		});
		expect(fake().calls.filter((c) => c.path === renderJobs.renderClip.path)).toHaveLength(clips.length);
		expect(clips[clips.length - 1].endTime).toBeGreaterThan(120);
	});

	it("ClipPro without an LLM falls back to the offline ranker and the video records it", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("pro"), { duration: 60 });
		const videoId = await submitAndProcess(apiKey, source, {
			clipModel: "ClipPro",
			clipDurationMin: 10,
			clipDurationMax: 20,
		});
		const detail = await call("GET", `/api/videos/${videoId}`, { key: apiKey });
		expect(detail.body.status).toBe("completed");
		expect(detail.body.rankedBy).toBe("ClipPro (offline ranker: no LLM is configured)");
	});

	it("skipClipping transcribes only: no analyzing, no generating_clips, no clips", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("transcribe-only"), { duration: 90 });
		const videoId = await submitAndProcess(apiKey, source, { skipClipping: true });
		expect(await statusEvents(videoId)).toEqual(["downloading", "uploading", "transcribing", "completed"]);
		const clips = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(clips.body).toMatchObject({ videoId, status: "completed", clips: [], count: 0 });
		const transcript = await (await env.MEDIA.get(`transcripts/${videoId}.json`))!.json<{
			words: unknown[];
			language: string;
		}>();
		expect(transcript.words.length).toBeGreaterThan(100);
		expect(transcript.language).toBe("en");
		expect(fake().calls.some((c) => c.path === renderJobs.renderClip.path)).toBe(false);
	});

	it("transcribes only the time frame, in chunks, and merges the seams without losing or doubling words", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("long"), { duration: 1500 });
		// The local stack's 150 s chunks over 100..1400 s: nine chunks with 2 s overlaps, the last one short.
		const videoId = await submitAndProcess(apiKey, source, {
			skipClipping: true,
			timeframeStart: 100,
			timeframeEnd: 1400,
		});
		const extract = fake().calls.find((c) => c.path === renderJobs.extractAudio.path)!.body as {
			chunks: { start: number; duration: number }[];
		};
		expect(extract.chunks.map((c) => [c.start, c.duration])).toEqual(
			Array.from({ length: 9 }, (_, k) => [100 + 150 * k, k < 8 ? 152 : 100]),
		);
		const transcript = await (await env.MEDIA.get(`transcripts/${videoId}.json`))!.json<{
			words: { start: number }[];
		}>();
		const starts = transcript.words.map((w) => w.start);
		expect(starts[0]).toBeGreaterThanOrEqual(100);
		expect(starts[starts.length - 1]).toBeLessThan(1400);
		expect(new Set(starts.map((s) => s.toFixed(2))).size).toBe(starts.length);
		// No gap wider than a sentence pause: nothing lost at any of the eight seams.
		const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
		expect(Math.max(...gaps)).toBeLessThan(1.2);
	});

	it("the local engine's lower-case words reach the transcript and the clips as written: I, known names, a capital per utterance", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		// As pocketsphinx hears a talk: lower case, no punctuation.
		const script = [
			"ten years ago i worked nights at a bakery in chicago",
			"every morning at five my boss walter handed me a coffee",
			"i never slept i went to class instead and i loved it",
			"we moved to boston in april and i still miss that bakery",
		];
		const source = fake().addSource(url("lower-case"), { duration: 120, script });
		const videoId = await submitAndProcess(apiKey, source, { clipDurationMin: 15, clipDurationMax: 30 });

		const transcript = (await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey })).body as {
			segments: { text: string; words: { word: string }[] }[];
		};
		const text = transcript.segments.map((s) => s.text).join(" ");
		expect(text).toContain("I worked nights at a bakery in Chicago");
		expect(text).toContain("my boss Walter handed me");
		expect(text).not.toMatch(/\bi\b|chicago|walter|boston/);
		for (const segment of transcript.segments) {
			expect(segment.text).toMatch(/^\p{Lu}/u);
			expect(segment.words.map((w) => w.word).join(" ")).toBe(segment.text);
		}
		const clips = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(clips.body.count).toBeGreaterThan(0);
		for (const clip of clips.body.clips) expect(clip.transcript).not.toMatch(/\bi\b|chicago|walter|boston/);
		// Where an utterance ended, a clip's text has the stop the engine leaves out ("… in Chicago. Every morning …").
		expect(clips.body.clips.some((clip: { transcript: string }) => /\w\. \p{Lu}/u.test(clip.transcript))).toBe(
			true,
		);
	});
});
