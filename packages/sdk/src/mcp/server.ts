/**
 * The clipforge MCP server: one set of tools over the SDK's client, so every tool is a call of the
 * REST API with the caller's own key (the same checks, workspace, rate limits and error codes; no
 * tool can do what the key cannot). The Worker serves it at /mcp (Streamable HTTP, the client
 * dispatching into the API in-process); `clipforge mcp` serves it over stdio against CLIPFORGE_URL.
 *
 * @example
 * const server = createMcpServer(createApiClient({ baseUrl, apiKey }));
 * await server.connect(new StdioServerTransport());
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerOptions } from "@modelcontextprotocol/sdk/server/index.js";
import type { ApiClient } from "../api-client.ts";
import { TOOLS } from "./tools/index.ts";

export const MCP_SERVER_INFO = { name: "clipforge", version: "0.1.0" } as const;

const INSTRUCTIONS = `clipforge turns a long video (a URL) into short, scored, captioned clips.
Typical flow: list_workspaces (minutes left) → submit_video (charges the video's minutes) → wait_for_completion (call again while done is false) → list_clips (best first) → get_clip for a fresh download link; update_clip to favorite, retitle or trim a clip.
reprocess_video regenerates a finished video's clips with other settings without downloading or transcribing again (the first reprocess of a video is free, later ones cost half its minutes).
Errors carry the API's code (invalid_request, insufficient_minutes, not_found, video_processing, rate_limited …) and message.`;

export interface McpServerOptions {
	/** Passed to the MCP SDK's Server (e.g. a Workers-safe jsonSchemaValidator). */
	server?: ServerOptions;
}

/** A server with every tool of tools/ (one file per tool: its schemas and what it does). */
export function createMcpServer(client: ApiClient, options: McpServerOptions = {}): McpServer {
	const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS, ...options.server });
	for (const tool of TOOLS) tool.register(server, client);
	return server;
}
