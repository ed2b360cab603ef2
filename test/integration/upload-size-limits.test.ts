/**
 * Request bodies against the edge's limit (100 MB on Free and Pro zones) and R2's multipart rules
 * (every part but the last at least 5 MiB and all equal, at most 10,000 parts), for both ways
 * bytes arrive: a user's upload parts (`PUT /api/uploads/:id/parts/:n`) and the render tier's
 * writes through signed `/internal/objects` URLs, which go in parts above 64 MiB, here end to end
 * against Miniflare's R2.
 */
import { OBJECT_UPLOAD_LIMITS, objectParts } from "@clipforge/contract";
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planParts, UPLOAD_LIMITS } from "../../src/worker/domain/upload-limits";
import { MAX_OBJECT_BYTES } from "../../src/worker/middleware/body-limit";
import { signInternalObjectUrl } from "../../src/worker/services/signing";
import { settingsOf } from "../../src/worker/settings";

const MiB = 1024 ** 2;
const R2 = { minPartBytes: 5 * MiB, maxParts: 10_000 };

describe("a user's upload parts", () => {
	it("every plan a source may get is within R2's rules and each part within the zone's body limit", () => {
		const maxSource = settingsOf(env).sourceLimits.maxBytes;
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: maxSource }),
				fc.option(fc.integer({ min: UPLOAD_LIMITS.minPartBytes, max: UPLOAD_LIMITS.maxPartBytes })),
				(size, requested) => {
					const plan = planParts(size, requested ?? undefined);
					expect(plan).not.toBeNull();
					const { partSize, partCount } = plan!;
					expect(partCount).toBeLessThanOrEqual(R2.maxParts);
					expect(partSize).toBeLessThanOrEqual(OBJECT_UPLOAD_LIMITS.zoneBodyBytes);
					if (partCount > 1) expect(partSize).toBeGreaterThanOrEqual(R2.minPartBytes);
					expect(partSize * (partCount - 1)).toBeLessThan(size);
					expect(partSize * partCount).toBeGreaterThanOrEqual(size);
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("the render tier's writes", () => {
	const signed = async (key: string) => new URL(await signInternalObjectUrl(env, key, "PUT"));
	const step = async (
		url: URL,
		method: string,
		query: Record<string, string>,
		body?: BodyInit,
		headers: Record<string, string> = {},
	) => {
		const target = new URL(url);
		for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
		return exports.default.fetch(target.toString(), { method, body, headers });
	};
	const bytes = (n: number, seed: number) => {
		const data = new Uint8Array(n);
		for (let i = 0; i < n; i++) data[i] = (i * seed + 11) % 251;
		return data;
	};

	it("are at most one part each, and a 4 GiB source needs far fewer parts than R2 allows", () => {
		expect(MAX_OBJECT_BYTES).toBeLessThanOrEqual(OBJECT_UPLOAD_LIMITS.zoneBodyBytes);
		expect(OBJECT_UPLOAD_LIMITS.partBytes).toBeLessThanOrEqual(MAX_OBJECT_BYTES);
		expect(OBJECT_UPLOAD_LIMITS.partBytes).toBeGreaterThanOrEqual(R2.minPartBytes);
		expect(objectParts(settingsOf(env).sourceLimits.maxBytes).count).toBeLessThanOrEqual(R2.maxParts);
	});

	it("a file in parts through the signed URL is stored whole in R2", async () => {
		// A key no row governs (a built-in background's): a video's keys take writes only while it lives (orphans.test.ts).
		const key = `backgrounds/builtin/test-${crypto.randomUUID()}.mp4`;
		const url = await signed(key);
		const started = await step(url, "POST", { uploads: "" }, undefined, { "content-type": "video/mp4" });
		expect(started.status).toBe(200);
		const { uploadId } = (await started.json()) as { uploadId: string };
		const first = bytes(R2.minPartBytes, 7);
		const last = bytes(123_456, 13);
		const parts = [];
		for (const [n, data] of [first, last].entries()) {
			const response = await step(url, "PUT", { uploadId, partNumber: String(n + 1) }, data, {
				"content-length": String(data.length),
			});
			expect(response.status).toBe(200);
			parts.push(await response.json());
		}
		const done = await step(url, "POST", { uploadId }, JSON.stringify({ parts }), {
			"content-type": "application/json",
		});
		expect(done.status).toBe(201);
		expect(await done.json()).toEqual({ key, size: first.length + last.length });
		const stored = await env.MEDIA.get(key);
		const all = new Uint8Array(await stored!.arrayBuffer());
		expect(all.length).toBe(first.length + last.length);
		expect(all.subarray(0, first.length)).toEqual(first);
		expect(all.subarray(first.length)).toEqual(last);
		expect(stored!.httpMetadata?.contentType).toBe("video/mp4");
	});

	it("an aborted upload leaves nothing; a URL signed for another key or for reading cannot start one", async () => {
		const key = `backgrounds/builtin/test-${crypto.randomUUID()}.mp4`;
		const url = await signed(key);
		const { uploadId } = (await (await step(url, "POST", { uploads: "" })).json()) as { uploadId: string };
		await step(url, "PUT", { uploadId, partNumber: "1" }, bytes(1000, 3), { "content-length": "1000" });
		expect((await step(url, "DELETE", { uploadId })).status).toBe(204);
		expect(await env.MEDIA.head(key)).toBeNull();

		const other = await signed(`clips/${crypto.randomUUID()}.mp4`);
		const forged = new URL(url);
		forged.searchParams.set("sig", other.searchParams.get("sig")!);
		expect((await step(forged, "POST", { uploads: "" })).status).toBe(403);
		const reading = new URL(await signInternalObjectUrl(env, key, "GET"));
		expect((await step(reading, "POST", { uploads: "" })).status).toBe(403);
		// POST without a multipart step is not what the URL was signed for.
		expect((await step(url, "POST", {}, "x")).status).toBe(403);
	});
});
