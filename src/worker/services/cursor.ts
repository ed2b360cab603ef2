/**
 * Opaque pagination cursors: base64url JSON of the last row's sort key. Clients pass them back
 * as-is; a cursor that does not decode is a 400, not a silent first page.
 */
import { ApiError } from "../errors";
import { base64UrlDecode, base64UrlEncode } from "./crypto";

export function encodeCursor(value: Record<string, string | number>): string {
	return base64UrlEncode(new TextEncoder().encode(JSON.stringify(value)));
}

export function decodeCursor<T extends Record<string, string | number>>(
	cursor: string | undefined,
	check: (value: unknown) => value is T,
): T | null {
	if (!cursor) return null;
	const bytes = base64UrlDecode(cursor);
	try {
		const value: unknown = bytes ? JSON.parse(new TextDecoder().decode(bytes)) : null;
		if (check(value)) return value;
	} catch {
		// fall through to the 400
	}
	throw new ApiError("invalid_request", "The request is invalid.", [
		{ path: "cursor", message: "not a cursor this API issued" },
	]);
}
