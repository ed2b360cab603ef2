import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/worker/app";
import { ApiError } from "../../src/worker/errors";

describe("the one error model", () => {
	it("an unexpected exception is a 500 internal_error with a request id and no stack or message leak", async () => {
		const app = createApp();
		app.get("/boom", () => {
			throw new Error("db password is hunter2 at Object.<anonymous> (src/x.ts:1:1)");
		});
		const response = await app.request("/boom", {}, env);
		expect(response.status).toBe(500);
		const body = await response.json<{ error: Record<string, unknown> }>();
		expect(Object.keys(body.error).sort()).toEqual(["code", "message", "requestId"]);
		expect(body.error.code).toBe("internal_error");
		expect(JSON.stringify(body)).not.toMatch(/hunter2|\.ts:|at Object/);
		expect(response.headers.get("x-request-id")).toBe(body.error.requestId);
	});

	it("typed errors keep their status, code, message and details", async () => {
		const app = createApp();
		app.get("/typed", () => {
			throw new ApiError("video_too_long", "Too long.", { duration: 2 });
		});
		const response = await app.request("/typed", {}, env);
		expect(response.status).toBe(413);
		expect(await response.json()).toMatchObject({
			error: { code: "video_too_long", message: "Too long.", details: { duration: 2 } },
		});
	});
});
