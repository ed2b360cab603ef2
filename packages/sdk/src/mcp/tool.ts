/**
 * One MCP tool: its name, how an assistant sees it (title, description, input and output schemas,
 * hints) and what it does with the SDK's client. Every tool answers through `answer`: the
 * structured result (and the same as JSON text, for clients that only read text), or, when the API
 * refused, a tool error with its code and message (and the whole error under
 * `_meta["clipforge/error"]`), never a protocol error or a crash.
 */
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ShapeOutput, ZodRawShapeCompat as Shape } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ApiClient } from "../api-client.ts";
import { ClipforgeError } from "../errors.ts";

export interface Tool<In extends Shape, Out extends Shape> {
	name: string;
	title: string;
	description: string;
	input: In;
	output: Out;
	annotations: ToolAnnotations;
	/** The structured result; a ClipforgeError becomes the tool's error. */
	run: (
		client: ApiClient,
		args: ShapeOutput<In>,
		extra: Parameters<ToolCallback<In>>[1],
	) => Promise<ShapeOutput<Out>>;
}

/** A tool, typed by its schemas (the MCP SDK validates the input and the structured output against them). */
export const defineTool = <In extends Shape, Out extends Shape>(tool: Tool<In, Out>) => ({
	...tool,
	/** Adds it to `server`, calling the API through `client`. */
	register: (server: McpServer, client: ApiClient) => registerTool(server, client, tool),
});

/** Reads only the API, and only the workspace's own data. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

function registerTool<In extends Shape, Out extends Shape>(
	server: McpServer,
	client: ApiClient,
	tool: Tool<In, Out>,
): void {
	const config = {
		title: tool.title,
		description: tool.description,
		inputSchema: tool.input,
		outputSchema: tool.output,
		annotations: tool.annotations,
	};
	const callback = ((args: ShapeOutput<In>, extra: Parameters<ToolCallback<In>>[1]) =>
		answer(() => tool.run(client, args, extra))) as ToolCallback<In>;
	server.registerTool(tool.name, config, callback);
}

async function answer(work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
	try {
		const structured = await work();
		return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
	} catch (error) {
		if (!(error instanceof ClipforgeError)) throw error;
		const details = Array.isArray(error.details)
			? (error.details as { path?: string; message?: string }[]).map((d) => `${d.path}: ${d.message}`).join("; ")
			: "";
		const text = `${error.code}: ${error.message}${details ? ` (${details})` : ""}`;
		const meta = {
			code: error.code,
			message: error.message,
			status: error.status,
			details: error.details ?? null,
			requestId: error.requestId,
		};
		return { isError: true, content: [{ type: "text", text }], _meta: { "clipforge/error": meta } };
	}
}
