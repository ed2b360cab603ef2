import { inject } from "vitest";

/** The e2e stack's address and bootstrap key (provided by global-setup.ts). */
export const stackUrl = () => inject("clipforgeUrl");

/** Calls the stack like a client: Bearer key, JSON in and out. */
export async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
	const response = await fetch(stackUrl() + path, {
		method,
		headers: { authorization: `Bearer ${inject("clipforgeApiKey")}`, "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as any };
}
