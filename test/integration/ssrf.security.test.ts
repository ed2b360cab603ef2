/**
 * SSRF through the Worker under the production source policy (ALLOW_PRIVATE_SOURCES=false, as
 * deployed; the rest of the suite runs the local policy): every spelling of a private address the
 * issue found fetched is refused at submission, as a webhook URL and as media to import, before
 * anything is probed or charged; and webhook deliveries resolve the receiver's name at delivery time.
 */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, submitBodyAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });

let saved: string;
beforeAll(() => {
	saved = env.ALLOW_PRIVATE_SOURCES;
	env.ALLOW_PRIVATE_SOURCES = "false";
});
afterAll(() => {
	env.ALLOW_PRIVATE_SOURCES = saved;
});

/** Loopback, metadata and private addresses as an attacker would write them (new URL() normalises each). */
const HOSTILE = [
	"http://[::ffff:127.0.0.1]:8080/v.mp4",
	"http://[::ffff:7f00:1]/v.mp4",
	"http://[::127.0.0.1]/v.mp4",
	"http://[::ffff:a9fe:a9fe]/latest/meta-data/",
	"http://[::ffff:169.254.169.254]/latest/meta-data/",
	"http://2130706433/v.mp4",
	"http://0x7f.1/v.mp4",
	"http://017700000001/v.mp4",
	"http://0x7f000001:8080/v.mp4",
	"http://127.1/v.mp4",
	"http://0/v.mp4",
	"http://[::]/v.mp4",
	"http://[64:ff9b::7f00:1]/v.mp4",
	"http://[64:ff9b:1::a9fe:a9fe]/v.mp4",
	"http://[2002:7f00:1::]/v.mp4",
	"http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/v.mp4",
	"http://[::ffff:0:7f00:1]/v.mp4",
	"http://[fd00::1]/v.mp4",
	"http://[fe80::1]/v.mp4",
	"http://100.64.0.1/v.mp4",
	"http://198.18.0.1/v.mp4",
	"http://192.0.0.8/v.mp4",
	"https://metadata.google.internal/computeMetadata/v1/",
];

const publicSource = () => fake().addSource(`https://videos.example.com/s/${crypto.randomUUID()}`, { duration: 60 });

describe("POST /api/videos/hosted refuses private addresses in every spelling", () => {
	for (const hostedUrl of HOSTILE) {
		it(`${hostedUrl} → 400 invalid_url, nothing probed or charged`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
			const result = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl, config: {} } });
			expect(result.status).toBe(400);
			expect(result.body.error.code).toBe("invalid_url");
			expect(fake().calls.filter((c) => c.path === renderJobs.probe.path)).toHaveLength(0);
			expect(await balanceOf(workspaceId)).toBe(30);
			expect(await ledgerSum(workspaceId)).toBe(30);
		});
	}

	it("still accepts a public source", async () => {
		const { apiKey } = await createWorkspace({ minutes: 30 });
		expect(
			(await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: publicSource() } })).status,
		).toBe(201);
	});
});

describe("webhook URLs and media imports refuse them too", () => {
	for (const url of HOSTILE) {
		it(`${url} as a submission's webhookUrl, the workspace's webhook, a background or a watermark image → 400 invalid_url`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
			const submitted = await call("POST", "/api/videos/hosted", {
				key: apiKey,
				body: { hostedUrl: publicSource(), webhookUrl: url },
			});
			expect([submitted.status, submitted.body.error?.code]).toEqual([400, "invalid_url"]);
			const hook = await call("PUT", `/api/workspaces/${workspaceId}/webhook`, { key: apiKey, body: { url } });
			expect([hook.status, hook.body.error?.code]).toEqual([400, "invalid_url"]);
			const background = await call("POST", "/api/backgrounds", { key: apiKey, body: { url } });
			expect([background.status, background.body.error?.code]).toEqual([400, "invalid_url"]);
			const watermark = await call("PUT", `/api/workspaces/${workspaceId}/watermark`, {
				key: apiKey,
				body: { type: "image", imageUrl: url },
			});
			expect([watermark.status, watermark.body.error?.code]).toEqual([400, "invalid_url"]);
			expect(
				fake().calls.filter((c) => c.path === renderJobs.probe.path || c.path === renderJobs.importMedia.path),
			).toHaveLength(0);
			expect(await balanceOf(workspaceId)).toBe(30);
		});
	}
});

describe("webhook deliveries resolve the receiver's host at delivery time", () => {
	const deliveriesOf = async (apiKey: string, videoId: string) =>
		(await call("GET", `/api/videos/${videoId}/webhooks`, { key: apiKey })).body.deliveries as {
			attempt: number;
			statusCode: number | null;
			error: string | null;
		}[];

	for (const [name, answer] of [
		["rebound.example.com", "127.0.0.1"],
		["mapped.example.com", "::ffff:7f00:1"],
		["metadata.example.com", "::ffff:a9fe:a9fe"],
	] as const) {
		it(`a saved name that now resolves to ${answer}: every attempt recorded as refused, the receiver gets nothing`, async () => {
			const { apiKey } = await createWorkspace();
			fake().dns.set(name, [answer]);
			const webhookUrl = `https://${name}/hook`;
			const videoId = await submitBodyAndProcess(apiKey, {
				hostedUrl: publicSource(),
				webhookUrl,
				config: { skipClipping: true },
			});
			const deliveries = await deliveriesOf(apiKey, videoId);
			expect(deliveries.length).toBe(10); // the step's retries, each checked again
			for (const delivery of deliveries) {
				expect(delivery.statusCode).toBeNull();
				expect(delivery.error).toBe(`not sent: ${name} resolves to ${answer}, which is not a public address`);
			}
			expect(fake().webhooks).toHaveLength(0);
			expect(fake().dnsQueries).toContain(`${name} A`);
			expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe(
				"completed",
			);
		});
	}

	it("a name with one private address among public ones is refused; a name that does not resolve is not sent to", async () => {
		const { apiKey } = await createWorkspace();
		fake().dns.set("mixed.example.com", ["93.184.216.34", "10.0.0.7"]);
		const mixed = await submitBodyAndProcess(apiKey, {
			hostedUrl: publicSource(),
			webhookUrl: "https://mixed.example.com/hook",
			config: { skipClipping: true },
		});
		expect((await deliveriesOf(apiKey, mixed))[0]!.error).toBe(
			"not sent: mixed.example.com resolves to 10.0.0.7, which is not a public address",
		);
		const missing = await submitBodyAndProcess(apiKey, {
			hostedUrl: publicSource(),
			webhookUrl: "https://nowhere.example.com/hook",
			config: { skipClipping: true },
		});
		expect((await deliveriesOf(apiKey, missing))[0]!.error).toBe(
			"not sent: nowhere.example.com did not resolve to any address",
		);
		expect(fake().webhooks).toHaveLength(0);
	});

	it("a receiver whose name resolves to public addresses gets the event", async () => {
		const { apiKey } = await createWorkspace();
		fake().dns.set("hooks.example.com", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]);
		const videoId = await submitBodyAndProcess(apiKey, {
			hostedUrl: publicSource(),
			webhookUrl: "https://hooks.example.com/ok",
			config: { skipClipping: true },
		});
		expect(fake().webhooks.map((w) => w.url)).toEqual(["https://hooks.example.com/ok"]);
		expect(await deliveriesOf(apiKey, videoId)).toEqual([
			expect.objectContaining({ attempt: 1, statusCode: 200, error: null }),
		]);
		expect(fake().dnsQueries).toEqual(["hooks.example.com A", "hooks.example.com AAAA"]);
	});
});
