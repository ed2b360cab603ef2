/**
 * Compiled by `npm run typecheck` (test/tsconfig.json), never run: proof that `tsc` refuses a
 * Workers AI model outside the generated catalogue, or one whose input type declares no JSON mode,
 * wherever analysis takes a model id. Each `@ts-expect-error` fails the build if the line after it
 * ever compiles.
 */
import { workersAiLlm, type AiBinding } from "../../src/worker/services/llm/client";
import type { JsonModeModel, JsonModeTable } from "../../src/worker/services/llm/workers-ai-catalogue";
import {
	DEFAULT_FAST_MODEL,
	DEFAULT_STRONG_MODEL,
	type SupportedJsonModel,
} from "../../src/worker/services/llm/workers-ai-models";

declare const ai: AiBinding;

// The defaults are JSON-mode models of the catalogue.
export const defaults: JsonModeModel[] = [DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL];
export const fast = workersAiLlm(ai, DEFAULT_FAST_MODEL);

// @ts-expect-error ClipBasic's old default is not in the catalogue at all.
export const missing: JsonModeModel = "@cf/meta/llama-3.1-8b-instruct-fast";
// @ts-expect-error in the catalogue, but its input type promises no JSON mode (a generic text-generation entry).
export const noJsonMode: JsonModeModel = "@cf/meta/llama-3.1-8b-instruct-fp8";
// @ts-expect-error not a text model.
export const whisper: JsonModeModel = "@cf/openai/whisper-large-v3-turbo";
// @ts-expect-error the client takes only the JSON-mode models it can shape a request for.
workersAiLlm(ai, "@cf/meta/llama-3.1-8b-instruct-fast");
// @ts-expect-error a JSON-mode model of the catalogue the code does not send requests to (Responses API).
export const responsesApi: SupportedJsonModel = "@cf/openai/gpt-oss-20b";

// A model's API shape is checked too (the table JSON_MODE_MODELS satisfies).
export const rightShape: JsonModeTable = {
	"@cf/zai-org/glm-4.7-flash": "chat-completions",
	"@cf/meta/llama-4-scout-17b-16e-instruct": "workers-ai",
};
// @ts-expect-error glm-4.7-flash's input type is chat completions', not Workers AI's own JSON mode.
export const wrongShape: JsonModeTable = { "@cf/zai-org/glm-4.7-flash": "workers-ai" };
