/** Authentication is the default under /api: every documented operation but the named public ones refuses anonymous callers. */
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { call } from "../helpers/api";

const PUBLIC = new Set([
	"POST /api/auth/login",
	"POST /api/auth/logout",
	"GET /api/openapi.json",
	"PUT /api/uploads/{id}/parts/{partNumber}",
]);

describe("authentication by default", () => {
	it("every operation of the OpenAPI document answers 401 without credentials, except the public ones", async () => {
		const { body: doc } = await call("GET", "/api/openapi.json");
		const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
			([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
		);
		expect(operations.length).toBeGreaterThanOrEqual(18);
		for (const operation of operations.filter((op) => !PUBLIC.has(op))) {
			const [method, path] = operation.split(" ") as [string, string];
			const result = await call(method, path.replace(/\{[^}]+\}/g, "x"), {
				body: method === "GET" || method === "DELETE" ? undefined : {},
			});
			expect(result.status, operation).toBe(401);
			expect(result.body.error.code, operation).toBe("unauthorized");
		}
	});

	it("signed clip and source URLs and unknown paths need no credentials (403 for a bad token, 404 for no route)", async () => {
		expect((await call("GET", "/api/clips/clp_x/download?token=1.x")).status).toBe(403);
		expect((await call("GET", "/api/videos/vid_x/source?token=1.x")).status).toBe(403);
		expect((await call("GET", "/api/nothing-here")).status).toBe(404);
	});

	it("a path no route matches under a session-only prefix is refused in the one body, not a 500 (found by the hostile-tenant fuzz)", async () => {
		const { apiKey } = await createWorkspace();
		for (const [method, path] of [
			["DELETE", "/api/api-keys/"],
			["POST", "/api/api-keys/x/y"],
		] as const) {
			const result = await call(method, path, { key: apiKey });
			expect(result.status, `${method} ${path}`).toBe(401);
			expect(result.body.error.code).toBe("unauthorized");
		}
	});
});
