/**
 * The LLM path as Workers AI really behaves: models from the generated catalogue only, the plain
 * JSON-schema subset on the wire, each call retried on capacity and timeout errors, the parts of a
 * long video that did answer kept (the offline ranker filling the rest), and an LLM that is only
 * busy for now making the workflow step retry instead of settling for the offline ranker.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { MOMENTS_SCHEMA, WINDOWS_SCHEMA } from "@clipforge/moments/ranking/llm/answer";
import {
	createLlm,
	DEFAULT_FAST_MODEL,
	SUPPORTED_WORKERS_AI_MODELS,
	workersAiLlm,
} from "../../src/worker/services/llm/client";
import { isRateLimited, isTransientLlmError, LlmUnavailableError } from "@clipforge/moments/llm";
import { LLM_RETRY_DELAYS_MS, RATE_LIMIT_PAUSE_MS } from "../../src/worker/services/llm/retry";
import { plainSchemaProblems } from "@clipforge/moments/llm";
import { rankMoments } from "@clipforge/moments";
import { checkTextRequest, textReply } from "../workers-ai/ai-fidelity.mjs";
import { GARDEN_EPISODE } from "../helpers/garden-episode";
import { valueIn } from "../helpers/wrangler-config";
import { transcriptOf, type Turn } from "../helpers/talk";

const episode = transcriptOf(GARDEN_EPISODE);
const long = transcriptOf(Array.from({ length: 8 }, () => GARDEN_EPISODE).flat() as Turn[]);
const basic = { ...defaultConfig(), clipModel: "ClipBasic" as const, clipDurationMin: 15, clipDurationMax: 90 };
const pro = { ...basic, clipModel: "ClipPro" as const };
const noPause = { delaysMs: [0, 0, 0] };
const capacity = () => new Error("3040: Capacity temporarily exceeded, please try again.");

type Input = { messages: { role: string; content: string }[]; response_format: Record<string, any> };

/** The binding's stand-in: checked against the catalogue (ai-fidelity.mjs), then `answer` decides. */
function binding(answer: (model: string, input: Input, call: number) => unknown) {
	const calls: { model: string; input: Input }[] = [];
	return {
		calls,
		async run(model: string, input: Record<string, unknown>) {
			const api = checkTextRequest(env.AI_CATALOGUE, model, input);
			calls.push({ model, input: input as unknown as Input });
			const value = answer(model, input as unknown as Input, calls.length);
			if (value instanceof Error) throw value;
			return textReply(api, value);
		},
	};
}

/** Each chunk's first sentence as the whole moment: enough for a clip when the range allows. */
const firstLines = (_model: string, input: Input) => {
	const ids = [...input.messages.at(-1)!.content.matchAll(/^S(\d+) /gm)].map((m) => Number(m[1]));
	return {
		clips:
			ids.length > 0
				? [
						{
							firstSentence: ids[0],
							lastSentence: ids[Math.min(ids.length - 1, 6)],
							title: "A moment",
							hookTitle: "A headline",
							score: 80,
							reason: "It lands.",
							hooks: { question: "", statement: "" },
							emotions: [],
							description: "A caption. #tag",
						},
					]
				: [],
	};
};

describe("models from the generated catalogue", () => {
	it("the stand-in refuses what Workers AI refuses: an unknown model, JSON mode on a model without it, a schema beyond the plain subset", () => {
		const messages = [{ role: "user", content: "hi" }];
		const schema = { type: "object", properties: { ok: { type: "boolean" } } };
		expect(() => checkTextRequest(env.AI_CATALOGUE, "@cf/meta/llama-3.1-8b-instruct-fast", { messages })).toThrow(
			/^5007: No such model @cf\/meta\/llama-3\.1-8b-instruct-fast/,
		);
		expect(() =>
			checkTextRequest(env.AI_CATALOGUE, "@cf/meta/llama-3.1-8b-instruct-fp8", {
				messages,
				response_format: { type: "json_schema", json_schema: schema },
			}),
		).toThrow(/^5025: This model doesn't support JSON Schema$/);
		const nullable = { ...schema, properties: { ok: { anyOf: [{ type: "boolean" }, { type: "null" }] } } };
		expect(() =>
			checkTextRequest(env.AI_CATALOGUE, DEFAULT_FAST_MODEL, {
				messages,
				response_format: { type: "json_schema", json_schema: nullable },
			}),
		).toThrow(/^5006: Bad input: .*anyOf is not supported/);
		const huge = { ...schema, properties: { n: { type: "integer", maximum: Number.MAX_SAFE_INTEGER } } };
		expect(() =>
			checkTextRequest(env.AI_CATALOGUE, DEFAULT_FAST_MODEL, {
				messages,
				response_format: { type: "json_schema", json_schema: huge },
			}),
		).toThrow(/maximum 9007199254740991 is out of range/);
		expect(() =>
			checkTextRequest(env.AI_CATALOGUE, DEFAULT_FAST_MODEL, {
				messages,
				response_format: {
					type: "json_schema",
					json_schema: { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema },
				},
			}),
		).toThrow(/\$schema is not supported/);
		expect(
			checkTextRequest(env.AI_CATALOGUE, DEFAULT_FAST_MODEL, {
				messages,
				response_format: { type: "json_schema", json_schema: schema },
			}),
		).toBe("workers-ai");
	});

	it("every model the code may call is a JSON-mode model of the catalogue in the API shape the code sends it", () => {
		for (const model of SUPPORTED_WORKERS_AI_MODELS)
			expect.soft(env.AI_CATALOGUE.jsonMode[model], model).toBeDefined();
		for (const name of ["LLM_MODEL", "LLM_FAST_MODEL"]) {
			for (const table of ["vars", "env.local.vars"])
				expect(SUPPORTED_WORKERS_AI_MODELS, `${table} ${name}`).toContain(valueIn(table, name));
		}
		expect(valueIn("vars", "LLM_FAST_MODEL")).toBe(DEFAULT_FAST_MODEL);
	});

	it("a configured model outside them ranks offline, saying which variable names what", async () => {
		const ai = binding(firstLines);
		const outcome = await rankMoments(
			episode,
			basic,
			null,
			createLlm({ AI: ai, LLM_FAST_MODEL: "@cf/meta/llama-3.1-8b-instruct-fast" }, "fast", noPause),
		);
		expect(ai.calls).toHaveLength(0);
		expect(outcome.rankedBy).toMatch(
			/^ClipBasic \(offline ranker: fallback, workers-ai:@cf\/meta\/llama-3\.1-8b-instruct-fast failed: LLM_FAST_MODEL = "@cf\/meta\/llama-3\.1-8b-instruct-fast" is not a Workers AI model with JSON mode/,
		);
		expect(outcome.clips.length).toBeGreaterThan(0);
	});

	it("a chat-completions model gets OpenAI's request shape and is read from choices", async () => {
		const ai = binding(() => ({ clips: [] }));
		const llm = workersAiLlm(ai, "@cf/zai-org/glm-4.7-flash");
		expect(await llm.complete([{ role: "user", content: "hi" }], MOMENTS_SCHEMA)).toBe('{"clips":[]}');
		expect(ai.calls[0]!.input.response_format).toMatchObject({
			type: "json_schema",
			json_schema: { name: "clip_moments", strict: true, schema: { type: "object" } },
		});
	});
});

describe("the schema on the wire", () => {
	it("is plain: no $schema, no anyOf for nullable fields, no safe-integer bounds; what the zod schema allows, it still checks", () => {
		for (const { schema } of [MOMENTS_SCHEMA, WINDOWS_SCHEMA]) {
			expect(plainSchemaProblems(schema)).toEqual([]);
			const text = JSON.stringify(schema);
			expect(text).not.toMatch(/\$schema|anyOf|oneOf|allOf|\$ref|9007199254740991/);
		}
		const clip = (MOMENTS_SCHEMA.schema as any).properties.clips.items;
		expect(clip.properties.hooks.properties.question).toEqual({ type: "string", maxLength: 200 });
		expect(clip.properties.firstSentence).toEqual({ type: "integer", minimum: 0 });
	});

	it("is what every call sends", async () => {
		const ai = binding(firstLines);
		await rankMoments(episode, pro, null, createLlm({ AI: ai }, "strong", noPause));
		expect(ai.calls.length).toBeGreaterThan(1);
		for (const call of ai.calls) expect(plainSchemaProblems(call.input.response_format.json_schema)).toEqual([]);
	});
});

describe("capacity and timeouts", () => {
	it("classifies errors by what another try can change", () => {
		for (const transient of [
			"3040: Capacity temporarily exceeded, please try again.",
			"AiError: 3040: No more data centers to forward the request to",
			"3007: Request timeout",
			"3046: Request timeout",
			"LLM endpoint answered 503: busy",
			"Network connection lost.",
			"3021: rate limiting: inference request per min rate reached",
		]) {
			expect.soft(isTransientLlmError(new Error(transient)), transient).toBe(true);
		}
		for (const limited of [
			"3021: rate limiting: inference request per min rate reached",
			"AiError: 3021: rate limiting: inference request per min rate reached",
			"LLM endpoint answered 429: slow down",
		])
			expect.soft(isRateLimited(new Error(limited)), limited).toBe(true);
		for (const busy of ["3040: Capacity temporarily exceeded, please try again.", "3007: Request timeout"])
			expect.soft(isRateLimited(new Error(busy)), busy).toBe(false);
		for (const lasting of [
			"5007: No such model @cf/x or task",
			"5025: This model doesn't support JSON Schema",
			"AiError: 5006: Bad input",
			"3036: You have used up your daily free allocation of 10,000 neurons.",
			"LLM endpoint answered 400: bad",
		]) {
			expect.soft(isTransientLlmError(new Error(lasting)), lasting).toBe(false);
		}
	});

	it("retries one call that hit a capacity error, and the analysis goes on as if nothing happened", async () => {
		const failedOnce = new Set<string>();
		const ai = binding((model, input) => {
			const key = input.messages.at(-1)!.content;
			if (!failedOnce.has(key)) {
				failedOnce.add(key);
				return capacity();
			}
			return firstLines(model, input);
		});
		const outcome = await rankMoments(long, basic, null, createLlm({ AI: ai }, "fast", noPause));
		const chunks = Math.ceil(long.duration / 900);
		expect(ai.calls).toHaveLength(2 * chunks);
		expect(outcome.rankedBy).toBe(`ClipBasic (workers-ai:${DEFAULT_FAST_MODEL})`);
	});

	it("waits out the model's requests a minute (3021): each retry pauses at least 20 s, so the retries span the next minute", async () => {
		let refusals = 2;
		const ai = binding((model, input) => {
			if (refusals-- > 0) return new Error("3021: rate limiting: inference request per min rate reached");
			return firstLines(model, input);
		});
		const pauses: number[] = [];
		const llm = createLlm({ AI: ai }, "fast", { sleep: async (ms) => void pauses.push(ms) });
		const outcome = await rankMoments(episode, basic, null, llm);
		expect(outcome.rankedBy).toBe(`ClipBasic (workers-ai:${DEFAULT_FAST_MODEL})`);
		expect(pauses).toHaveLength(2);
		for (const ms of pauses) expect(ms).toBeGreaterThanOrEqual(RATE_LIMIT_PAUSE_MS);
		expect(RATE_LIMIT_PAUSE_MS * LLM_RETRY_DELAYS_MS.length).toBeGreaterThanOrEqual(60_000);
	});

	it("keeps the parts of the transcript that answered; the offline ranker fills the part that kept failing", async () => {
		let secondChunk = "";
		const ai = binding((model, input) => {
			const text = input.messages.at(-1)!.content;
			if (!secondChunk && /sentences S(\d+)-/.exec(text)?.[1] !== "0") secondChunk = text;
			return text === secondChunk ? capacity() : firstLines(model, input);
		});
		const outcome = await rankMoments(long, basic, null, createLlm({ AI: ai }, "fast", noPause));
		const chunks = Math.ceil(long.duration / 900);
		expect(outcome.rankedBy).toMatch(
			new RegExp(
				`^ClipBasic \\(workers-ai:${DEFAULT_FAST_MODEL}; ${chunks - 1} of ${chunks} transcript parts answered \\(1 failed: 3040: Capacity temporarily exceeded`,
			),
		);
		// Four attempts of the failing chunk (the first and three retries), one of every other.
		expect(ai.calls).toHaveLength(chunks - 1 + 4);
		const fromModel = outcome.clips.filter((c) => c.hookTitle === "A headline");
		const filled = outcome.clips.filter((c) => c.hookTitle !== "A headline");
		expect(fromModel.length).toBeGreaterThan(0);
		expect(filled.length).toBeGreaterThan(0);
		expect(outcome.rankedBy).toContain(`the offline ranker filled the rest with ${filled.length} clip(s)`);
		// The filled clips come from the time of the chunk that failed.
		const times = [...secondChunk.matchAll(/^S\d+ \[(\d+(?:\.\d+)?)\]/gm)].map((m) => Number(m[1]));
		for (const clip of filled) {
			expect(clip.start).toBeGreaterThanOrEqual(times[0]! - 30);
			expect(clip.end).toBeLessThanOrEqual(times.at(-1)! + 60);
		}
	});

	it("when every call stays busy: throws for the step to retry, and its final attempt ranks offline", async () => {
		const busy = () => createLlm({ AI: binding(() => capacity()) }, "fast", noPause);
		await expect(rankMoments(episode, basic, null, busy(), { finalAttempt: false })).rejects.toBeInstanceOf(
			LlmUnavailableError,
		);
		const last = await rankMoments(episode, basic, null, busy(), { finalAttempt: true });
		expect(last.rankedBy).toMatch(
			/^ClipBasic \(offline ranker: fallback, .* failed: all 1 transcript parts failed: 3040/,
		);
		expect(last.clips.length).toBeGreaterThan(0);
	});

	it("a lasting error is not retried: one call, then the offline ranker at once", async () => {
		const ai = binding(() => new Error("5025: This model doesn't support JSON Schema"));
		const outcome = await rankMoments(episode, basic, null, createLlm({ AI: ai }, "fast", noPause), {
			finalAttempt: false,
		});
		expect(ai.calls).toHaveLength(1);
		expect(outcome.rankedBy).toMatch(/offline ranker: fallback, .* failed: 5025/);
	});
});
