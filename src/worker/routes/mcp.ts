/**
 * /mcp: the remote MCP server (Streamable HTTP), for assistants that connect to a URL. Stateless:
 * each POST gets its own server and transport (the official SDK's web-standard transport, which
 * Hono serves as it is), so any isolate can answer any request and nothing is kept between them.
 * The caller's API key is the credential, as for /api (a session cookie is not enough); each MCP
 * request counts as a read against the key's limit, and each tool is the REST API itself, called
 * in-process with the same key (its checks, workspace scope, write/read limits and error codes).
 * GET (a standing event stream) and DELETE (ending a session) need a stateful server: 405.
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { createApiClient, createMcpServer } from "@clipforge/sdk/web";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { authenticate } from "../middleware/auth";
import { countAs } from "../middleware/rate-limit";

/** How the tools reach the API: the Worker's own fetch handler, so nothing leaves the isolate. */
export type Dispatch = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response> | Response;

const apiKeyOnly = createMiddleware<AppEnv>(async (c, next) => {
	if (!c.req.header("authorization"))
		throw new ApiError(
			"unauthorized",
			"Send an API key as `Authorization: Bearer <API_KEY>` (the one the REST API takes).",
		);
	await authenticate(c, next);
});

/** Every MCP request is one read of the workspace's budget; the tools' API calls count as theirs. */
const countAsRead = countAs("read");

export function mcpRoutes(dispatch: Dispatch) {
	const routes = new Hono<AppEnv>();
	routes.post("/", apiKeyOnly, countAsRead, async (c) => {
		const apiKey = /^Bearer\s+(\S+)/i.exec(c.req.header("authorization") ?? "")![1]!;
		const client = createApiClient({
			baseUrl: new URL(c.req.url).origin,
			apiKey,
			// The API answers in-process; a refusal becomes the tool's error at once (no client-side retry).
			maxAttempts: 1,
			fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
				dispatch(new Request(input, init), c.env, c.executionCtx as ExecutionContext)) as typeof fetch,
		});
		// Workers refuse code generated from strings (Ajv's default); this validator interprets JSON Schema.
		const server = createMcpServer(client, { server: { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() } });
		const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
		await server.connect(transport);
		return transport.handleRequest(c.req.raw);
	});
	routes.on(["GET", "DELETE"], "/", (c) => {
		c.header("Allow", "POST");
		throw new ApiError(
			"method_not_allowed",
			"This MCP server is stateless: send each JSON-RPC message as a POST (no standing event stream, no session to end).",
		);
	});
	return routes;
}
