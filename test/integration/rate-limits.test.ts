import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { call } from "../helpers/api";

describe("rate limits per API key", () => {
	it("the 61st write in a minute → 429 rate_limited with Retry-After; reads and other keys go on", async () => {
		const { apiKey } = await createWorkspace();
		const other = await createWorkspace();
		for (let i = 0; i < 60; i++) {
			const { status } = await call("POST", "/api/projects", { key: apiKey, body: { name: `p${i}` } });
			expect(status, `write ${i + 1}`).toBe(201);
		}
		const limited = await call("POST", "/api/projects", { key: apiKey, body: { name: "one too many" } });
		expect(limited.status).toBe(429);
		expect(limited.body.error.code).toBe("rate_limited");
		expect(limited.response.headers.get("retry-after")).toBe("60");
		expect((await call("GET", "/api/projects", { key: apiKey })).status).toBe(200);
		expect((await call("POST", "/api/projects", { key: other.apiKey, body: { name: "fine" } })).status).toBe(201);
	});

	it("the 601st read in a minute → 429 with Retry-After, whatever the read would have answered", async () => {
		const { apiKey } = await createWorkspace();
		for (let i = 0; i < 600; i += 50) {
			const batch = await Promise.all(
				Array.from({ length: 50 }, () => call("GET", "/api/projects", { key: apiKey })),
			);
			expect(batch.every((r) => r.status === 200)).toBe(true);
		}
		const limited = await call("GET", "/api/projects", { key: apiKey });
		expect(limited.status).toBe(429);
		expect(limited.body.error.code).toBe("rate_limited");
		expect(limited.body.projects).toBeUndefined();
		expect(limited.response.headers.get("retry-after")).toBe("60");
		// A read that would be a 404 is refused by the limit first.
		expect((await call("GET", "/api/videos/vid_doesnotexist/status", { key: apiKey })).status).toBe(429);
		// Writes are counted apart.
		expect((await call("POST", "/api/projects", { key: apiKey, body: { name: "still fine" } })).status).toBe(201);
	});
});
