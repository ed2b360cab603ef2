/**
 * The LLM as the moments see it: the interface a provider implements (`LlmClient`), how its calls
 * fail, and the call style ranking and chapters share (a JSON schema from zod, one question and its
 * answer read with a corrective retry, many calls of which some may fail).
 */
export * from "./client.ts";
export * from "./errors.ts";
export * from "./ask.ts";
export * from "./partial.ts";
export * from "./plain-schema.ts";
