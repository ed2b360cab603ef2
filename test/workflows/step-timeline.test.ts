/**
 * The video's timeline (video_steps): a row per step that ran, failed attempts included, gone with
 * the video, and dropped by the cron once old.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { purgeExpired } from "../../src/worker/services/purge";
import { STEP_TIMELINE_DAYS } from "../../src/worker/services/step-timeline";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/timeline-${crypto.randomUUID()}.mp4`;
const stepsOf = async (videoId: string) =>
	(
		await env.DB.prepare(
			"SELECT step, instance_id AS instanceId, started_at AS startedAt, ended_at AS endedAt, ok FROM video_steps WHERE video_id = ? ORDER BY id",
		)
			.bind(videoId)
			.all<{ step: string; instanceId: string; startedAt: string; endedAt: string; ok: number }>()
	).results;

describe("the step timeline", () => {
	it("records every step that ran, a failed attempt too, each with its start before its end", async () => {
		const { apiKey } = await createWorkspace();
		fake().failNext(renderJobs.renderClip.path, {
			code: "process_failed",
			message: "ffmpeg was killed",
			retryable: true,
		});
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), {
			clipDurationMin: 10,
			clipDurationMax: 20,
		});
		const rows = await stepsOf(videoId);
		expect(rows.map((r) => r.step)).toEqual(
			expect.arrayContaining([
				"load video",
				"claim a processing slot",
				"download source",
				"upload source",
				"extract audio",
				"transcribe chunk 1 of 1",
				"merge transcript",
				"find chapters",
				"compute signals",
				"rank moments",
				"finish",
			]),
		);
		for (const row of rows) {
			expect(row.instanceId).toBe(videoId);
			expect(Date.parse(row.endedAt)).toBeGreaterThanOrEqual(Date.parse(row.startedAt));
		}
		// The render the tier dropped is a failed attempt, then the retry that worked.
		const first = rows.filter((r) => r.step.startsWith("render clip 1 of"));
		expect(first.map((r) => r.ok)).toEqual([0, 1]);
		// A step whose result was replayed after the failure is not recorded twice.
		expect(rows.filter((r) => r.step === "download source")).toHaveLength(1);
	});

	it("goes with the video, and the cron drops rows older than its days", async () => {
		const { apiKey } = await createWorkspace();
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 30 }), {
			skipClipping: true,
		});
		expect((await stepsOf(videoId)).length).toBeGreaterThan(5);
		const old = new Date(Date.now() - (STEP_TIMELINE_DAYS + 1) * 86_400_000).toISOString();
		await env.DB.prepare(
			"INSERT INTO video_steps (video_id, instance_id, step, started_at, ended_at, ok) VALUES ('vid_gone', 'vid_gone', 'finish', ?, ?, 1)",
		)
			.bind(old, old)
			.run();
		expect((await purgeExpired(env)).stepTimings).toBeGreaterThanOrEqual(1);
		expect(await stepsOf("vid_gone")).toEqual([]);
		expect((await stepsOf(videoId)).length).toBeGreaterThan(5);
		expect((await call("DELETE", `/api/videos/${videoId}`, { key: apiKey })).status).toBe(200);
		expect(await stepsOf(videoId)).toEqual([]);
	});
});
