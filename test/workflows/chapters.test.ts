import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorkspace, statusEvents } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { threeTopicSentences } from "../helpers/three-topics";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;
const { sentences } = threeTopicSentences(30);

interface Chapters {
	chapters: { start: number; end: number; title: string; summary: string }[];
	summary: string;
	description: string;
	madeBy: string;
	note: string | null;
}

/** Where the transcript's sentence opening with `opening` starts. */
async function startOf(apiKey: string, videoId: string, opening: string): Promise<number> {
	const transcript = (await call("GET", `/api/videos/${videoId}/transcript`, { key: apiKey })).body as {
		segments: { start: number; text: string }[];
	};
	return transcript.segments.find((s) => s.text.trim().startsWith(opening))!.start;
}

describe("chapters of every processed video", () => {
	it("a processed talk on three topics gets three chapters that start where the topics do, with titles, a summary and show notes", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("three-topics"), { duration: 400, script: sentences });
		const videoId = await submitAndProcess(apiKey, source, { clipDurationMin: 15, clipDurationMax: 60 });

		const answer = await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey });
		expect(answer.status).toBe(200);
		const body = answer.body as Chapters;
		expect(body.madeBy).toBe("offline");
		expect(body.note).toBeNull();
		expect(body.chapters).toHaveLength(3);
		const [garden, money, sky] = body.chapters;
		expect(garden!.start).toBe(0);
		expect(Math.abs(money!.start - (await startOf(apiKey, videoId, "Okay, moving on")))).toBeLessThan(5);
		expect(Math.abs(sky!.start - (await startOf(apiKey, videoId, "Next, let's talk")))).toBeLessThan(5);
		for (const [i, c] of body.chapters.entries()) {
			expect(c.end - c.start).toBeGreaterThanOrEqual(10);
			if (i > 0) expect(c.start).toBe(body.chapters[i - 1]!.end);
		}
		expect(money!.title).toMatch(/budget|savings|mortgage|interest|loan|pension|spending|bank|salary|debt/i);
		expect(sky!.title).toMatch(/telescope|planet|galaxy|orbit|star|jupiter|moon|eyepiece|sky|comet/i);
		expect(body.summary).toMatch(/^This video covers /);
		const lines = body.description.split("\n");
		expect(lines[0]).toBe(body.summary);
		expect(lines.slice(2)).toEqual(
			body.chapters.map((c) => {
				const s = Math.floor(c.start);
				return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")} ${c.title}`;
			}),
		);
		expect(lines[2]).toMatch(/^00:00 /);
		// Stored beside the transcript by the workflow, not made on this request.
		expect(await env.MEDIA.head(`chapters/${videoId}.json`)).not.toBeNull();
	});

	it("a transcribe-only video has chapters too, and its stages are unchanged", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("transcribe-only"), { duration: 400, script: sentences });
		const videoId = await submitAndProcess(apiKey, source, { skipClipping: true });
		expect(await statusEvents(videoId)).toEqual(["downloading", "uploading", "transcribing", "completed"]);
		expect(await env.MEDIA.head(`chapters/${videoId}.json`)).not.toBeNull();
		const body = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body as Chapters;
		expect(body.chapters).toHaveLength(3);
		expect(body.chapters[0]!.start).toBe(0);
	});

	it("a video too short for YouTube's rules has no chapters and says so, with its summary as the description", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("short"), { duration: 25 }), {
			skipClipping: true,
		});
		const body = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body as Chapters;
		expect(body.chapters).toEqual([]);
		expect(body.note).toMatch(
			/^No chapters: YouTube shows chapters only when a video has at least 3 of them, each at least 10 seconds long/,
		);
		expect(body.description).toBe(body.summary);
	});

	it("a video completed before chapters existed gets them on first read, made from its transcript and stored", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("older"), { duration: 400, script: sentences });
		const videoId = await submitAndProcess(apiKey, source, { skipClipping: true });
		const first = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body as Chapters;
		await env.MEDIA.delete(`chapters/${videoId}.json`);
		const again = await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey });
		expect(again.status).toBe(200);
		expect(again.body).toEqual(first);
		expect(await env.MEDIA.head(`chapters/${videoId}.json`)).not.toBeNull();
	});

	it("is served only for a completed video of the caller's workspace", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const other = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("mine"), { duration: 60 }), {
			skipClipping: true,
		});
		expect((await call("GET", `/api/videos/${videoId}/chapters`, { key: other.apiKey })).status).toBe(404);
		await env.DB.prepare("UPDATE videos SET status = 'transcribing' WHERE id = ?").bind(videoId).run();
		const early = await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey });
		expect(early.status).toBe(409);
		expect(early.body.error).toMatchObject({ code: "conflict", details: { status: "transcribing" } });
	});

	it("split-clips of a talk on three topics ends parts where the topics change, each part titled from its chapter", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("split-topics"), { duration: 400, script: sentences });
		const videoId = await submitAndProcess(apiKey, source, {
			clipType: "split-clips",
			clipDurationMin: 30,
			clipDurationMax: 90,
		});
		const parts = (await call("GET", `/api/videos/${videoId}/clips?sort=time`, { key: apiKey })).body.clips as {
			title: string;
			startTime: number;
			endTime: number;
		}[];
		const byTime = [...parts].sort((a, b) => a.startTime - b.startTime);
		const money = await startOf(apiKey, videoId, "Okay, moving on");
		const sky = await startOf(apiKey, videoId, "Next, let's talk");
		for (const topicStart of [money, sky]) {
			expect(byTime.some((p) => Math.abs(p.startTime - topicStart) < 1.5)).toBe(true);
			expect(byTime.some((p) => p.startTime < topicStart - 2 && p.endTime > topicStart + 2)).toBe(false);
		}
		for (const p of byTime) {
			expect(p.endTime - p.startTime).toBeGreaterThanOrEqual(30 - 0.01);
			expect(p.endTime - p.startTime).toBeLessThanOrEqual(90 + 0.01);
		}
		const skyParts = byTime.filter((p) => p.startTime >= sky - 1.5);
		expect(skyParts.length).toBeGreaterThan(0);
		for (const p of skyParts)
			expect(p.title).toMatch(
				/^Part \d+: .*(telescope|planet|galaxy|orbit|star|jupiter|moon|eyepiece|sky|comet)/i,
			);
	});
});
