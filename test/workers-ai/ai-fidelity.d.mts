/** Types of ai-fidelity.mjs (plain JavaScript: the stub worker loads it as is). */
export interface AiCatalogue {
	models: string[];
	jsonMode: Record<string, "workers-ai" | "chat-completions">;
}
export function unsupportedSchemaFeature(schema: unknown, path?: string): string | null;
export function checkTextRequest(
	catalogue: AiCatalogue,
	model: string,
	input: unknown,
): "workers-ai" | "chat-completions";
export function textReply(
	api: "workers-ai" | "chat-completions",
	value: unknown,
	usage?: Record<string, number>,
): Record<string, unknown>;
