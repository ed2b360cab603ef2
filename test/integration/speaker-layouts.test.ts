/**
 * The `layout` config option on the Worker's side: validated with the rest of the config, stored,
 * returned, and passed to the render tier as the render request's `layout` (renderRequestFor).
 * What each layout draws is checked on real frames in containers/render/test/speaker-layouts.test.ts.
 */
import { describe, expect, it } from "vitest";
import { renderJobs, RenderClipRequest, type RenderClipSpec } from "@clipforge/contract";
import { LAYOUTS } from "@clipforge/domain";
import { balanceOf, createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://media.example.com/${name}-${crypto.randomUUID()}`;

function renderRequests(videoId: string): RenderClipSpec[] {
	return fake()
		.calls.filter(
			(c) => c.path === renderJobs.renderClip.path && (c.body as { videoId: string }).videoId === videoId,
		)
		.map((c) => RenderClipRequest.parse(c.body));
}

describe("layout in the config", () => {
	it("defaults to auto, accepts every layout, and refuses anything else with 400 and no charge", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		const source = fake().addSource(url("podcast.mp4"), { duration: 60 });
		const plain = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source, config: {} },
		});
		expect(plain.status).toBe(201);
		expect((await call("GET", `/api/videos/${plain.body.video.id}`, { key: apiKey })).body.config.layout).toBe(
			"auto",
		);
		for (const layout of LAYOUTS) {
			const created = await call("POST", "/api/videos/hosted", {
				key: apiKey,
				body: { hostedUrl: source, config: { layout } },
			});
			expect(created.status, layout).toBe(201);
		}
		const before = await balanceOf(workspaceId);
		for (const layout of ["Stacked", "split", "", null, 2]) {
			const refused = await call("POST", "/api/videos/hosted", {
				key: apiKey,
				body: { hostedUrl: source, config: { layout } },
			});
			expect(refused.status, String(layout)).toBe(400);
			expect(refused.body.error.details[0].path).toBe("config.layout");
		}
		expect(await balanceOf(workspaceId)).toBe(before);
	});
});

describe("what the workflow asks the render tier to draw", () => {
	it("passes the config's layout with smart crop as set, in every clip's render request", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const followed = await submitAndProcess(apiKey, fake().addSource(url("podcast.mp4"), { duration: 90 }), {
			layout: "follow-speaker",
		});
		const stacked = await submitAndProcess(apiKey, fake().addSource(url("podcast.mp4"), { duration: 90 }), {
			layout: "stacked",
			enableSmartCrop: true,
			aspectRatio: "1:1",
		});
		const defaults = await submitAndProcess(apiKey, fake().addSource(url("podcast.mp4"), { duration: 90 }), {});
		for (const [videoId, expected] of [
			[followed, { layout: "follow-speaker", smartCrop: false, aspectRatio: "9:16" }],
			[stacked, { layout: "stacked", smartCrop: true, aspectRatio: "1:1" }],
			[defaults, { layout: "auto", smartCrop: false, aspectRatio: "9:16" }],
		] as const) {
			const requests = renderRequests(videoId);
			expect(requests.length).toBeGreaterThan(0);
			for (const req of requests) expect(req).toMatchObject(expected);
		}
	});
});
