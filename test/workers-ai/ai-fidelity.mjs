/**
 * What the Workers AI stand-ins check before they answer a text model, so a request the real
 * service would refuse is refused in the tests too, with its kind of error (`<code>: <text>`, as
 * the binding words them: https://developers.cloudflare.com/workers-ai/platform/errors/):
 * - a model outside the generated catalogue (scripts/ai-catalogue.ts reads worker-configuration.d.ts) → 5007;
 * - `response_format` sent to a model whose input type declares no JSON mode → 5025;
 * - a schema in the other API's shape, or using JSON Schema beyond the plain subset → 5006.
 * The subset is written out here, not imported from the code under test.
 */

const PLAIN_KEYWORDS = new Set([
	"type",
	"properties",
	"required",
	"additionalProperties",
	"items",
	"enum",
	"description",
	"minimum",
	"maximum",
	"minLength",
	"maxLength",
	"minItems",
	"maxItems",
]);
const BOUNDS = new Set(["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"]);
const MAX_BOUND = 10_000;

function badInput(detail) {
	return new Error(`5006: Bad input: ${detail}`);
}

/** The first feature of `schema` outside the plain subset, or null. */
export function unsupportedSchemaFeature(schema, path = "#") {
	if (!schema || typeof schema !== "object" || Array.isArray(schema)) return `${path} is not a schema`;
	for (const [key, value] of Object.entries(schema)) {
		if (!PLAIN_KEYWORDS.has(key)) return `${path}/${key} is not supported`;
		if (BOUNDS.has(key) && (typeof value !== "number" || Math.abs(value) > MAX_BOUND))
			return `${path}/${key} ${value} is out of range`;
		if (key === "type" && typeof value !== "string") return `${path}/type must be a single type`;
		if (key === "properties") {
			for (const [name, child] of Object.entries(value)) {
				const found = unsupportedSchemaFeature(child, `${path}/properties/${name}`);
				if (found) return found;
			}
		}
		if (key === "items") {
			const found = unsupportedSchemaFeature(value, `${path}/items`);
			if (found) return found;
		}
	}
	return null;
}

/**
 * Checks a text-model request against the catalogue; returns the API shape its answer must take
 * (`workers-ai`: `{ response }`, `chat-completions`: `{ choices }`), or throws as Workers AI would.
 * @param catalogue `{ models: string[], jsonMode: { [model]: "workers-ai" | "chat-completions" } }`
 */
export function checkTextRequest(catalogue, model, input) {
	if (!catalogue.models.includes(model)) throw new Error(`5007: No such model ${model} or task`);
	if (!Array.isArray(input?.messages) || input.messages.length === 0) throw badInput("messages is required");
	const format = input.response_format;
	const api = catalogue.jsonMode[model];
	if (format === undefined) return api ?? "workers-ai";
	if (!api) throw new Error("5025: This model doesn't support JSON Schema");
	if (format.type !== "json_schema")
		throw badInput(`response_format.type ${JSON.stringify(format.type)} is not json_schema`);
	const schema = api === "workers-ai" ? format.json_schema : format.json_schema?.schema;
	if (api === "chat-completions" && typeof format.json_schema?.name !== "string")
		throw badInput("response_format.json_schema.name is required");
	if (api === "workers-ai" && format.json_schema?.type !== "object")
		throw badInput("response_format.json_schema must be the schema itself (type: object)");
	const feature = unsupportedSchemaFeature(schema);
	if (feature) throw badInput(`response_format.json_schema: ${feature}`);
	return api;
}

/** The binding's answer for `value` in the model's API shape. */
export function textReply(api, value, usage = { prompt_tokens: 1200, completion_tokens: 150, total_tokens: 1350 }) {
	if (api === "chat-completions") {
		const content = typeof value === "string" ? value : JSON.stringify(value);
		return {
			id: "chatcmpl-stub",
			object: "chat.completion",
			created: 0,
			model: "stub",
			choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
			usage,
		};
	}
	return { response: value, usage };
}
