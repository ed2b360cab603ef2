/**
 * A stand-in for the Workers AI binding: a WorkerEntrypoint whose RPC method `run(model, input)` is
 * what `env.AI.run(...)` reaches through a service binding (see vitest.ai.config.ts).
 * Every call is checked against the generated catalogue first (ai-fidelity.mjs): an unknown model,
 * JSON mode on a model without it, or a schema beyond the plain subset is refused as Workers AI
 * would refuse it.
 * Whisper: the "audio" it receives is the fake render tier's chunk descriptor (JSON), which carries
 * the Whisper answer to give and the faults to act out first, per chunk, counted across calls.
 * Text models in JSON mode answer in their API's shape (`{ response, usage }` or chat completions'
 * `choices`): moments as sentence numbers of the transcript they were shown, or window scores for
 * ClipPro's first pass. A custom prompt containing `llm-fault:garbage` makes them answer text that
 * is not JSON; `llm-fault:capacity-once` fails each distinct call once with 3040 before answering;
 * `llm-fault:capacity` fails every call with 3040. A smoke check's tiny request (a schema with an
 * `ok` property) is answered `{ ok: true }`. Chapters: one every 60 s of the sentences shown, and a
 * summary naming the model. Tests may ask how many text calls carried a marker with
 * the pseudo-model `stub:calls` (`{ marker }`), and the most Whisper calls of one video it was
 * answering at once with `stub:whisper-most` (`{ videoId }`; a chunk's `whisperDelayMs` makes each
 * call of it take that long).
 */
/* global atob, setTimeout */
import { WorkerEntrypoint } from "cloudflare:workers";
import { checkTextRequest, textReply } from "./ai-fidelity.mjs";

const attempts = new Map();
const textCalls = [];
/** Per video: Whisper calls being answered now, and the most at once. */
const whisperLoad = new Map();
const WHISPER = "@cf/openai/whisper-large-v3-turbo";

export default class WorkersAiStub extends WorkerEntrypoint {
	async run(model, input) {
		if (model === "stub:calls") return textCalls.filter((text) => text.includes(input.marker)).length;
		if (model === "stub:whisper-most") return whisperLoad.get(input.videoId)?.most ?? 0;
		const catalogue = this.env.AI_CATALOGUE;
		if (model !== WHISPER) return this.chat(model, input, checkTextRequest(catalogue, model, input));
		if (typeof input?.audio !== "string") throw new Error("AiError: 5006: Type mismatch of 'audio'");
		let descriptor;
		try {
			descriptor = JSON.parse(atob(input.audio));
		} catch {
			// Real audio (a smoke check's tone): Whisper hears nothing in it.
			return {
				transcription_info: { language: "en", language_probability: 1, duration: 2, duration_after_vad: 0 },
				text: "",
				word_count: 0,
				segments: [],
				vtt: "WEBVTT\n\n",
			};
		}
		if (descriptor.whisperDelayMs > 0) {
			const load = whisperLoad.get(descriptor.videoId) ?? { now: 0, most: 0 };
			whisperLoad.set(descriptor.videoId, load);
			load.now++;
			load.most = Math.max(load.most, load.now);
			await new Promise((resolve) => setTimeout(resolve, descriptor.whisperDelayMs));
			load.now--;
		}
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

	chat(model, input, api) {
		const reply = (value) => textReply(api, value);
		const messages = input.messages;
		const everything = JSON.stringify(messages);
		textCalls.push(everything);
		if (everything.includes("llm-fault:capacity-once")) {
			const key = `${model}:${messages.at(-1).content}`;
			const seen = attempts.get(key) ?? 0;
			attempts.set(key, seen + 1);
			if (seen === 0) throw new Error("3040: Capacity temporarily exceeded, please try again.");
		} else if (everything.includes("llm-fault:capacity")) {
			throw new Error("3040: Capacity temporarily exceeded, please try again.");
		}
		if (everything.includes("llm-fault:garbage")) return reply("Sorry, I cannot produce that right now.");
		if (
			input.response_format?.json_schema?.properties?.ok ||
			input.response_format?.json_schema?.schema?.properties?.ok
		)
			return reply({ ok: true });
		const user = messages.at(-1).content;
		if (messages[0].content.includes("summary of a video for its YouTube description"))
			return reply({ summary: [{ text: `Stub summary by ${model} of ${user.split("\n").length} chapters.` }] });
		if (messages[0].content.includes("into chapters for YouTube")) {
			// A chapter every 60 s of the sentences shown (the first on the first sentence).
			const shown = [...user.matchAll(/^S(\d+) \[(\d+(?:\.\d+)?)\]/gm)].map((m) => ({
				id: Number(m[1]),
				start: Number(m[2]),
			}));
			const chapters = [];
			for (const s of shown)
				if (chapters.length === 0 || s.start - chapters.at(-1).at >= 60)
					chapters.push({
						at: s.start,
						firstSentence: s.id,
						title: `Stub chapter at ${Math.round(s.start)} s`,
						summary: "What the stub read there.",
					});
			return reply({ chapters: chapters.map(({ at: _at, ...c }) => c) });
		}
		if (messages[0].content.includes("Score each window")) {
			const ids = [...user.matchAll(/### Window (\d+)/g)].map((m) => Number(m[1]));
			return reply({
				windows: ids.map((window, n) => ({
					window,
					hook: 9 - (n % 5),
					completeness: 8,
					payoff: 9 - (n % 4),
					relevance: 0,
				})),
			});
		}
		const numbers = [...user.matchAll(/^S(\d+) \[(\d+(?:\.\d+)?)\]/gm)].map((m) => ({
			id: Number(m[1]),
			start: Number(m[2]),
		}));
		if (numbers.length === 0) return reply({ clips: [] });
		const first = numbers[0];
		const last = numbers.filter((n) => n.start - first.start <= 12).at(-1);
		return reply({
			clips: [
				{
					firstSentence: first.id,
					lastSentence: last.id,
					title: `The moment at ${first.start.toFixed(0)} seconds`,
					hookTitle: `Stub headline from ${model.includes("70b") ? "the strong model" : "the fast model"}`,
					score: 88,
					reason: "It opens on a question and answers it within the clip.",
					hooks: { question: "Why does this matter?", statement: "" },
					emotions: ["curiosity"],
					description: "A quick answer to a good question. #learning #talk",
				},
			],
		});
	}
}
