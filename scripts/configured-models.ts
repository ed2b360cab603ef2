/**
 * `LLM_MODEL` and `LLM_FAST_MODEL` as wrangler.toml sets them, in every environment, checked
 * against the Workers AI catalogue the generated types describe (worker-configuration.d.ts, read by
 * scripts/ai-catalogue.ts) and against the models the client can shape a request for
 * (workers-ai-models.ts, itself checked against the catalogue by `tsc`). `make checks` runs it
 * through `npm run deploy:check`, so a model id that does not exist, or has no JSON mode, fails
 * before any deploy, not at the first video's ranking (which would fall back to the offline
 * ranker and say so in `rankingNote`, every time).
 */
import { JSON_MODE_MODELS } from "../src/worker/services/llm/workers-ai-models.ts";
import type { AiCatalogue } from "./ai-catalogue.ts";
import { wranglerVars } from "./wrangler-vars.ts";

const MODEL_VARS = ["LLM_MODEL", "LLM_FAST_MODEL"] as const;

/** The environments of a wrangler.toml: "" (the top level, production) and each `[env.<name>]`. */
export function environmentsOf(toml: string): string[] {
	const named = [...toml.matchAll(/^\[+env\.([\w-]+)[.\]]/gm)].map((m) => m[1]!);
	return ["", ...new Set(named)];
}

/** What is wrong with the configured models, one sentence each (none: the config is usable). */
export function configuredModelProblems(toml: string, catalogue: AiCatalogue): string[] {
	const problems: string[] = [];
	for (const environment of environmentsOf(toml)) {
		const vars = wranglerVars(toml, environment || undefined);
		const where = environment ? `[env.${environment}.vars]` : "[vars]";
		// An OpenAI-compatible server names its own models (LLM_BASE_URL): nothing to check here.
		if (vars.LLM_BASE_URL) continue;
		for (const name of MODEL_VARS) {
			const model = vars[name];
			if (model === undefined || model === "") continue;
			if (!catalogue.models.includes(model))
				problems.push(
					`${where} ${name} = "${model}" is not a model of the Workers AI catalogue (worker-configuration.d.ts)`,
				);
			else if (!(model in catalogue.jsonMode))
				problems.push(
					`${where} ${name} = "${model}" is in the catalogue, but its input type declares no JSON-schema mode`,
				);
			else if (!(model in JSON_MODE_MODELS))
				problems.push(
					`${where} ${name} = "${model}" has JSON mode, but the client does not call it yet: add it to JSON_MODE_MODELS (src/worker/services/llm/workers-ai-models.ts)`,
				);
		}
	}
	return problems;
}
