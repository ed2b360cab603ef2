/**
 * `clipforge mcp`: the MCP tools over stdio, for desktop assistants that launch a command. Stdout
 * carries the protocol only (nothing else may be printed there); it ends when stdin closes.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ApiClient } from "../api-client.ts";
import { createMcpServer } from "./server.ts";

export async function serveStdio(client: ApiClient): Promise<void> {
	const server = createMcpServer(client);
	const closed = new Promise<void>((resolve) => {
		process.stdin.once("end", resolve);
		process.stdin.once("close", resolve);
	});
	await server.connect(new StdioServerTransport());
	await closed;
	await server.close();
}
