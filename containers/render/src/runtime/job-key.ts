/**
 * A job's identity: the job's name and its validated request, with the signature of every signed
 * URL left out (`exp`, `sig`). A request retried by the Worker on a fresh connection, or by a
 * workflow step's next attempt (which signs its URLs again), is the same work, and gets the same key;
 * any other difference (another clip, another cut, another look) is another job.
 */
import { createHash } from "node:crypto";

const SIGNATURE_PARAMS = ["exp", "sig"];

/**
 * @example jobKey("renderClip", { clipId: "clp_1", videoPutUrl: "http://w/internal/objects/a?method=PUT&exp=1&sig=x" })
 * // equals jobKey("renderClip", { clipId: "clp_1", videoPutUrl: "http://w/internal/objects/a?method=PUT&exp=2&sig=y" })
 */
export function jobKey(name: string, request: unknown): string {
	return createHash("sha256")
		.update(name)
		.update("\n")
		.update(JSON.stringify(unsigned(request)))
		.digest("hex");
}

function unsigned(value: unknown): unknown {
	if (typeof value === "string") return withoutSignature(value);
	if (Array.isArray(value)) return value.map(unsigned);
	if (value && typeof value === "object") {
		return Object.fromEntries(
			Object.entries(value)
				.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
				.map(([k, v]) => [k, unsigned(v)]),
		);
	}
	return value;
}

function withoutSignature(text: string): string {
	if (!/^https?:\/\//.test(text) || !text.includes("sig=")) return text;
	try {
		const url = new URL(text);
		for (const param of SIGNATURE_PARAMS) url.searchParams.delete(param);
		return url.toString();
	} catch {
		return text;
	}
}
