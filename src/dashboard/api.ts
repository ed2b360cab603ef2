/**
 * The JSON API with the session cookie, typed by the same generated OpenAPI types as the SDK
 * (`@clipforge/sdk/api-types`, from the routes' zod schemas): every path, parameter, body and answer
 * is checked at compile time, so the dashboard shows exactly what the API answers.
 *
 * @example
 * const status = await call(api.GET("/api/videos/{id}/status", { params: { path: { id } } }));
 */
import createClient from "openapi-fetch";
import type { components, paths } from "@clipforge/sdk/api-types";

/** The API's named schemas (Clip, ClipDetail, CaptionTemplate, Upload, VideoConfig …). */
export type Schemas = components["schemas"];
/** The query parameters of a GET route. */
export type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
	? NonNullable<Q>
	: never;

export interface ErrorDetail {
	path: string;
	message: string;
}

/** A refusal of the API (its `{ error: { code, message, details } }` body), or of the network (status 0). */
export class DashboardApiError extends Error {
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

export const api = createClient<paths>({ credentials: "same-origin", headers: { accept: "application/json" } });

/** The answer of a call, or DashboardApiError; a lost session (401 outside sign-in) goes to the sign-in page. */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
	const { data, error, response } = await request;
	if (!response.ok) {
		if (response.status === 401 && !new URL(response.url, location.href).pathname.startsWith("/api/auth/"))
			location.hash = "#/login";
		throw new DashboardApiError(
			response.status,
			(error ?? null) as ConstructorParameters<typeof DashboardApiError>[1],
		);
	}
	return data as T;
}

export function errorText(error: unknown): string {
	if (!(error instanceof DashboardApiError)) return error instanceof Error ? error.message : String(error);
	const details = Array.isArray(error.details)
		? ` (${(error.details as ErrorDetail[]).map((d) => `${d.path}: ${d.message}`).join("; ")})`
		: "";
	return error.message + details;
}
