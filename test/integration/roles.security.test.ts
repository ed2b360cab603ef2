/**
 * Roles: only a workspace's owner or admins mint and revoke its API keys, set its webhook and
 * rotate the webhook's secret, set its watermark and delete its backgrounds; a member gets 403
 * `forbidden` and changes nothing. A rotated secret
 * stops signing at once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signWebhook } from "../../src/worker/services/webhooks";
import { createUser, createWorkspace, type TestUser } from "../helpers/accounts";
import { call, signIn, submitBodyAndProcess } from "../helpers/api";
import { useFakeRenderTier, WEBHOOK_BASE } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });

/** `user` becomes a `role` of `workspaceId` (a workspace they were not in). */
async function join(user: TestUser, workspaceId: string, role: "owner" | "admin" | "member") {
	await env.DB.prepare("INSERT INTO memberships (user_id, workspace_id, role) VALUES (?, ?, ?)")
		.bind(user.userId, workspaceId, role)
		.run();
}

async function asRole(role: "owner" | "admin" | "member") {
	const workspace = await createWorkspace();
	const user = await createUser({ workspaces: 0 });
	await join(user, workspace.workspaceId, role);
	return { ...workspace, user, cookie: await signIn(user.email, user.password) };
}

describe("a member cannot manage the workspace", () => {
	it("minting, revoking, setting the webhook, rotating its secret: 403 forbidden, nothing changed", async () => {
		const { workspaceId, apiKeyId, apiKey, cookie } = await asRole("member");
		const before = await env.DB.prepare("SELECT webhook_url AS u, webhook_secret AS s FROM workspaces WHERE id = ?")
			.bind(workspaceId)
			.first();
		const attempts = [
			call("POST", "/api/api-keys", { headers: { cookie }, body: { workspaceId, name: "mine now" } }),
			call("DELETE", `/api/api-keys/${apiKeyId}`, { headers: { cookie } }),
			call("PUT", `/api/workspaces/${workspaceId}/webhook`, {
				headers: { cookie },
				body: { url: `${WEBHOOK_BASE}exfiltrate` },
			}),
			call("POST", `/api/workspaces/${workspaceId}/webhook/secret`, { headers: { cookie } }),
			// The watermark is drawn on every member's clips; deleting a background fails the videos using it.
			call("PUT", `/api/workspaces/${workspaceId}/watermark`, {
				headers: { cookie },
				body: { type: "text", text: "not yours" },
			}),
			call("DELETE", `/api/backgrounds/bg_${"x".repeat(16)}?workspaceId=${workspaceId}`, { headers: { cookie } }),
		];
		for (const result of await Promise.all(attempts)) {
			expect(result.status).toBe(403);
			expect(result.body.error.code).toBe("forbidden");
			expect(result.body.error.message).toMatch(/owner or an admin/);
		}
		expect(
			await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ?")
				.bind(workspaceId)
				.first("n"),
		).toBe(1);
		expect((await call("GET", "/api/workspaces", { key: apiKey })).status).toBe(200); // not revoked
		expect(
			await env.DB.prepare("SELECT webhook_url AS u, webhook_secret AS s FROM workspaces WHERE id = ?")
				.bind(workspaceId)
				.first(),
		).toEqual(before);
		expect((await call("GET", `/api/workspaces/${workspaceId}/watermark`, { headers: { cookie } })).body.type).toBe(
			"default",
		);
		// A member still uses the workspace: lists its keys, submits videos.
		expect((await call("GET", `/api/api-keys?workspaceId=${workspaceId}`, { headers: { cookie } })).status).toBe(
			200,
		);
	});

	it("the role is per workspace: owner of one, member of another", async () => {
		const user = await createUser({ workspaces: 1 });
		const other = await createWorkspace();
		await join(user, other.workspaceId, "member");
		const cookie = await signIn(user.email, user.password);
		expect(
			(
				await call("POST", "/api/api-keys", {
					headers: { cookie },
					body: { workspaceId: user.workspaceIds[0], name: "ok" },
				})
			).status,
		).toBe(201);
		expect(
			(
				await call("POST", "/api/api-keys", {
					headers: { cookie },
					body: { workspaceId: other.workspaceId, name: "no" },
				})
			).status,
		).toBe(403);
	});
});

describe("owners and admins manage it", () => {
	for (const role of ["owner", "admin"] as const) {
		it(`${role}: mints and revokes keys, sets the webhook, rotates its secret`, async () => {
			const { workspaceId, apiKeyId, apiKey, cookie } = await asRole(role);
			expect(
				(await call("POST", "/api/api-keys", { headers: { cookie }, body: { workspaceId, name: "ci" } }))
					.status,
			).toBe(201);
			expect((await call("DELETE", `/api/api-keys/${apiKeyId}`, { headers: { cookie } })).status).toBe(200);
			expect((await call("GET", "/api/workspaces", { key: apiKey })).status).toBe(401);
			const set = await call("PUT", `/api/workspaces/${workspaceId}/webhook`, {
				headers: { cookie },
				body: { url: `${WEBHOOK_BASE}${role}` },
			});
			expect(set.status).toBe(200);
			const rotated = await call("POST", `/api/workspaces/${workspaceId}/webhook/secret`, {
				headers: { cookie },
			});
			expect(rotated.status).toBe(200);
			expect(rotated.body.secret).toMatch(/^whsec_/);
			expect(rotated.body.secret).not.toBe(set.body.secret);
			const watermark = await call("PUT", `/api/workspaces/${workspaceId}/watermark`, {
				headers: { cookie },
				body: { type: "text", text: role },
			});
			expect(watermark.status).toBe(200);
			expect(watermark.body.text).toBe(role);
		});
	}
});

describe("the workspace webhook's address is the managers'", () => {
	it("a member reads the deliveries of a video without the workspace webhook's path (its secret token); owners and keys see it whole", async () => {
		const { workspaceId, apiKey, cookie } = await asRole("member");
		const hook = `${WEBHOOK_BASE}managers-only/T0KEN-${crypto.randomUUID()}`;
		expect(
			(await call("PUT", `/api/workspaces/${workspaceId}/webhook`, { key: apiKey, body: { url: hook } })).status,
		).toBe(200);
		const own = `${WEBHOOK_BASE}mine-${crypto.randomUUID()}`;
		const hostedUrl = fake().addSource(`https://videos.example.com/${crypto.randomUUID()}.mp4`, { duration: 60 });
		const viaWorkspace = await submitBodyAndProcess(apiKey, { hostedUrl, config: { skipClipping: true } });
		const viaOwn = await submitBodyAndProcess(apiKey, {
			hostedUrl: fake().addSource(`https://videos.example.com/${crypto.randomUUID()}.mp4`, { duration: 60 }),
			config: { skipClipping: true },
			webhookUrl: own,
		});
		const urls = async (videoId: string, auth: { key?: string; headers?: Record<string, string> }) =>
			(await call("GET", `/api/videos/${videoId}/webhooks`, auth)).body.deliveries.map(
				(d: { url: string }) => d.url,
			);
		expect(await urls(viaWorkspace, { key: apiKey })).toEqual([hook]);
		const seen = await urls(viaWorkspace, { headers: { cookie } });
		expect(seen).toEqual([`${new URL(hook).origin}/…`]);
		expect(JSON.stringify(seen)).not.toContain("T0KEN");
		// A submission's own webhook is whoever submitted it's: shown whole.
		expect(await urls(viaOwn, { headers: { cookie } })).toEqual([own]);
	});
});

describe("rotating the webhook secret", () => {
	it("the old secret stops at once: the next delivery verifies with the new one only", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const first = await call("PUT", `/api/workspaces/${workspaceId}/webhook`, {
			key: apiKey,
			body: { url: `${WEBHOOK_BASE}rotate` },
		});
		const rotated = await call("POST", `/api/workspaces/${workspaceId}/webhook/secret`, { key: apiKey });
		expect(rotated.body).toEqual({
			workspaceId,
			url: `${WEBHOOK_BASE}rotate`,
			secret: expect.stringMatching(/^whsec_/),
		});
		const hostedUrl = fake().addSource(`https://videos.example.com/w/${crypto.randomUUID()}`, { duration: 30 });
		await submitBodyAndProcess(apiKey, { hostedUrl, config: { skipClipping: true } });
		const hook = fake().webhooks[0]!;
		const signature = hook.headers.get("x-clipforge-signature")!;
		const t = Number(/t=(\d+)/.exec(signature)![1]);
		expect(signature).toBe(await signWebhook(rotated.body.secret, t, hook.body));
		expect(signature).not.toBe(await signWebhook(first.body.secret, t, hook.body));
		expect(signature.match(/v1=/g)).toHaveLength(1);
	});

	it("another workspace's secret cannot be rotated", async () => {
		const mine = await createWorkspace();
		const theirs = await createWorkspace();
		expect(
			(await call("POST", `/api/workspaces/${theirs.workspaceId}/webhook/secret`, { key: mine.apiKey })).status,
		).toBe(403);
	});
});
