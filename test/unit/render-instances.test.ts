/** The container instances the Worker may ask for: a bounded set per purpose, within max_instances. */
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { RENDER_SLEEP_AFTER } from "../../src/worker/render-container";
import { allRenderInstances, RENDER_POOLS, renderInstance } from "../../src/worker/services/render-instances";

describe("render instances", () => {
	it("the pools add up to the container's max_instances", () => {
		const max = Number(/\[\[containers\]\][^[]*?max_instances\s*=\s*(\d+)/.exec(wranglerToml)?.[1]);
		expect(max).toBeGreaterThan(0);
		expect(Object.values(RENDER_POOLS).reduce((a, b) => a + b, 0)).toBe(max);
		expect(new Set(allRenderInstances()).size).toBe(max);
	});

	it("ten thousand videos, workspaces and backgrounds still map onto the bounded set", () => {
		const allowed = new Set(allRenderInstances());
		const seen = new Set<string>();
		for (let i = 0; i < 10_000; i++) {
			const id = `vid_${crypto.randomUUID()}`;
			for (const name of [renderInstance.video(id), renderInstance.render(id, i % 40), renderInstance.probe(`wsp_${i}`), renderInstance.import(`bg_${i}`)]) {
				expect(allowed.has(name), name).toBe(true);
				seen.add(name);
			}
		}
		expect(seen).toEqual(allowed);
		// One video's steps stay on one instance; its clips spread over the render pool.
		expect(renderInstance.video("vid_x")).toBe(renderInstance.video("vid_x"));
		expect(new Set(Array.from({ length: 6 }, (_, n) => renderInstance.render("vid_x", n))).size).toBe(RENDER_POOLS.render);
	});

	it("an idle instance sleeps within two minutes", () => {
		const [, amount, unit] = /^(\d+)([smh])$/.exec(RENDER_SLEEP_AFTER)!;
		expect(Number(amount) * { s: 1, m: 60, h: 3600 }[unit as "s" | "m" | "h"]).toBeLessThanOrEqual(120);
	});
});
