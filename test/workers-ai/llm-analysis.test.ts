/**
 * Both models' LLM analyses under the workflow, with the AI binding's text models played by the
 * stub in their documented JSON-mode shape (and refusing what Workers AI refuses): the video's
 * rankedBy names the model, and the clips the API returns carry the model's words (hook title,
 * reason, hooks, emotions, description). Capacity errors are retried call by call, then step by
 * step, before the offline ranker takes over.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/llm/${crypto.randomUUID()}.mp4`;

describe("LLM analysis in the workflow", () => {
	for (const [clipModel, model, headline] of [
		["ClipBasic", "@cf/meta/llama-4-scout-17b-16e-instruct", "Stub headline from the fast model"],
		["ClipPro", "@cf/meta/llama-3.3-70b-instruct-fp8-fast", "Stub headline from the strong model"],
	] as const) {
		it(`${clipModel} ranks with ${model} and the clips carry its words`, async () => {
			const { apiKey } = await createWorkspace({ minutes: 10 });
			const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 120 }), {
				clipModel,
				clipDurationMin: 10,
				clipDurationMax: 30,
			});
			const detail = await call("GET", `/api/videos/${videoId}`, { key: apiKey });
			expect(detail.body.rankedBy).toBe(`${clipModel} (workers-ai:${model})`);
			const { body } = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
			expect(body.count).toBeGreaterThan(0);
			for (const clip of body.clips) {
				expect(clip.hookTitle).toBe(headline);
				expect(clip.viralityReason).toBe("It opens on a question and answers it within the clip.");
				expect(clip.hooks).toEqual({ question: "Why does this matter?", statement: null });
				expect(clip.emotions).toEqual(["curiosity"]);
				expect(clip.description).toMatch(/#learning/);
				expect(clip.duration).toBeGreaterThanOrEqual(10);
				expect(clip.duration).toBeLessThanOrEqual(30);
			}
		});
	}

	it("falls back to the offline ranker when the model's answers are not JSON, and the video says why", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 90 }), {
			clipDurationMin: 10,
			clipDurationMax: 30,
			customPrompt: "sleep llm-fault:garbage",
		});
		const detail = await call("GET", `/api/videos/${videoId}`, { key: apiKey });
		expect(detail.body.status).toBe("completed");
		expect(detail.body.rankedBy).toMatch(
			/^ClipBasic \(offline ranker: fallback, workers-ai:@cf\/meta\/llama-4-scout-17b-16e-instruct failed: the model's answer did not match the schema twice \(not JSON\)\)$/,
		);
	});

	it("a capacity error on each call is retried at once, call by call: the model still ranks", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 90 }), {
			clipDurationMin: 10,
			clipDurationMax: 30,
			customPrompt: "sleep llm-fault:capacity-once",
		});
		const detail = await call("GET", `/api/videos/${videoId}`, { key: apiKey });
		expect(detail.body.rankedBy).toBe("ClipBasic (workers-ai:@cf/meta/llama-4-scout-17b-16e-instruct)");
	});

	it("a model busy through every retry: the rank step is tried three times, and only its last attempt ranks offline", async () => {
		const marker = `llm-fault:capacity ${crypto.randomUUID()}`;
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 90 }), {
			clipDurationMin: 10,
			clipDurationMax: 30,
			customPrompt: `sleep ${marker}`,
		});
		const detail = await call("GET", `/api/videos/${videoId}`, { key: apiKey });
		expect(detail.body.status).toBe("completed");
		expect(detail.body.rankedBy).toMatch(
			/^ClipBasic \(offline ranker: fallback, workers-ai:.* failed: all 1 transcript parts failed: 3040: Capacity temporarily exceeded/,
		);
		// One transcript part: 4 calls per attempt (the first and three retries), 3 attempts of the step.
		expect(
			await (env.AI as unknown as { run(model: string, input: unknown): Promise<number> }).run("stub:calls", {
				marker,
			}),
		).toBe(12);
	});
});
