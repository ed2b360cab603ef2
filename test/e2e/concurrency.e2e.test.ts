/**
 * Six videos submitted at once on the local stack: the workspace's limit (MAX_CONCURRENT_VIDEOS, 2)
 * holds, the others wait in line with their queue position, all complete, each one's progress only rises.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const media = useServedMedia("clipforge-concurrency-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 20, width: 320, height: 180 }),
);

/**
 * A submission retried as the SDK and the docs advise: a 429 says after how long (`retryAfter`).
 * Six at once exceed the workspace's share of probes (4) when the machine is slow enough that a
 * probe outlasts the 10 s a fifth one waits for its turn.
 */
async function submitAsAClientWould(body: unknown): Promise<{ status: number; body: any }> {
	for (let attempt = 0; ; attempt++) {
		const answer = await api("POST", "/api/videos/hosted", body);
		if (answer.status !== 429 || attempt === 5) return answer;
		await new Promise((r) => setTimeout(r, (answer.body.error.details?.retryAfter ?? 5) * 1000));
	}
}

describe("six videos at once", () => {
	it("the ones over the workspace's limit wait in line; all complete with clips, and every video's progress is monotonic", async () => {
		const ids = await Promise.all(
			Array.from({ length: 6 }, async (_, i) => {
				const submitted = await submitAsAClientWould({
					hostedUrl: `${media.url()}/talk.mp4?copy=${i}`,
					config: { clipDurationMin: 5, clipDurationMax: 12 },
				});
				expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
				return submitted.body.video.id as string;
			}),
		);
		const history = new Map<string, number[]>(ids.map((id) => [id, []]));
		let waited = 0;
		const finished = await Promise.all(
			ids.map((id) =>
				waitForStatus(id, {
					intervalMs: 2000,
					timeoutMs: 8 * 60_000,
					onStatus: (body) => {
						history.get(id)!.push(body.job.progress);
						if (body.job.queuePosition) waited++;
					},
				}),
			),
		);
		// The limit itself is exact in test/workflows/capacity.security.test.ts; here: the line was used.
		expect(waited).toBeGreaterThan(0);
		const done = finished.map((body) => body.video.status as string);
		expect(done).toEqual(ids.map(() => "completed"));
		for (const [id, progress] of history) {
			expect(
				progress.every((p, i) => i === 0 || p >= progress[i - 1]!),
				`${id}: ${progress.join(",")}`,
			).toBe(true);
			expect(progress[progress.length - 1]).toBe(100);
			expect((await api("GET", `/api/videos/${id}/clips`)).body.count).toBeGreaterThan(0);
		}
	});
});
