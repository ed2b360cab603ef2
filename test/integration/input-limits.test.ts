/**
 * Bounds on inputs, on the Worker's side: background imports within the plan's count (409
 * quota_exceeded beyond it, never above it even when imports race), and the limits the render tier
 * is given (the plan's, else the operator's): at the probe, at the download together with the
 * duration that was charged, for imported media, and the charged time frame for loudness.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	DEFAULT_BACKGROUND_LIMITS,
	DEFAULT_IMAGE_LIMITS,
	DEFAULT_SOURCE_LIMITS,
	renderJobs,
} from "@clipforge/contract";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://media.example.com/${name}-${crypto.randomUUID()}`;

async function planWith(workspaceId: string, columns: Record<string, number>): Promise<void> {
	const sets = Object.keys(columns)
		.map((c, i) => `${c} = ?${i + 2}`)
		.join(", ");
	await env.DB.prepare(`UPDATE plans SET ${sets} WHERE workspace_id = ?1`)
		.bind(workspaceId, ...Object.values(columns))
		.run();
}

const importCalls = () => fake().calls.filter((c) => c.path === renderJobs.importMedia.path);
const backgroundObjects = async (workspaceId: string) =>
	(await env.MEDIA.list({ prefix: `backgrounds/${workspaceId}/` })).objects.length;

describe("background imports per workspace", () => {
	it("stop at the plan's count with 409 quota_exceeded, before the tier does any work; deleting one makes room", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		await planWith(workspaceId, { max_backgrounds: 2 });
		const ids: string[] = [];
		for (let n = 0; n < 2; n++) {
			const source = fake().addSource(url("bg"), { duration: 20 });
			fake().media.add(source);
			const created = await call("POST", "/api/backgrounds", { key: apiKey, body: { url: source } });
			expect(created.status).toBe(201);
			ids.push(created.body.id);
		}
		const third = url("bg");
		fake().media.add(third);
		const before = importCalls().length;
		const refused = await call("POST", "/api/backgrounds", { key: apiKey, body: { url: third } });
		expect(refused.status).toBe(409);
		expect(refused.body.error).toMatchObject({ code: "quota_exceeded", details: { limit: 2, used: 2 } });
		expect(refused.body.error.message).toContain("2 of the 2 backgrounds");
		expect(importCalls().length).toBe(before);

		expect((await call("DELETE", `/api/backgrounds/${ids[0]}`, { key: apiKey })).status).toBe(204);
		expect((await call("POST", "/api/backgrounds", { key: apiKey, body: { url: third } })).status).toBe(201);
	});

	it("racing imports never pass the limit, and the refused ones leave nothing in R2", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		await planWith(workspaceId, { max_backgrounds: 1 });
		const sources = Array.from({ length: 4 }, () => url("race"));
		for (const s of sources) fake().media.add(s);
		const answers = await Promise.all(
			sources.map((s) => call("POST", "/api/backgrounds", { key: apiKey, body: { url: s } })),
		);
		expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
		expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === "quota_exceeded")).toBe(true);
		const listed = await call("GET", "/api/backgrounds", { key: apiKey });
		expect(listed.body.backgrounds.filter((b: { builtIn: boolean }) => !b.builtIn)).toHaveLength(1);
		expect(await backgroundObjects(workspaceId)).toBe(1);
	});

	it("are imported under the background limits; watermark images under the image limits", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const bg = url("bg");
		const logo = url("logo.png");
		fake().media.add(bg);
		fake().media.add(logo);
		expect((await call("POST", "/api/backgrounds", { key: apiKey, body: { url: bg } })).status).toBe(201);
		expect(
			(
				await call("PUT", `/api/workspaces/${workspaceId}/watermark`, {
					key: apiKey,
					body: { type: "image", imageUrl: logo },
				})
			).status,
		).toBe(200);
		const [background, watermark] = importCalls()
			.slice(-2)
			.map((c) => c.body as { kind: string; limits: unknown });
		expect(background).toMatchObject({ kind: "background", limits: DEFAULT_BACKGROUND_LIMITS });
		expect(watermark).toMatchObject({ kind: "watermark", limits: DEFAULT_IMAGE_LIMITS });
	});
});

describe("sources", () => {
	it("are probed and downloaded under the plan's limits, the download held to the probed duration; loudness over the time frame", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		await planWith(workspaceId, { max_source_pixels: 1280 * 720 });
		const source = fake().addSource(url("talk"), { duration: 90 });
		const videoId = await submitAndProcess(apiKey, source, {
			timeframeStart: 10,
			timeframeEnd: 70,
			clipDurationMin: 10,
			clipDurationMax: 30,
		});
		const body = (path: string) =>
			fake().calls.find(
				(c) =>
					c.path === path &&
					((c.body as { videoId?: string; url?: string }).videoId === videoId ||
						(c.body as { url?: string }).url === source),
			)?.body;
		const limits = { maxPixels: 1280 * 720, maxBytes: DEFAULT_SOURCE_LIMITS.maxBytes };
		expect(body(renderJobs.probe.path)).toMatchObject({ url: source, limits });
		expect(body(renderJobs.download.path)).toMatchObject({ videoId, limits, expectedDuration: 90 });
		expect(body(renderJobs.uploadSource.path)).toMatchObject({ videoId, limits, expectedDuration: 90 });
		expect(body(renderJobs.signals.path)).toMatchObject({ videoId, duration: 90, start: 10, end: 70 });
	});

	it("without plan limits get the operator's", async () => {
		const { apiKey } = await createWorkspace();
		const source = fake().addSource(url("talk"), { duration: 30 });
		const submitted = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source } });
		expect(submitted.status).toBe(201);
		const probe = fake().calls.find(
			(c) => c.path === renderJobs.probe.path && (c.body as { url: string }).url === source,
		);
		expect(probe?.body).toMatchObject({ limits: DEFAULT_SOURCE_LIMITS });
	});
});
