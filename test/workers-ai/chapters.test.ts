/**
 * Chapters written by the configured LLM under the workflow (the AI binding's text models played by
 * the stub in their JSON-mode shape), and the offline chapters taking over when its answers are
 * unusable, as the ranker does.
 */
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { threeTopicSentences } from "../helpers/three-topics";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/chapters/${crypto.randomUUID()}.mp4`;
const { sentences } = threeTopicSentences(30);

interface Chapters {
	chapters: { start: number; end: number; title: string; summary: string }[];
	summary: string;
	description: string;
	madeBy: string;
}

describe("chapters by the LLM", () => {
	it("the fast model writes the chapters and the summary, held to YouTube's rules", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 400, script: sentences }), {
			skipClipping: true,
		});
		const body = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body as Chapters;
		expect(body.madeBy).toBe("llm");
		expect(body.chapters.length).toBeGreaterThanOrEqual(5);
		expect(body.chapters[0]!.start).toBe(0);
		for (const c of body.chapters) {
			expect(c.title).toMatch(/^Stub chapter at \d+ s$/);
			expect(c.summary).toBe("What the stub read there.");
			expect(c.end - c.start).toBeGreaterThanOrEqual(10);
		}
		expect(body.summary).toBe(
			`Stub summary by @cf/meta/llama-4-scout-17b-16e-instruct of ${body.chapters.length} chapters.`,
		);
		expect(body.description.split("\n").slice(2)).toHaveLength(body.chapters.length);
		expect(body.description).toContain("\n\n00:00 Stub chapter at 0 s\n01:0");
	});

	it("falls back to the offline chapters when the model's answers are not JSON", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const script = [...sentences.slice(0, 5), "Nobody says llm-fault:garbage out loud.", ...sentences.slice(5)];
		const videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 400, script }), {
			skipClipping: true,
		});
		const body = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body as Chapters;
		expect(body.madeBy).toBe("offline");
		expect(body.chapters).toHaveLength(3);
		expect(body.summary).toMatch(/^This video covers /);
	});
});
