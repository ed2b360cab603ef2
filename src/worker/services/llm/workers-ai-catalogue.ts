/**
 * The Workers AI catalogue as types: `AiModels` of worker-configuration.d.ts (what `wrangler types`
 * generates; `npm run cf-typegen` refreshes it, `make test` checks it is in sync). The models the
 * code calls (workers-ai-models.ts) are checked against it here, so a model id that does not
 * exist, or whose input type declares no JSON-schema mode, fails `tsc`, and so does a request in a
 * shape the model's input type does not take (test/types/workers-ai-models.type-test.ts).
 *
 * Why the types and not the docs: the docs' JSON-mode list has been wrong (cloudflare-docs issue
 * 27786: `@cf/meta/llama-3.1-8b-instruct-fast` answers `5025: This model doesn't support JSON
 * Schema`, and is not in the catalogue at all). The catalogue's generic text-generation entries
 * (`BaseAiTextGeneration`) carry a catch-all `response_format: { type: string }`, which promises
 * nothing; a model counts as JSON mode here only when its own input type lists `"json_schema"`.
 * Type-only: nothing here runs.
 */
import {
	chatCompletionsJsonInput,
	DEFAULT_FAST_MODEL,
	DEFAULT_STRONG_MODEL,
	JSON_MODE_MODELS,
	workersAiJsonInput,
} from "./workers-ai-models";

/** A model id of the generated catalogue. */
export type CatalogueModel = keyof AiModels;

/** The branch of a model's input union that takes `messages` (the one this project sends). */
type MessagesInputOf<M extends CatalogueModel> = Extract<AiModels[M]["inputs"], { messages?: unknown }>;
type ResponseFormatOf<M extends CatalogueModel> =
	MessagesInputOf<M> extends infer I ? (I extends { response_format?: infer F } ? NonNullable<F> : never) : never;
type FormatTypeOf<M extends CatalogueModel> =
	ResponseFormatOf<M> extends infer F ? (F extends { type?: infer T } ? NonNullable<T> : never) : never;

/** Catalogue models whose messages input declares `response_format.type: "json_schema"` (a closed set of types, not `string`). */
export type JsonModeModel = {
	[M in CatalogueModel]: string extends FormatTypeOf<M> ? never : "json_schema" extends FormatTypeOf<M> ? M : never;
}[CatalogueModel];

/**
 * How a model takes the schema and gives its answer, as its generated input type says:
 * - `workers-ai`: Workers AI's own JSON mode, `response_format: { type: "json_schema", json_schema: <schema> }`, answer in `response`;
 * - `chat-completions`: OpenAI's shape, `json_schema: { name, schema, strict }`, answer in `choices[0].message.content`.
 */
export type JsonModeApi<M extends JsonModeModel> = [
	Extract<ResponseFormatOf<M>, { json_schema: { name: string } }>,
] extends [never]
	? "workers-ai"
	: "chat-completions";

/** Which JSON-mode models are called, with the API shape each one's input type declares. */
export type JsonModeTable = { [M in JsonModeModel]?: JsonModeApi<M> };

type Holds<T extends true> = T;

/** Models the code calls that are not JSON-mode models of the catalogue (must be none). */
export type CalledOutsideCatalogue = Exclude<keyof typeof JSON_MODE_MODELS, JsonModeModel>;
/** Fails to compile when a model in JSON_MODE_MODELS is outside the catalogue or has no JSON mode: CalledOutsideCatalogue names it. */
export type EveryCalledModelHasJsonMode = Holds<[CalledOutsideCatalogue] extends [never] ? true : false>;
/** Fails to compile when a model's API shape in JSON_MODE_MODELS is not the one its input type declares. */
export type EveryShapeMatchesCatalogue = Holds<typeof JSON_MODE_MODELS extends JsonModeTable ? true : false>;
/** What workersAiJsonInput builds is a valid input of both defaults (chosen among the Workers AI-shaped models). */
export type WorkersAiShapeMatches = Holds<
	ReturnType<typeof workersAiJsonInput> extends MessagesInputOf<typeof DEFAULT_FAST_MODEL> &
		MessagesInputOf<typeof DEFAULT_STRONG_MODEL>
		? true
		: false
>;
/** What chatCompletionsJsonInput builds is a valid chat-completions input. */
export type ChatCompletionsShapeMatches = Holds<
	ReturnType<typeof chatCompletionsJsonInput> extends ChatCompletionsInput ? true : false
>;
