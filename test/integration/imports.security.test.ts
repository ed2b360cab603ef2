/**
 * One tenant holding the shared import instance (issue 45, N3): backgrounds and watermarks are
 * fetched from users' URLs on one `import` instance all tenants share. An import needs an active
 * plan and minutes, a workspace runs at most WORKSPACE_JOB_LIMITS.importMedia of them at once (the
 * tier refuses its excess with 429, never the others'), and nothing else waits behind them: caption
 * previews and built-in backgrounds are drawn on the render pool.
 */
import { describe, expect, it } from "vitest";
import { renderJobs, WORKSPACE_JOB_LIMITS } from "@clipforge/contract";
import { createWorkspace } from "../helpers/accounts";
import { call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const media = (name: string) => {
	const url = `https://media.example.com/${name}-${crypto.randomUUID()}`;
	fake().media.add(url);
	return url;
};
const importCalls = () => fake().calls.filter((c) => c.path === renderJobs.importMedia.path);

describe("imports of users' media", () => {
	it("need an active plan and minutes: 403 no_active_plan, 402 insufficient_minutes, nothing fetched", async () => {
		const inactive = await createWorkspace({ planActive: false });
		const broke = await createWorkspace({ minutes: 0 });
		const before = importCalls().length;
		const noPlan = await call("POST", "/api/backgrounds", { key: inactive.apiKey, body: { url: media("bg") } });
		expect(noPlan.status).toBe(403);
		expect(noPlan.body.error.code).toBe("no_active_plan");
		const noMinutes = await call("PUT", `/api/workspaces/${broke.workspaceId}/watermark`, {
			key: broke.apiKey,
			body: { type: "image", imageUrl: media("logo.png") },
		});
		expect(noMinutes.status).toBe(402);
		expect(noMinutes.body.error.code).toBe("insufficient_minutes");
		expect(importCalls().length).toBe(before);
	});

	it("a workspace runs at most its share at once: its excess is 429 with Retry-After, another workspace's import goes through", async () => {
		const greedy = await createWorkspace();
		const other = await createWorkspace();
		fake().jobDelays.set(renderJobs.importMedia.path, 800);
		const burst = Array.from({ length: 5 }, () =>
			call("POST", "/api/backgrounds", { key: greedy.apiKey, body: { url: media("slow") } }),
		);
		// The burst reaches the tier first; then the other tenant's one import.
		await new Promise((r) => setTimeout(r, 200));
		const theirs = await call("POST", "/api/backgrounds", { key: other.apiKey, body: { url: media("bg") } });
		const answers = await Promise.all(burst);
		expect(theirs.status).toBe(201);
		const limit = WORKSPACE_JOB_LIMITS.importMedia;
		expect(answers.filter((a) => a.status === 201)).toHaveLength(limit);
		const refused = answers.filter((a) => a.status === 429);
		expect(refused).toHaveLength(5 - limit);
		for (const r of refused) {
			expect(r.body.error.code).toBe("rate_limited");
			expect(Number(r.response.headers.get("retry-after"))).toBeGreaterThan(0);
		}
		// Each import told the tier whose it is (the tier counts per workspace).
		expect(importCalls().every((c) => typeof (c.body as { workspaceId?: string }).workspaceId === "string")).toBe(
			true,
		);
	});

	it("caption previews and built-in backgrounds are drawn on the render pool, off the instance that fetches users' URLs", async () => {
		const { apiKey } = await createWorkspace();
		const template = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { name: `Brand ${crypto.randomUUID()}`, presetId: "karaoke", textColor: "#12AB34" },
		});
		expect(template.status).toBe(201);
		await call("GET", "/api/caption-templates", { key: apiKey });
		const previews = fake().calls.filter((c) => c.path === renderJobs.captionPreview.path);
		expect(previews.length).toBeGreaterThan(0);
		expect(previews.every((c) => c.instance?.startsWith("render-"))).toBe(true);

		await using introspector = await introspectVideoRuns();
		const hostedUrl = fake().addSource(`https://videos.example.com/${crypto.randomUUID()}.mp4`, { duration: 60 });
		const config = {
			clipDurationMin: 10,
			clipDurationMax: 20,
			enableSplitScreen: true,
			splitScreenBgCategoryId: "retro",
		};
		expect((await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl, config } })).status).toBe(
			201,
		);
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		const drawn = fake().calls.filter((c) => c.path === renderJobs.makeBackground.path);
		expect(drawn.length).toBeGreaterThan(0);
		expect(drawn.every((c) => c.instance?.startsWith("render-"))).toBe(true);
	});
});
