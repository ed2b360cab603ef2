/** Ten videos processing at once on the local stack: all complete, each one's progress only rises. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api, useServedMedia } from "./client.ts";
import { makeTalkVideo } from "../../scripts/sample-video.ts";

const media = useServedMedia("clipforge-concurrency-", (dir) => makeTalkVideo({ out: join(dir, "talk.mp4"), seconds: 20, width: 320, height: 180 }));

describe("ten videos at once", () => {
	it("all complete with clips, and every video's progress is monotonic", async () => {
		const ids = await Promise.all(
			Array.from({ length: 10 }, async (_, i) => {
				const submitted = await api("POST", "/api/videos/hosted", { hostedUrl: `${media.url()}/talk.mp4?copy=${i}`, config: { clipDurationMin: 5, clipDurationMax: 12 } });
				expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
				return submitted.body.video.id as string;
			}),
		);
		const history = new Map<string, number[]>(ids.map((id) => [id, []]));
		const done = new Map<string, string>();
		const deadline = Date.now() + 6 * 60_000;
		while (done.size < ids.length && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 2000));
			for (const id of ids.filter((i) => !done.has(i))) {
				const { body } = await api("GET", `/api/videos/${id}/status`);
				history.get(id)!.push(body.job.progress);
				if (body.video.status === "completed" || body.video.status === "failed") done.set(id, body.video.status);
			}
		}
		expect([...done.values()]).toEqual(ids.map(() => "completed"));
		for (const [id, progress] of history) {
			expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!), `${id}: ${progress.join(",")}`).toBe(true);
			expect(progress[progress.length - 1]).toBe(100);
			expect((await api("GET", `/api/videos/${id}/clips`)).body.count).toBeGreaterThan(0);
		}
	});
});
