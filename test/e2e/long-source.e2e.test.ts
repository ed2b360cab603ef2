/**
 * A source long enough for the clips users get (the seed's defaults: 15-90 s), on the real stack:
 * a 3-minute talk submitted with no config completes, and every clip plays for its stated length.
 * Clips over 30 s used to fail the whole video ("The value of "timeout" is out of range … Received
 * 757200.0000000002"): no test before this one rendered a clip longer than 30 s end to end.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const SECONDS = 180;
const media = useServedMedia("clipforge-e2e-long-", (dir) =>
	cachedTalkVideo({ out: join(dir, "long-talk.mp4"), seconds: SECONDS, preset: "ultrafast" }),
);

it("a 3-minute talk with the seed's defaults completes with clips over 30 s, each playing for its stated length", async () => {
	const started = Date.now();
	const submitted = await api("POST", "/api/videos/hosted", {
		hostedUrl: `${media.url()}/long-talk.mp4`,
		config: {},
	});
	expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
	const id = submitted.body.video.id;
	const status = await waitForStatus(id, { timeoutMs: 9 * 60_000 });
	expect(status.video, JSON.stringify(status.video)).toMatchObject({ status: "completed" });

	const { body: list } = await api("GET", `/api/videos/${id}/clips?sort=time`);
	expect(list.count).toBeGreaterThanOrEqual(2);
	expect(
		list.clips.some((c: { duration: number }) => c.duration > 30),
		JSON.stringify(list.clips.map((c: { duration: number }) => c.duration)),
	).toBe(true);
	for (const clip of list.clips) {
		expect(clip.duration).toBeGreaterThanOrEqual(15 - 0.5);
		expect(clip.duration).toBeLessThanOrEqual(90 + 0.5);
		const path = join(media.dir(), `${clip.id}.mp4`);
		writeFileSync(path, new Uint8Array(await (await fetch(clip.downloadUrl)).arrayBuffer()));
		const played = Number(
			execFileSync("ffprobe", [
				"-v",
				"error",
				"-show_entries",
				"format=duration",
				"-of",
				"csv=p=0",
				path,
			]).toString(),
		);
		expect(Math.abs(played - clip.duration), `${clip.id}: plays ${played} s, says ${clip.duration} s`).toBeLessThan(
			0.25,
		);
	}
	console.log(
		`e2e: ${SECONDS} s video with the seed's defaults → ${list.count} clips (${list.clips.map((c: { duration: number }) => c.duration.toFixed(1)).join(", ")} s) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);
});
