/**
 * A stand-in for the Workers AI binding: a WorkerEntrypoint whose RPC method `run(model, input)` is
 * what `env.AI.run(...)` reaches through a service binding (see vitest.ai.config.ts).
 * The "audio" it receives is the fake render tier's chunk descriptor (JSON), which carries the
 * Whisper answer to give and the faults to act out first, per chunk, counted across calls.
 */
/* global atob */
import { WorkerEntrypoint } from "cloudflare:workers";

const attempts = new Map();

export default class WorkersAiStub extends WorkerEntrypoint {
	async run(model, input) {
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
}
