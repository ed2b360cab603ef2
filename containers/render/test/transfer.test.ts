/**
 * The tier's uploads against a stand-in of the Worker's signed object URL that enforces what the
 * platform does: no request body over the part size (the zone's limit scaled down), R2's equal
 * parts (all but the last), parts completed in order. A file up to one part goes in one PUT; a
 * larger one in parts; a part that fails with a 5xx is sent again; a refusal aborts the upload.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putFile } from "../src/runtime/transfer.ts";

const PART = 256 * 1024;
const dir = mkdtempSync(join(tmpdir(), "transfer-test-"));

interface Upload {
	parts: Map<number, Buffer>;
	completed: Buffer | null;
	aborted: boolean;
}

let server: Server;
let base = "";
const uploads = new Map<string, Upload>();
const requests: { method: string; query: string; bytes: number }[] = [];
const failures: { partNumber: number; status: number; times: number }[] = [];
let singles: Buffer[] = [];

const body = async (request: IncomingMessage) => {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
};

beforeAll(async () => {
	server = createServer(async (request, response) => {
		const url = new URL(request.url!, "http://x");
		const data = await body(request);
		requests.push({ method: request.method!, query: url.search, bytes: data.length });
		const answer = (status: number, value?: unknown) => {
			response.writeHead(status, { "content-type": "application/json" });
			response.end(value === undefined ? "" : JSON.stringify(value));
		};
		// The edge: no body larger than a part, and every body declares its length.
		if (data.length > PART || (data.length > 0 && request.headers["content-length"] !== String(data.length)))
			return answer(413, { error: "too large or no length" });
		const id = url.searchParams.get("uploadId");
		if (url.searchParams.has("uploads")) {
			const uploadId = `u${uploads.size + 1}`;
			uploads.set(uploadId, { parts: new Map(), completed: null, aborted: false });
			return answer(200, { uploadId });
		}
		if (!id) {
			singles.push(data);
			return answer(201, { key: "k", size: data.length });
		}
		const upload = uploads.get(id)!;
		if (request.method === "PUT") {
			const partNumber = Number(url.searchParams.get("partNumber"));
			const failure = failures.find((f) => f.partNumber === partNumber && f.times > 0);
			if (failure) {
				failure.times--;
				return answer(failure.status, { error: "refused" });
			}
			upload.parts.set(partNumber, data);
			return answer(200, { partNumber, etag: `etag-${partNumber}` });
		}
		if (request.method === "DELETE") {
			upload.aborted = true;
			return answer(204);
		}
		const { parts } = JSON.parse(data.toString()) as { parts: { partNumber: number; etag: string }[] };
		const sizes = parts.map((p) => upload.parts.get(p.partNumber)!.length);
		// R2: every part but the last the same size, at least the minimum (scaled down here).
		if (sizes.slice(0, -1).some((s) => s !== sizes[0]) || sizes.at(-1)! > sizes[0]!)
			return answer(400, { error: "InvalidPart" });
		upload.completed = Buffer.concat(parts.map((p) => upload.parts.get(p.partNumber)!));
		return answer(201, { key: "k", size: upload.completed.length });
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal/objects/sources/v.mp4?method=PUT&exp=1&sig=s`;
});

afterAll(() => {
	server.close();
	rmSync(dir, { recursive: true, force: true });
});

const fileOf = (bytes: number) => {
	const path = join(dir, `f-${bytes}-${Math.random()}`);
	const data = Buffer.alloc(bytes, 0);
	for (let i = 0; i < bytes; i++) data[i] = (i * 31 + 7) % 251;
	writeFileSync(path, data);
	return { path, data };
};

describe("putFile", () => {
	it("sends a file of up to one part in one PUT", async () => {
		singles = [];
		const { path, data } = fileOf(PART);
		expect(await putFile(path, base, "video/mp4", undefined, undefined, PART)).toBe(PART);
		expect(singles).toHaveLength(1);
		expect(singles[0]!.equals(data)).toBe(true);
	});

	it("sends a larger file in equal parts (the last shorter), completes them in order, and reports rising progress", async () => {
		const { path, data } = fileOf(PART * 3 + 1234);
		const progress: number[] = [];
		const before = uploads.size;
		expect(await putFile(path, base, "video/mp4", (f) => void progress.push(f), undefined, PART)).toBe(data.length);
		const upload = [...uploads.values()][before]!;
		expect([...upload.parts.values()].map((p) => p.length)).toEqual([PART, PART, PART, 1234]);
		expect(upload.completed!.equals(data)).toBe(true);
		expect(progress.at(-1)).toBe(1);
		expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!)).toBe(true);
	});

	it("sends a part again after a 5xx, and aborts the upload when a part is refused for good", async () => {
		failures.push({ partNumber: 2, status: 503, times: 1 });
		const { path, data } = fileOf(PART * 2 + 10);
		await putFile(path, base, "video/mp4", undefined, undefined, PART);
		const retried = [...uploads.values()].at(-1)!;
		expect(retried.completed!.equals(data)).toBe(true);

		failures.push({ partNumber: 2, status: 403, times: 1 });
		await expect(putFile(path, base, "video/mp4", undefined, undefined, PART)).rejects.toThrow(
			/Upload answered 403/,
		);
		const refused = [...uploads.values()].at(-1)!;
		expect(refused.completed).toBeNull();
		expect(refused.aborted).toBe(true);
	});

	it("by default, parts are 64 MiB: under a Free or Pro zone's 100 MB body, over R2's 5 MiB", async () => {
		const { OBJECT_UPLOAD_LIMITS, objectParts } = await import("@clipforge/contract");
		expect(OBJECT_UPLOAD_LIMITS.partBytes).toBeLessThan(OBJECT_UPLOAD_LIMITS.zoneBodyBytes - 64 * 1024);
		expect(OBJECT_UPLOAD_LIMITS.partBytes).toBeGreaterThanOrEqual(OBJECT_UPLOAD_LIMITS.minPartBytes);
		// The largest source the settings allow (4 GiB by default; 8 GiB is more than any plan is given here) stays far under R2's part count.
		expect(objectParts(8 * 1024 ** 3).count).toBeLessThanOrEqual(OBJECT_UPLOAD_LIMITS.maxParts);
	});
});
