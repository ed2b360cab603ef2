/**
 * Property-based: random and hostile input at the upload routes (the part URL is public, so its
 * ids, numbers, tokens and bodies come from anyone). Whatever arrives: never a 5xx, never a charge,
 * never more open uploads than the limit, every error in the one documented body.
 */
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/worker/errors";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { BASE, call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

useFakeRenderTier({ introspect: false });
const RUNS = 40;

function expectDocumentedError(result: { status: number; body: any }, what: string) {
	expect(result.status, what).toBeLessThan(500);
	if (result.status >= 400) {
		expect(Object.keys(result.body), what).toEqual(["error"]);
		expect(ERROR_CODES).toContain(result.body.error.code);
		expect(typeof result.body.error.requestId).toBe("string");
	}
}

const createBody = fc.oneof(
	fc.anything(),
	fc.record(
		{
			fileName: fc.oneof(
				fc.string({ maxLength: 300 }),
				fc.constantFrom("../../etc/passwd", "a\u0000b.mp4", "", " ", "x".repeat(256)),
			),
			size: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 53, 1e308, "10")),
			contentType: fc.oneof(
				fc.string({ maxLength: 120 }),
				fc.constantFrom("video/mp4", "video/../../x", "text/html", "application/octet-stream"),
			),
			partSize: fc.oneof(fc.integer(), fc.constantFrom(5 * 1024 ** 2, 50 * 1024 ** 2 + 1, 0)),
			workspaceId: fc.string({ maxLength: 80 }),
		},
		{ requiredKeys: [] },
	),
);

describe("upload routes under random and hostile input", () => {
	it("POST /api/uploads and POST /api/videos/upload: no 5xx, no charge, at most 5 open uploads", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		await fc.assert(
			fc.asyncProperty(createBody, fc.anything(), async (body, submission) => {
				expectDocumentedError(
					await call("POST", "/api/uploads", { key: apiKey, rawBody: JSON.stringify(body) ?? "null" }),
					"POST /api/uploads",
				);
				const submitted = await call("POST", "/api/videos/upload", {
					key: apiKey,
					rawBody: JSON.stringify(submission) ?? "null",
				});
				expectDocumentedError(submitted, "POST /api/videos/upload");
				expect(submitted.status).not.toBe(201);
			}),
			{ numRuns: RUNS },
		);
		const open = await call("GET", "/api/videos", { key: apiKey });
		expect(open.body.videos).toEqual([]);
		expect(await balanceOf(workspaceId)).toBe(50);
		expect(await ledgerSum(workspaceId)).toBe(50);
		expect(
			await env.DB.prepare("SELECT COUNT(*) AS n FROM uploads WHERE workspace_id = ?")
				.bind(workspaceId)
				.first<number>("n"),
		).toBeLessThanOrEqual(5);
	});

	it("the public part URL with hostile ids, numbers, tokens and bodies", async () => {
		const { apiKey } = await createWorkspace();
		const real = (
			await call("POST", "/api/uploads", {
				key: apiKey,
				body: { fileName: "a.mp4", size: 100, contentType: "video/mp4" },
			})
		).body;
		const token = /token=([^&]+)/.exec(real.partUrlTemplate as string)![1]!;
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.constant(real.id as string), fc.string({ maxLength: 100 })),
				fc.oneof(fc.integer({ min: -5, max: 1005 }).map(String), fc.string({ maxLength: 20 })),
				fc.oneof(fc.constant(token), fc.string({ maxLength: 250 }), fc.constant(`${token}x`)),
				fc.uint8Array({ maxLength: 300 }),
				async (id, partNumber, tok, bytes) => {
					const url = `${BASE}/api/uploads/${encodeURIComponent(id) || "x"}/parts/${encodeURIComponent(partNumber) || "1"}?token=${encodeURIComponent(tok)}`;
					const response = await exports.default.fetch(url, {
						method: "PUT",
						body: bytes,
						headers: { "content-type": "application/octet-stream" },
					});
					const text = await response.text();
					expectDocumentedError(
						{ status: response.status, body: text ? JSON.parse(text) : {} },
						`PUT ${url}`,
					);
					if (response.status === 200) expect(bytes.length).toBe(100);
				},
			),
			{ numRuns: RUNS },
		);
	});
});
