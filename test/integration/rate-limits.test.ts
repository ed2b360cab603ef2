import { describe, expect, it } from "vitest";
import { createUser, createWorkspace } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";
import { itCountsInOneWindow } from "../helpers/rate-window";
import { MAX_KEYS_PER_WORKSPACE } from "../../src/worker/routes/api/api-keys/create";

describe("rate limits per workspace", () => {
	itCountsInOneWindow(
		"the 61st write in a minute → 429 rate_limited with Retry-After; reads and other keys go on",
		60,
		async () => {
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
			expect((await call("POST", "/api/projects", { key: other.apiKey, body: { name: "fine" } })).status).toBe(
				201,
			);
		},
	);

	itCountsInOneWindow(
		"the 601st read in a minute → 429 with Retry-After, whatever the read would have answered",
		60,
		async () => {
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
			expect((await call("POST", "/api/projects", { key: apiKey, body: { name: "still fine" } })).status).toBe(
				201,
			);
		},
	);

	itCountsInOneWindow(
		"more keys buy no more writes: the workspace's second key is refused with the first",
		60,
		async () => {
			const user = await createUser();
			const cookie = await signIn(user.email, user.password);
			const workspaceId = user.workspaceIds[0]!;
			const mint = async (name: string) =>
				(await call("POST", "/api/api-keys", { headers: { cookie }, body: { workspaceId, name } })).body
					.key as string;
			const [first, second] = [await mint("one"), await mint("two")];
			for (let i = 0; i < 60; i++) {
				const key = i % 2 ? first : second;
				expect((await call("POST", "/api/projects", { key, body: { name: `p${i}` } })).status).toBe(201);
			}
			for (const key of [first, second, await mint("three")]) {
				const limited = await call("POST", "/api/projects", { key, body: { name: "one too many" } });
				expect(limited.status).toBe(429);
				expect(limited.body.error.message).toMatch(/this workspace's API keys/);
			}
		},
	);
});

describe("API keys per workspace", () => {
	it(`at most ${MAX_KEYS_PER_WORKSPACE} not revoked, minted together: 409 quota_exceeded beyond; revoking one makes room`, async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const workspaceId = user.workspaceIds[0]!;
		const mint = (name: string) =>
			call("POST", "/api/api-keys", { headers: { cookie }, body: { workspaceId, name } });
		const results = await Promise.all(Array.from({ length: MAX_KEYS_PER_WORKSPACE + 5 }, (_, i) => mint(`k${i}`)));
		const created = results.filter((r) => r.status === 201);
		// The workspace's own key (createUser) counts too.
		expect(created).toHaveLength(MAX_KEYS_PER_WORKSPACE - 1);
		const refused = results.filter((r) => r.status !== 201);
		for (const r of refused) {
			expect(r.status).toBe(409);
			expect(r.body.error.code).toBe("quota_exceeded");
			expect(r.body.error.details).toEqual({ limit: MAX_KEYS_PER_WORKSPACE, used: MAX_KEYS_PER_WORKSPACE });
		}
		expect((await call("DELETE", `/api/api-keys/${created[0]!.body.id}`, { headers: { cookie } })).status).toBe(
			200,
		);
		expect((await mint("room again")).status).toBe(201);
		expect((await mint("full again")).status).toBe(409);
	});
});
