import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { stackUrl } from "./client.ts";

describe("the OpenAPI document", () => {
	it("is valid OpenAPI 3.1 and documents the whole contract", async () => {
		const doc = await (await fetch(`${stackUrl()}/api/openapi.json`)).json();
		const validator = new Validator();
		const result = await validator.validate(doc);
		expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
		expect(result.valid).toBe(true);
		expect(validator.version).toBe("3.1");
		const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
			([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
		);
		expect(operations.length).toBeGreaterThanOrEqual(18);
		for (const op of [
			"POST /api/videos/hosted",
			"GET /api/videos/{id}/status",
			"GET /api/videos/{id}/clips",
			"GET /api/workspaces",
			"DELETE /api/videos/{id}",
			"POST /api/auth/login",
			"DELETE /api/api-keys/{id}",
		]) {
			expect(operations).toContain(op);
		}
	});
});
