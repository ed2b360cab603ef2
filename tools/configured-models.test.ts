/**
 * The models wrangler.toml configures are checked against the generated Workers AI catalogue by
 * `npm run deploy:check` (part of `make checks`): the real config passes, and a model outside the
 * catalogue, one without JSON mode, or one the client does not call fails, naming the variable and
 * its environment.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { readAiCatalogue, type AiCatalogue } from "../scripts/ai-catalogue.ts";
import { configuredModelProblems, environmentsOf } from "../scripts/configured-models.ts";

const toml = readFileSync(join(import.meta.dirname, "..", "wrangler.toml"), "utf8");
let catalogue: AiCatalogue;
// Reading the generated catalogue parses worker-configuration.d.ts: seconds on a busy machine.
beforeAll(() => {
	catalogue = readAiCatalogue();
}, 120_000);

const withLocalModel = (model: string) =>
	toml.replace(/^(\[env\.local\.vars\][\s\S]*?^LLM_FAST_MODEL = )"[^"]*"/m, `$1"${model}"`);

it("wrangler.toml's production and local models are JSON-mode models of the catalogue", () => {
	expect(environmentsOf(toml)).toEqual(["", "local"]);
	expect(configuredModelProblems(toml, catalogue)).toEqual([]);
});

it("a model outside the catalogue, without JSON mode, or not called by the client is named with its environment", () => {
	expect(configuredModelProblems(withLocalModel("@cf/meta/llama-3.1-8b-instruct-fast"), catalogue)).toEqual([
		'[env.local.vars] LLM_FAST_MODEL = "@cf/meta/llama-3.1-8b-instruct-fast" is not a model of the Workers AI catalogue (worker-configuration.d.ts)',
	]);
	expect(configuredModelProblems(withLocalModel("@cf/meta/llama-3.1-8b-instruct-fp8"), catalogue)[0]).toMatch(
		/declares no JSON-schema mode$/,
	);
	expect(configuredModelProblems(withLocalModel("@cf/openai/gpt-oss-20b"), catalogue)[0]).toMatch(
		/the client does not call it yet/,
	);
	const production = toml.replace(/^LLM_MODEL = "[^"]*"/m, 'LLM_MODEL = "@cf/openai/whisper-large-v3-turbo"');
	expect(configuredModelProblems(production, catalogue)).toEqual([
		'[vars] LLM_MODEL = "@cf/openai/whisper-large-v3-turbo" is in the catalogue, but its input type declares no JSON-schema mode',
	]);
});

it("an OpenAI-compatible server's model names are its own", () => {
	const ollama = toml.replace(
		/^LLM_MODEL = "[^"]*"/m,
		'LLM_BASE_URL = "http://llm.example.internal:11434/v1"\nLLM_MODEL = "llama3.1:70b"',
	);
	expect(configuredModelProblems(ollama, catalogue)).toEqual([]);
});
