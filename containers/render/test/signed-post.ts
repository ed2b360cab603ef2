/** Job requests as the Worker sends them: JSON, signed with the tier's RENDER_SECRET. */
import { signRenderRequest } from "@clipforge/contract";

export async function signedPost(
	base: string,
	path: string,
	body: unknown,
	secret = process.env.RENDER_SECRET!,
	signal?: AbortSignal,
): Promise<Response> {
	const text = JSON.stringify(body);
	const authorization = await signRenderRequest(secret, { method: "POST", path, body: text });
	return fetch(base + path, {
		method: "POST",
		headers: { "content-type": "application/json", authorization },
		body: text,
		signal,
	});
}
