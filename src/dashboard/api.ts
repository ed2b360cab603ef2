/** The JSON API with the session cookie: the dashboard shows exactly what the API answers. */

export interface ErrorDetail {
	path: string;
	message: string;
}

export class ApiError extends Error {
	readonly status: number;
	readonly code: string | undefined;
	readonly details: unknown;
	constructor(status: number, body: { error?: { message?: string; code?: string; details?: unknown } } | null) {
		super(body?.error?.message ?? `HTTP ${status}`);
		this.status = status;
		this.code = body?.error?.code;
		this.details = body?.error?.details;
	}
}

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(path, {
		method,
		credentials: "same-origin",
		headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json", accept: "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const data = response.status === 204 ? null : await response.json().catch(() => null);
	if (!response.ok) {
		if (response.status === 401 && !path.startsWith("/api/auth/")) location.hash = "#/login";
		throw new ApiError(response.status, data);
	}
	return data as T;
}

export function errorText(error: unknown): string {
	if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
	const details = Array.isArray(error.details) ? ` (${(error.details as ErrorDetail[]).map((d) => `${d.path}: ${d.message}`).join("; ")})` : "";
	return error.message + details;
}
