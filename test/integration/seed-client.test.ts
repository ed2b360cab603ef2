/**
 * A client written against SEED-INTERFACE.md and nothing else: workspaces → submit with a config
 * → poll status (a missing job.progress counts as 0) → list clips. It must work unchanged.
 */
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { BASE } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { exports } from "cloudflare:workers";

const fake = useFakeRenderTier();

/** The seed client's own tiny HTTP layer: Bearer key, JSON bodies. */
function seedClient(apiKey: string) {
	const request = async (method: string, path: string, body?: unknown) => {
		const response = await exports.default.fetch(`${BASE}${path}`, {
			method,
			headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: response.status, json: (await response.json()) as any };
	};
	return {
		workspaces: () => request("GET", "/api/workspaces"),
		submit: (hostedUrl: string, workspaceId: string, config: object) =>
			request("POST", "/api/videos/hosted", { hostedUrl, workspaceId, config }),
		status: (id: string) => request("GET", `/api/videos/${id}/status`),
		clips: (id: string) => request("GET", `/api/videos/${id}/clips`),
	};
}

describe("the seed's example client flow", () => {
	it("submit → poll → list works unchanged", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const hostedUrl = fake().addSource("https://www.videos.example.com/watch?v=dQw4w9WgXcQ", {
			duration: 185,
			title: "A talk about sleep",
		});
		const client = seedClient(apiKey);

		const workspaces = await client.workspaces();
		expect(Array.isArray(workspaces.json)).toBe(true);
		const workspaceId: string = workspaces.json[0].id;

		// Every config field of seed 2.3, with the seed's value types.
		const config = {
			clipType: "viral-clips",
			clipModel: "ClipBasic",
			genre: "Podcast",
			clipDurationMin: 15,
			clipDurationMax: 60,
			aspectRatio: "9:16",
			enableCaptions: true,
			enableIntroTitle: true,
			captionTemplateId: "karaoke",
			language: "en",
			timeframeStart: 0,
			timeframeEnd: null,
			enableSplitScreen: false,
			splitScreenBgVideoId: null,
			splitScreenBgCategoryId: null,
			splitRatio: 50,
			enableSmartCrop: false,
			enableWatermark: true,
			skipClipping: false,
			customPrompt: "Find the most surprising moments",
		};
		const submitted = await client.submit(hostedUrl, workspaceId, config);
		expect(submitted.status).toBe(201);
		expect(typeof submitted.json.message).toBe("string");
		expect(submitted.json.video).toMatchObject({
			status: "downloading",
			sourceType: "hosted",
			sourceUrl: hostedUrl,
			workspaceId,
			title: "A talk about sleep",
		});
		expect(submitted.json.videoInfo).toMatchObject({
			title: "A talk about sleep",
			duration: 185,
			channelName: expect.any(String),
			thumbnail: expect.any(String),
			id: expect.any(String),
		});
		const id: string = submitted.json.video.id;

		let status = "";
		let progress = 0;
		for (let poll = 0; poll < 400 && status !== "completed" && status !== "failed"; poll++) {
			const s = await client.status(id);
			status = s.json.video.status;
			const next = s.json.job?.progress ?? 0;
			expect(next).toBeGreaterThanOrEqual(progress);
			progress = next;
			await new Promise((r) => setTimeout(r, 25));
		}
		expect(status).toBe("completed");

		const listed = await client.clips(id);
		expect(listed.json.videoId).toBe(id);
		expect(listed.json.count).toBe(listed.json.clips.length);
		expect(listed.json.count).toBeGreaterThan(0);
		for (const clip of listed.json.clips) {
			for (const field of [
				"id",
				"title",
				"startTime",
				"endTime",
				"duration",
				"score",
				"viralityReason",
				"transcript",
				"downloadUrl",
				"thumbnailUrl",
				"status",
				"aspectRatio",
			]) {
				expect(clip).toHaveProperty(field);
			}
			expect(clip.status).toBe("completed");
			expect(clip.aspectRatio).toBe("9:16");
			expect(clip.score).toBeGreaterThanOrEqual(0);
			expect(clip.score).toBeLessThanOrEqual(100);
		}
	});
});
