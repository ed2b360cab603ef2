import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { parseItems } from "@clipforge/moments/llm";
import { LlmMoment } from "@clipforge/moments/ranking/llm/answer";
import {
	createLlm as createLlmWithDelays,
	DEFAULT_FAST_MODEL,
	DEFAULT_STRONG_MODEL,
	openAiCompatibleLlm,
	workersAiLlm,
	type LlmSettings,
} from "../../src/worker/services/llm/client";
import { rankMoments } from "@clipforge/moments";
import { checkTextRequest, textReply } from "../workers-ai/ai-fidelity.mjs";
import { sentencesOf, type Transcript } from "@clipforge/moments/text";
import { GARDEN_EPISODE, STORY_TURNS } from "../helpers/garden-episode";
import { spanOfTurns, transcriptOf, type Turn } from "../helpers/talk";

const episode = transcriptOf(GARDEN_EPISODE);
const basic = { ...defaultConfig(), clipModel: "ClipBasic" as const, clipDurationMin: 15, clipDurationMax: 90 };
const pro = { ...basic, clipModel: "ClipPro" as const };

type Input = {
	messages: { role: string; content: string }[];
	response_format: { type: string; json_schema: Record<string, unknown> };
	max_tokens: number;
};

/** Retries on capacity errors without the production pauses. */
const createLlm = (settings: LlmSettings, strength: "fast" | "strong") =>
	createLlmWithDelays(settings, strength, { delaysMs: [0, 0, 0] });

/**
 * A Workers AI binding stub: refuses what Workers AI would (a model outside the generated
 * catalogue, JSON mode on a model without it, a schema beyond the plain subset: ai-fidelity.mjs),
 * then answers in the model's API shape (`{ response, usage }`, JSON mode parses `response`).
 */
function aiStub(answer: (input: Input, call: number) => unknown) {
	const calls: { model: string; input: Input }[] = [];
	return {
		calls,
		run: vi.fn(async (model: string, input: Record<string, unknown>) => {
			const api = checkTextRequest(env.AI_CATALOGUE, model, input);
			calls.push({ model, input: input as unknown as Input });
			const value = answer(input as unknown as Input, calls.length);
			if (value instanceof Error) throw value;
			return textReply(api, value, { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 });
		}),
	};
}

/** Sentence numbers of the story in the numbered transcript the model is shown ("S<n> [t] text"). */
function sentenceNumbers(input: Input, from: RegExp, to: RegExp): [number, number] {
	const lines = input.messages.at(-1)!.content.split("\n");
	const number = (re: RegExp) => Number(/^S(\d+) /.exec(lines.find((l) => re.test(l))!)![1]);
	return [number(from), number(to)];
}

const moment = (first: number, last: number, extra: Partial<Record<string, unknown>> = {}) => ({
	firstSentence: first,
	lastSentence: last,
	title: "The fig tree that outlived its bucket",
	hookTitle: "Grandma's fig tree has a secret",
	score: 92,
	reason: "A grandmother's fig tree changes hands and the neighbour keeps a promise for years.",
	hooks: { question: null, statement: "My grandmother kept a fig tree in a bucket for thirty years." },
	emotions: ["Warmth", "Surprise"],
	description: "A promise kept for years. #family #gardening",
	...extra,
});

describe("ClipBasic with an LLM (one pass, the fast model)", () => {
	it("asks the fast model with a JSON schema, checks the sentence numbers against the transcript and fits the clip to whole sentences", async () => {
		const ai = aiStub((input) => ({
			clips: [moment(...sentenceNumbers(input, /my grandmother kept a fig tree/, /To this day/))],
		}));
		const outcome = await rankMoments(episode, basic, null, createLlm({ AI: ai }, "fast"));
		expect(ai.calls[0]!.model).toBe(DEFAULT_FAST_MODEL);
		expect(ai.calls[0]!.input.response_format.type).toBe("json_schema");
		expect(ai.calls[0]!.input.response_format.json_schema).toMatchObject({
			type: "object",
			properties: { clips: { type: "array" } },
		});
		expect(outcome.rankedBy).toBe(`ClipBasic (workers-ai:${DEFAULT_FAST_MODEL})`);
		const [clip] = outcome.clips;
		const story = spanOfTurns(episode, ...STORY_TURNS);
		// Fitted to whole sentences, its opening "So," left out: cut between "So," and "my".
		expect(clip!.start).toBeCloseTo(afterOpeningSo(episode, story.start), 1);
		expect(clip!.transcript).toMatch(/^My grandmother kept a fig tree/);
		expect(clip!.end).toBeCloseTo(story.end + 0.4, 1);
		expect(clip).toMatchObject({
			title: "The fig tree that outlived its bucket",
			hookTitle: "Grandma's fig tree has a secret",
			viralityReason: "A grandmother's fig tree changes hands and the neighbour keeps a promise for years.",
			hooks: { question: null, statement: "My grandmother kept a fig tree in a bucket for thirty years." },
			emotions: ["warmth", "surprise"],
			description: "A promise kept for years. #family #gardening",
		});
		// The model's 92 blended with the offline ranker's calibrated score (spread, not bunched at the top).
		expect(clip!.score).toBeGreaterThan(80);
		expect(clip!.score).toBeLessThanOrEqual(100);
	});

	it("drops spans that are not in the transcript, fits over-long ones inside the range, and removes overlaps", async () => {
		const ai = aiStub(() => ({
			clips: [moment(9000, 9010), moment(0, 400, { score: 80 }), moment(3, 8, { score: 70 }), moment(12, 11)],
		}));
		const outcome = await rankMoments(
			episode,
			{ ...basic, clipDurationMax: 40 },
			null,
			createLlm({ AI: ai }, "fast"),
		);
		expect(outcome.rankedBy).toMatch(/^ClipBasic \(workers-ai/);
		for (const clip of outcome.clips) {
			expect(clip.end - clip.start).toBeLessThanOrEqual(40);
			expect(clip.end - clip.start).toBeGreaterThanOrEqual(15);
		}
		const byTime = [...outcome.clips].sort((a, b) => a.start - b.start);
		byTime.forEach((c, i) => i > 0 && expect(c.start).toBeGreaterThanOrEqual(byTime[i - 1]!.end));
	});

	it("keeps its own headline when the model's merely quotes the clip's first words", async () => {
		const ai = aiStub((input) => ({
			clips: [
				moment(...sentenceNumbers(input, /my grandmother kept a fig tree/, /To this day/), {
					hookTitle: "My grandmother kept a fig tree",
				}),
			],
		}));
		const [clip] = (await rankMoments(episode, basic, null, createLlm({ AI: ai }, "fast"))).clips;
		expect(clip!.transcript).toMatch(/^My grandmother kept a fig tree/);
		expect(clip!.hookTitle).not.toBe("My grandmother kept a fig tree");
		expect(clip!.hookTitle.length).toBeLessThanOrEqual(60);
	});

	it("reads a long video in chunks of about 15 minutes, four at a time", async () => {
		const long = transcriptOf(Array.from({ length: 8 }, () => GARDEN_EPISODE).flat() as Turn[]);
		const ai = aiStub(() => ({ clips: [] }));
		await rankMoments(long, basic, null, createLlm({ AI: ai }, "fast"));
		expect(ai.calls).toHaveLength(Math.ceil(long.duration / 900));
	});
});

describe("ClipPro with an LLM (two passes, the strong model)", () => {
	it("scores overlapping ~90 s windows, then details the best ones into clips", async () => {
		const ai = aiStub((input) => {
			const system = input.messages[0]!.content;
			if (system.includes("Score each window")) {
				const ids = [...input.messages[1]!.content.matchAll(/### Window (\d+)\n([^#]*)/g)].map(
					([, id, text]) => ({ id: Number(id), story: /fig tree/.test(text!) }),
				);
				return {
					windows: ids.map(({ id, story }) => ({
						window: id,
						hook: story ? 9 : 2,
						completeness: story ? 9 : 3,
						payoff: story ? 10 : 2,
						relevance: null,
					})),
				};
			}
			const lines = input.messages[1]!.content;
			if (!/my grandmother kept a fig tree/.test(lines) || !/To this day/.test(lines)) return { clips: [] };
			return { clips: [moment(...sentenceNumbers(input, /my grandmother kept a fig tree/, /To this day/))] };
		});
		const outcome = await rankMoments(episode, pro, null, createLlm({ AI: ai }, "strong"));
		expect(ai.calls.every((c) => c.model === DEFAULT_STRONG_MODEL)).toBe(true);
		const judging = ai.calls.filter((c) => c.input.messages[0]!.content.includes("Score each window"));
		expect(judging.length).toBeGreaterThanOrEqual(1);
		// Windows of about 90 s, a new one every 45 s: about duration/45 of them.
		const windows = judging.flatMap((c) => [...c.input.messages[1]!.content.matchAll(/### Window/g)]).length;
		expect(windows).toBeGreaterThanOrEqual(Math.floor(episode.duration / 45) - 2);
		expect(ai.calls.length).toBeGreaterThan(judging.length);
		expect(outcome.rankedBy).toBe(`ClipPro (workers-ai:${DEFAULT_STRONG_MODEL})`);
		const story = spanOfTurns(episode, ...STORY_TURNS);
		expect(outcome.clips[0]!.start).toBeCloseTo(afterOpeningSo(episode, story.start), 1);
		// Pass one's judgement shows in the breakdown.
		expect(outcome.clips[0]!.scoreBreakdown.payoff).toBe(100);
	});

	it("passes the person's prompt verbatim to both passes; an empty answer means no clips, with the reason", async () => {
		const prompt = "the part where they talk about the budget for the new fence";
		const ai = aiStub((input) =>
			input.messages[0]!.content.includes("Score each window")
				? { windows: [{ window: 0, hook: 5, completeness: 5, payoff: 5, relevance: 8 }] }
				: { clips: [] },
		);
		const outcome = await rankMoments(
			episode,
			{ ...pro, customPrompt: prompt },
			null,
			createLlm({ AI: ai }, "strong"),
		);
		for (const call of ai.calls) expect(JSON.stringify(call.input.messages)).toContain(`«${prompt}»`);
		expect(outcome.clips).toEqual([]);
		expect(outcome.note).toBe("No clips: the model found no passage matching the prompt.");
	});
});

describe("answers that go wrong", () => {
	it("repairs code fences and an answer cut off mid-array; drops single invalid items", () => {
		const good = JSON.stringify(moment(1, 2));
		expect(parseItems(`\`\`\`json\n{"clips": [${good}]}\n\`\`\``, "clips", LlmMoment)).toMatchObject({
			ok: true,
			items: [{ firstSentence: 1 }],
		});
		const truncated = `{"clips": [${good}, ${JSON.stringify(moment(5, 9))}, {"firstSentence": 12, "lastSen`;
		const repaired = parseItems(truncated, "clips", LlmMoment);
		expect(repaired.ok && repaired.items.map((m) => m.firstSentence)).toEqual([1, 5]);
		expect(parseItems("I think the best moment is at 3:20", "clips", LlmMoment)).toEqual({
			ok: false,
			error: "not JSON",
		});
		const mixed = parseItems({ clips: [{ ...moment(1, 2), score: "high" }, moment(3, 4)] }, "clips", LlmMoment);
		expect(mixed.ok && mixed.items).toHaveLength(1);
	});

	it("asks once more, saying what was wrong, then uses the corrected answer", async () => {
		const ai = aiStub((input, call) =>
			call === 1
				? "Sure! Here are your clips: the fig tree one"
				: {
						clips: [
							moment(
								...sentenceNumbers(
									{ ...input, messages: [input.messages[1]!] },
									/my grandmother kept a fig tree/,
									/To this day/,
								),
							),
						],
					},
		);
		const outcome = await rankMoments(episode, basic, null, createLlm({ AI: ai }, "fast"));
		expect(ai.calls).toHaveLength(2);
		expect(ai.calls[1]!.input.messages.at(-1)!.content).toContain("not valid (not JSON)");
		expect(outcome.rankedBy).toMatch(/^ClipBasic \(workers-ai/);
		expect(outcome.clips).toHaveLength(1);
	});

	it("falls back to the offline ranker, saying why, when the model keeps failing, refuses, or the provider errors", async () => {
		const garbage = await rankMoments(
			episode,
			basic,
			null,
			createLlm({ AI: aiStub(() => ({ answer: 42 })) }, "fast"),
		);
		expect(garbage.rankedBy).toMatch(
			/^ClipBasic \(offline ranker: fallback, workers-ai:.* failed: the model's answer did not match the schema twice \(no "clips" array\)\)$/,
		);
		expect(garbage.clips.length).toBeGreaterThan(0);

		const capacity = await rankMoments(
			episode,
			pro,
			null,
			createLlm(
				{ AI: aiStub(() => new Error("3040: Capacity temporarily exceeded, please try again.")) },
				"strong",
			),
		);
		expect(capacity.rankedBy).toMatch(
			/fallback, workers-ai:.* failed: all 1 batches of windows failed: 3040: Capacity temporarily exceeded/,
		);
		expect(capacity.clips.length).toBeGreaterThan(0);

		const jsonMode = await rankMoments(
			episode,
			basic,
			null,
			createLlm({ AI: aiStub(() => new Error("AiError: JSON Mode couldn't be met")) }, "fast"),
		);
		expect(jsonMode.rankedBy).toMatch(/JSON Mode couldn't be met/);

		const refusing = openAiCompatibleLlm("https://llm.example/v1", "k", "m", (async () =>
			Response.json({
				choices: [{ message: { content: null, refusal: "I can't help with that." } }],
			})) as unknown as typeof fetch);
		const refused = await rankMoments(episode, basic, null, refusing);
		expect(refused.rankedBy).toMatch(
			/fallback, openai-compatible:m failed: the model refused: I can't help with that/,
		);

		const none = await rankMoments(episode, basic, null, null);
		expect(none.rankedBy).toBe("ClipBasic (offline ranker: no LLM is configured)");
	});
});

describe("LLM clients", () => {
	it("Workers AI: messages and a JSON-schema response_format; the answer is output.response", async () => {
		const ai = { run: vi.fn().mockResolvedValue({ response: { clips: [] }, usage: { prompt_tokens: 10 } }) };
		const llm = workersAiLlm(ai, DEFAULT_STRONG_MODEL);
		expect(
			await llm.complete([{ role: "user", content: "hi" }], { name: "x", schema: { type: "object" } }),
		).toEqual({ clips: [] });
		expect(ai.run.mock.calls[0]![0]).toBe(DEFAULT_STRONG_MODEL);
		expect(ai.run.mock.calls[0]![1]).toMatchObject({
			messages: [{ role: "user", content: "hi" }],
			response_format: { type: "json_schema", json_schema: { type: "object" } },
		});
	});

	it("OpenAI-compatible (Ollama, vLLM…): POST /chat/completions with a bearer key; the answer is choices[0].message.content", async () => {
		const fetchStub = vi.fn(async () => Response.json({ choices: [{ message: { content: '{"clips": []}' } }] }));
		const llm = openAiCompatibleLlm(
			"https://llm.example.com/v1/",
			"sk-test",
			"llama3.1",
			fetchStub as unknown as typeof fetch,
		);
		expect(
			await llm.complete([{ role: "user", content: "hi" }], { name: "clip_moments", schema: { type: "object" } }),
		).toBe('{"clips": []}');
		const [url, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
		expect(url).toBe("https://llm.example.com/v1/chat/completions");
		expect((init.headers as Record<string, string>).authorization).toBe("Bearer sk-test");
		expect(JSON.parse(init.body as string)).toMatchObject({
			model: "llama3.1",
			response_format: { type: "json_schema", json_schema: { name: "clip_moments" } },
		});
	});

	it("picks the fast model for ClipBasic and the strong one for ClipPro, from the settings", () => {
		const ai = { run: vi.fn() };
		expect(createLlm({ AI: ai }, "fast")!.name).toBe(`workers-ai:${DEFAULT_FAST_MODEL}`);
		expect(createLlm({ AI: ai, LLM_MODEL: "@cf/x/strong", LLM_FAST_MODEL: "@cf/x/fast" }, "strong")!.name).toBe(
			"workers-ai:@cf/x/strong",
		);
		expect(createLlm({ LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "llama3.1:70b" }, "fast")!.name).toBe(
			"openai-compatible:llama3.1:70b",
		);
		expect(createLlm({}, "fast")).toBeNull();
	});
});

it("the transcript reaches the model as numbered sentences with their start times", async () => {
	const ai = aiStub(() => ({ clips: [] }));
	await rankMoments(episode, basic, null, createLlm({ AI: ai }, "fast"));
	const first = sentencesOf(episode)[0]!;
	expect(ai.calls[0]!.input.messages[1]!.content).toContain(`S0 [${first.start.toFixed(1)}] ${first.text}`);
});

/** Where a clip opening on the sentence said at `start` is cut when it opens on "So,": halfway between "So," and the next word. */
function afterOpeningSo(transcript: Transcript, start: number): number {
	const k = transcript.words.findIndex((w) => w.start >= start - 0.01);
	expect(transcript.words[k]!.word).toBe("So,");
	const [so, next] = [transcript.words[k]!, transcript.words[k + 1]!];
	return Math.max(next.start - 0.2, (so.end + next.start) / 2);
}
