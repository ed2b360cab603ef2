import { exports } from "cloudflare:workers";
import { introspectVideoRuns } from "./video-runs";

export const BASE = "http://clipforge.test";

export interface CallOptions {
	key?: string | null;
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
}

/** Calls the Worker like a client would; `key: null` sends no Authorization header. */
export async function call(
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<{ status: number; body: any; response: Response }> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.key) headers.authorization = `Bearer ${options.key}`;
	let body: string | undefined;
	if (options.rawBody !== undefined) body = options.rawBody;
	else if (options.body !== undefined) body = JSON.stringify(options.body);
	if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
	const response = await exports.default.fetch(`${BASE}${path}`, { method, headers, body });
	// Decode bytes ourselves: media bodies are not text, and .text() on them warns.
	const text = new TextDecoder().decode(await response.arrayBuffer());
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: response.status, body: parsed, response };
}

/** Submits a video and waits for its workflow instance to end; returns the video id. */
export function submitAndProcess(
	key: string,
	hostedUrl: string,
	config: Record<string, unknown>,
	expectStatus: "complete" | "errored" = "complete",
): Promise<string> {
	return submitBodyAndProcess(key, { hostedUrl, config }, expectStatus);
}

/** Like submitAndProcess, with a whole submission body (webhookUrl, projectId …). */
export async function submitBodyAndProcess(
	key: string,
	body: Record<string, unknown>,
	expectStatus: "complete" | "errored" = "complete",
): Promise<string> {
	await using introspector = await introspectVideoRuns();
	const submitted = await call("POST", "/api/videos/hosted", { key, body });
	if (submitted.status !== 201)
		throw new Error(`submission answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
	const instances = await introspector.get();
	if (instances.length !== 1) throw new Error(`expected one workflow instance, got ${instances.length}`);
	await instances[0]!.waitForStatus(expectStatus);
	return submitted.body.video.id as string;
}

/** Signs in and returns the `Cookie` header value of the session. */
export async function signIn(email: string, password: string): Promise<string> {
	const { status, response } = await call("POST", "/api/auth/login", { body: { email, password } });
	if (status !== 200) throw new Error(`sign-in answered ${status}`);
	const setCookie = response.headers.get("set-cookie") ?? "";
	return setCookie.split(";")[0]!;
}
