/**
 * uploadFile / submitFile against a stand-in of the upload API (the same rules as the Worker's:
 * exact part sizes, a part URL with a token, complete only when every part is stored), with a real
 * MP4 made by ffmpeg: the bytes the "API" reassembles are the file's, a crashed upload resumes with
 * only its missing parts, and progress only rises to the file's size.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClipforgeError, createClient } from "../src/index.ts";

const PART = 5 * 1024 ** 2;
let dir: string;
let file: string;

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "clipforge-sdk-upload-"));
	file = join(dir, "talk.mp4");
	// About 11 MB: three parts of 5 MiB (the last one shorter). Noise does not compress, so the size is steady.
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-f",
		"lavfi",
		"-i",
		"nullsrc=s=320x240:r=25,geq=random(1)*255:128:128",
		"-f",
		"lavfi",
		"-i",
		"sine=frequency=440",
		"-t",
		"4",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-b:v",
		"24M",
		"-maxrate",
		"24M",
		"-bufsize",
		"24M",
		"-c:a",
		"aac",
		"-shortest",
		"-y",
		file,
	]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The upload routes as the Worker answers them, in memory. `failPart` makes PUTs of that part fail at the network, `times` times. */
function standInApi() {
	const uploads = new Map<
		string,
		{
			size: number;
			partSize: number;
			partCount: number;
			parts: Map<number, Uint8Array>;
			status: string;
			fileName: string;
			contentType: string;
		}
	>();
	const puts: number[] = [];
	const faults = new Map<number, number>();
	let submitted: unknown = null;
	const view = (id: string) => {
		const u = uploads.get(id)!;
		const stored = [...u.parts.keys()].sort((a, b) => a - b);
		return {
			id,
			status: u.status,
			fileName: u.fileName,
			contentType: u.contentType,
			size: u.size,
			partSize: u.partSize,
			partCount: u.partCount,
			partUrlTemplate:
				u.status === "uploading" ? `http://api.test/api/uploads/${id}/parts/{partNumber}?token=1.sig` : null,
			parts: stored.map((n) => ({ partNumber: n, size: u.parts.get(n)!.length, etag: `e${n}` })),
			missingParts: Array.from({ length: u.partCount }, (_, i) => i + 1).filter((n) => !u.parts.has(n)),
			videoId: null,
			expiresAt: "",
			createdAt: "",
			completedAt: null,
		};
	};
	const json = (status: number, body: unknown) =>
		new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
	const fetchStub = (async (input: string | Request, init?: RequestInit) => {
		const request = new Request(input, init);
		const url = new URL(request.url);
		const part = /^\/api\/uploads\/([^/]+)\/parts\/(\d+)$/.exec(url.pathname);
		if (part && request.method === "PUT") {
			const n = Number(part[2]);
			puts.push(n);
			if ((faults.get(n) ?? 0) > 0) {
				faults.set(n, faults.get(n)! - 1);
				throw new TypeError("fetch failed: socket hang up");
			}
			expect(url.searchParams.get("token")).toBe("1.sig");
			expect(request.headers.get("authorization")).toBeNull();
			const u = uploads.get(part[1]!)!;
			const bytes = new Uint8Array(await request.arrayBuffer());
			const expected = n < u.partCount ? u.partSize : u.size - u.partSize * (u.partCount - 1);
			if (bytes.length !== expected)
				return json(400, { error: { code: "invalid_request", message: "wrong size", requestId: "r" } });
			u.parts.set(n, bytes);
			return json(200, { partNumber: n, size: bytes.length, etag: `e${n}` });
		}
		expect(request.headers.get("authorization")).toBe("Bearer cf_live_x");
		if (url.pathname === "/api/uploads" && request.method === "POST") {
			const body = (await request.json()) as {
				size: number;
				partSize?: number;
				fileName: string;
				contentType: string;
			};
			const id = `upl_${uploads.size + 1}`;
			const partSize = body.partSize ?? 16 * 1024 ** 2;
			uploads.set(id, {
				size: body.size,
				partSize,
				partCount: Math.ceil(body.size / partSize),
				parts: new Map(),
				status: "uploading",
				fileName: body.fileName,
				contentType: body.contentType,
			});
			return json(201, view(id));
		}
		const one = /^\/api\/uploads\/([^/]+)(\/complete)?$/.exec(url.pathname);
		if (one) {
			const u = uploads.get(one[1]!);
			if (!u) return json(404, { error: { code: "not_found", message: "no upload", requestId: "r" } });
			if (one[2]) {
				if (view(one[1]!).missingParts.length > 0)
					return json(409, { error: { code: "conflict", message: "parts missing", requestId: "r" } });
				u.status = "completed";
			}
			return json(200, view(one[1]!));
		}
		if (url.pathname === "/api/videos/upload") {
			submitted = { body: await request.json(), idempotencyKey: request.headers.get("idempotency-key") };
			return json(201, {
				message: "ok",
				video: { id: "vid_1", status: "downloading" },
				videoInfo: { title: "talk", duration: 4 },
			});
		}
		return json(404, { error: { code: "not_found", message: url.pathname, requestId: "r" } });
	}) as unknown as typeof fetch;
	const stored = (id: string) => {
		const u = uploads.get(id)!;
		return Buffer.concat([...u.parts.keys()].sort((a, b) => a - b).map((n) => u.parts.get(n)!));
	};
	return { fetch: fetchStub, puts, faults, stored, submitted: () => submitted };
}

describe("uploadFile", () => {
	it("uploads a real MP4 in parts and the API reassembles exactly its bytes, with rising progress", async () => {
		const api = standInApi();
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "cf_live_x", fetch: api.fetch });
		const seen: number[] = [];
		const upload = await cf.uploadFile(file, { partSize: PART, onProgress: (p) => seen.push(p.uploadedBytes) });
		const bytes = readFileSync(file);
		expect(upload).toMatchObject({
			status: "completed",
			fileName: "talk.mp4",
			contentType: "video/mp4",
			size: bytes.length,
			partCount: 3,
		});
		expect(api.stored(upload.id).equals(bytes)).toBe(true);
		expect(api.puts.sort()).toEqual([1, 2, 3]);
		expect(seen[0]).toBe(0);
		expect(seen.at(-1)).toBe(bytes.length);
		expect(seen).toEqual([...seen].sort((a, b) => a - b));
	});

	it("after a crash (a part that keeps failing), resumes the same upload sending only the missing parts", async () => {
		const api = standInApi();
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "cf_live_x", fetch: api.fetch, maxAttempts: 2 });
		let uploadId = "";
		api.faults.set(2, 2);
		const crashed = await cf
			.uploadFile(file, { partSize: PART, concurrency: 1, onProgress: (p) => (uploadId = p.uploadId) })
			.catch((e: unknown) => e);
		expect(crashed).toBeInstanceOf(ClipforgeError);
		expect((crashed as ClipforgeError).code).toBe("network_error");
		expect(api.puts).toEqual([1, 2, 2]);

		api.puts.length = 0;
		const resumed = await cf.uploadFile(file, { uploadId, onProgress: (p) => expect(p.uploadId).toBe(uploadId) });
		expect(resumed.id).toBe(uploadId);
		expect(api.puts.sort()).toEqual([2, 3]);
		expect(api.stored(uploadId).equals(readFileSync(file))).toBe(true);
	});

	it("refuses to resume an upload made for another file size", async () => {
		const api = standInApi();
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "cf_live_x", fetch: api.fetch });
		const other = await cf.createUpload({ fileName: "x.mp4", size: 10, contentType: "video/mp4" });
		const error = await cf.uploadFile(file, { uploadId: other.id }).catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "conflict" });
	});

	it("submitFile uploads, then submits the upload with the config and an Idempotency-Key", async () => {
		const api = standInApi();
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "cf_live_x", fetch: api.fetch });
		const submitted = await cf.submitFile(file, { aspectRatio: "1:1" }, { partSize: PART });
		expect(submitted.video.id).toBe("vid_1");
		expect(api.submitted()).toMatchObject({
			body: { uploadId: "upl_1", config: { aspectRatio: "1:1" } },
			idempotencyKey: expect.stringMatching(/^sdk-/),
		});
	});
});
