/**
 * The real render tier killed (SIGKILL) in the middle of a video's renders on the local stack, then
 * started again: the workflow's render step sees the cut stream, retries with backoff, and the video
 * completes with every clip file present, charged once.
 */
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";
import { crashRenderTier } from "../../scripts/stack.ts";

const media = useServedMedia("clipforge-e2e-crash-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 60 }),
);

describe("the render tier dies mid-render", () => {
	it("is retried after it comes back, and the video completes with all its clips", async () => {
		const { body: before } = await api("GET", "/api/workspaces");
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: { clipDurationMin: 10, clipDurationMax: 20, enableCaptions: true },
		});
		expect(submitted.status).toBe(201);
		const id = submitted.body.video.id;

		let status = await waitForStatus(id, { until: ["generating_clips"], intervalMs: 200 });
		expect(status.video.status).toBe("generating_clips");
		// Let a render get going, then pull the plug for a few seconds.
		await new Promise((r) => setTimeout(r, 1500));
		const { body: justBefore } = await api("GET", `/api/videos/${id}/status`);
		expect(justBefore.video.status).toBe("generating_clips");
		expect(justBefore.job.progress).toBeLessThan(100);
		await crashRenderTier(inject("clipforgeStateDir"), 3000);

		status = await waitForStatus(id);
		expect(status.video, JSON.stringify(status.video)).toMatchObject({ status: "completed", errorMessage: null });
		const { body: clips } = await api("GET", `/api/videos/${id}/clips`);
		expect(clips.count).toBeGreaterThan(0);
		for (const clip of clips.clips) {
			const file = await fetch(clip.downloadUrl, { headers: { range: "bytes=0-99" } });
			expect(file.status).toBe(206);
		}
		const { body: after } = await api("GET", "/api/workspaces");
		expect(before[0].minutesBalance - after[0].minutesBalance).toBe(1);
	});
});
