/** `clipforge mcp`: the MCP tools over stdio, for an AI assistant that launches a command. */
import type { Command } from "commander";
import { serveStdio } from "../../mcp/stdio.ts";
import type { Cli } from "../context.ts";

export function registerMcp(program: Command, cli: Cli): void {
	program
		.command("mcp")
		.description(
			"Serve the clipforge tools to an AI assistant over stdio (Model Context Protocol), with CLIPFORGE_URL and CLIPFORGE_API_KEY",
		)
		.action(async () => {
			await serveStdio(cli.client());
		});
}
