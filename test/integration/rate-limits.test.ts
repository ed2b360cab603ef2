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
});
