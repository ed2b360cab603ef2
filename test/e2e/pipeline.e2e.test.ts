/**
 * The product as a client sees it, on the real local stack: a generated 60 s talk video goes URL →
 * status polling → clips → a signed download, then ffprobe checks the file.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { frameAt, isHighlight, isWhite, pixelsIn } from "../../containers/render/test/frames.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const media = useServedMedia("clipforge-e2e-media-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 60 }),
);

describe("a hosted video, end to end", () => {
	it("goes downloading → … → completed with monotonic progress, and its clips download and play", async () => {
		const started = Date.now();
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: { clipDurationMin: 10, clipDurationMax: 30 },
		});
		expect(submitted.status).toBe(201);
		expect(submitted.body.video.status).toBe("downloading");
		expect(submitted.body.videoInfo.duration).toBeCloseTo(60, 0);
		const id = submitted.body.video.id;

		const seen: { status: string; progress: number }[] = [];
		await waitForStatus(id, {
			onStatus: (body) => seen.push({ status: body.video.status, progress: body.job.progress }),
		});
		const last = seen[seen.length - 1]!;
		expect(last, JSON.stringify(seen.slice(-3))).toEqual({ status: "completed", progress: 100 });
		const order = ["downloading", "uploading", "transcribing", "analyzing", "generating_clips", "completed"];
		for (let i = 1; i < seen.length; i++) {
			expect(seen[i]!.progress).toBeGreaterThanOrEqual(seen[i - 1]!.progress);
			expect(order.indexOf(seen[i]!.status)).toBeGreaterThanOrEqual(order.indexOf(seen[i - 1]!.status));
		}
		// Progress is seen between stage boundaries, not only at them.
		expect(seen.some((s) => ![0, 15, 20, 55, 65, 100].includes(s.progress))).toBe(true);

		const { body: list } = await api("GET", `/api/videos/${id}/clips`);
		expect(list.count).toBeGreaterThanOrEqual(2);
		expect(list.clips[0].transcript.length).toBeGreaterThan(20);
		const clip = list.clips[0];
		expect(clip.score).toBeGreaterThan(0);
		expect(clip.viralityReason.length).toBeGreaterThan(10);

		const file = await fetch(clip.downloadUrl);
		expect(file.status).toBe(200);
		const path = join(media.dir(), "clip.mp4");
		writeFileSync(path, new Uint8Array(await file.arrayBuffer()));
		const probe = JSON.parse(
			execFileSync("ffprobe", [
				"-v",
				"error",
				"-show_entries",
				"format=duration:stream=codec_name,width,height",
				"-of",
				"json",
				path,
			]).toString(),
		);
		expect(probe.streams[0]).toMatchObject({ codec_name: "h264", width: 1080, height: 1920 });
		expect(Number(probe.format.duration)).toBeCloseTo(clip.duration, 0);

		const range = await fetch(clip.downloadUrl, { headers: { range: "bytes=100-199" } });
		expect(range.status).toBe(206);
		expect((await range.arrayBuffer()).byteLength).toBe(100);
		const thumb = await fetch(clip.thumbnailUrl);
		expect(thumb.headers.get("content-type")).toBe("image/jpeg");
		console.log(`e2e: 60 s video → ${list.count} clips in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	});

	it("refunds and explains when the source disappears between probe and download", async () => {
		const { body: before } = await api("GET", "/api/workspaces");
		const gone = join(media.dir(), "short-lived.mp4");
		cachedTalkVideo({ out: gone, seconds: 8, width: 320, height: 180 });
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/short-lived.mp4`,
			config: {},
		});
		expect(submitted.status).toBe(201);
		rmSync(gone);
		const status = await waitForStatus(submitted.body.video.id, { timeoutMs: 2 * 60_000 });
		expect(status.video.status).toBe("failed");
		// Every way of not getting the bytes reads the same (no port-scan oracle; SECURITY.md).
		expect(status.video.errorMessage).toMatch(/Downloading the source failed: The source could not be fetched/);
		const { body: after } = await api("GET", "/api/workspaces");
		expect(after[0].minutesBalance).toBe(before[0].minutesBalance);
	});
});

describe("every rendering option at once, end to end", () => {
	it("burns karaoke captions on the seam, the hook title and the mark over a built-in background, with smart crop on (no face in this source: centre)", async () => {
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: {
				clipDurationMin: 10,
				clipDurationMax: 20,
				enableCaptions: true,
				captionTemplateId: "karaoke",
				enableIntroTitle: true,
				enableSplitScreen: true,
				splitScreenBgCategoryId: "retro",
				splitRatio: 50,
				enableSmartCrop: true,
			},
		});
		expect(submitted.status).toBe(201);
		const id = submitted.body.video.id;
		const status = await waitForStatus(id);
		expect(status.video, JSON.stringify(status.video)).toMatchObject({ status: "completed" });

		const { body: list } = await api("GET", `/api/videos/${id}/clips?sort=time`);
		const clip = list.clips[0];
		const path = join(media.dir(), "styled.mp4");
		writeFileSync(path, new Uint8Array(await (await fetch(clip.downloadUrl)).arrayBuffer()));
		const { body: transcript } = await api("GET", `/api/videos/${id}/transcript`);
		const spoken = transcript.words.find(
			(w: { start: number; end: number }) =>
				w.start >= clip.startTime + 3.2 && w.end <= clip.endTime && w.end - w.start >= 0.25,
		);
		expect(spoken).toBeDefined();
		const seam = 960;
		const duringWord = frameAt(path, (spoken.start + spoken.end) / 2 - clip.startTime);
		const captionPixels = pixelsIn(
			duringWord,
			{ x0: 0, y0: seam - 120, x1: 1080, y1: seam + 120 },
			(r, g, b) => isWhite(r, g, b) || isHighlight(r, g, b),
		);
		expect(captionPixels.count).toBeGreaterThan(300);
		// The hook title's box is up at the start and gone after it.
		const hookBand = { x0: 0, y0: 40, x1: 1080, y1: 400 };
		const dark = (r: number, g: number, b: number) => r < 40 && g < 40 && b < 40;
		expect(pixelsIn(frameAt(path, 1), hookBand, dark).count).toBeGreaterThan(
			pixelsIn(frameAt(path, 5), hookBand, dark).count + 5000,
		);
		// The default mark sits in the bottom-right corner, over the background.
		expect(
			pixelsIn(
				frameAt(path, 2),
				{ x0: 800, y0: 1820, x1: 1080, y1: 1920 },
				(r, g, b) => r > 150 && g > 150 && b > 150,
			).count,
		).toBeGreaterThan(100);
		const thumb = await fetch(clip.thumbnailUrl);
		expect(thumb.status).toBe(200);
	});
});
