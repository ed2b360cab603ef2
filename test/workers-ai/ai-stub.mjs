/**
 * A stand-in for the Workers AI binding: a WorkerEntrypoint whose RPC method `run(model, input)` is
 * what `env.AI.run(...)` reaches through a service binding (see vitest.ai.config.ts).
 * Whisper: the "audio" it receives is the fake render tier's chunk descriptor (JSON), which carries
 * the Whisper answer to give and the faults to act out first, per chunk, counted across calls.
 * Text models in JSON mode answer `{ response: <object>, usage }` as the binding documents: moments
 * as sentence numbers of the transcript they were shown, or window scores for ClipPro's first pass.
 * A custom prompt containing `llm-fault:garbage` makes them answer text that is not JSON.
 */
/* global atob */
import { WorkerEntrypoint } from "cloudflare:workers";

const attempts = new Map();

export default class WorkersAiStub extends WorkerEntrypoint {
	async run(model, input) {
		if (model.startsWith("@cf/meta/llama")) return this.chat(model, input);
		if (model !== "@cf/openai/whisper-large-v3-turbo") throw new Error(`AiError: 5007: No such model ${model}`);
		if (typeof input?.audio !== "string") throw new Error("AiError: 5006: Type mismatch of 'audio'");
		const descriptor = JSON.parse(atob(input.audio));
		const key = `${descriptor.videoId}:${descriptor.start}`;
		const attempt = attempts.get(key) ?? 0;
		attempts.set(key, attempt + 1);
		const plan = descriptor.whisperFaults;
		const fault = plan ? (plan.faults[attempt] ?? (plan.repeat ? plan.faults.at(-1) : undefined)) : undefined;
		// Messages as the binding words them: "<code>: <text>" (Workers AI error codes).
		if (fault === "error") throw new Error("3040: Capacity temporarily exceeded, please try again.");
		if (fault === "timeout") throw new Error("3046: Request timeout");
		if (fault === "malformed") return { text: "…", segments: [{ start: "zero", words: null }] };
		return descriptor.whisper;
	}

	chat(model, input) {
		if (input?.response_format?.type !== "json_schema") throw new Error("AiError: 5006: response_format missing");
		const usage = { prompt_tokens: 1200, completion_tokens: 150, total_tokens: 1350 };
		const messages = input.messages;
		if (JSON.stringify(messages).includes("llm-fault:garbage")) return { response: "Sorry, I cannot produce that right now.", usage };
		const user = messages.at(-1).content;
		if (messages[0].content.includes("Score each window")) {
			const ids = [...user.matchAll(/### Window (\d+)/g)].map((m) => Number(m[1]));
			return { response: { windows: ids.map((window, n) => ({ window, hook: 9 - (n % 5), completeness: 8, payoff: 9 - (n % 4), relevance: null })) }, usage };
		}
		const numbers = [...user.matchAll(/^S(\d+) \[(\d+(?:\.\d+)?)\]/gm)].map((m) => ({ id: Number(m[1]), start: Number(m[2]) }));
		if (numbers.length === 0) return { response: { clips: [] }, usage };
		const first = numbers[0];
		const last = numbers.filter((n) => n.start - first.start <= 12).at(-1);
		return {
			response: {
				clips: [
					{
						firstSentence: first.id,
						lastSentence: last.id,
						title: `The moment at ${first.start.toFixed(0)} seconds`,
						hookTitle: `Stub headline from ${model.includes("70b") ? "the strong model" : "the fast model"}`,
						score: 88,
						reason: "It opens on a question and answers it within the clip.",
						hooks: { question: "Why does this matter?", statement: null },
						emotions: ["curiosity"],
						description: "A quick answer to a good question. #learning #talk",
					},
				],
			},
			usage,
		};
	}
}
