/** The container instances the Worker may ask for: a bounded set per purpose, within max_instances. */
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { RENDER_SLEEP_AFTER } from "../../src/worker/render-container";
import { allRenderInstances, renderInstance, renderPoolsOf } from "../../src/worker/services/render-instances";
import { settingsOf } from "../../src/worker/settings";
import { containerConfig, wranglerVars } from "../../scripts/wrangler-vars";

const productionVars = () => wranglerVars(wranglerToml);

describe("render instances", () => {
	it("the production pools add up to the container's max_instances", () => {
		const max = containerConfig(wranglerToml).maxInstances;
		const production = productionVars();
		expect(max).toBeGreaterThan(0);
		expect(Object.values(renderPoolsOf(production)).reduce((a, b) => a + b, 0)).toBe(max);
		expect(new Set(allRenderInstances(production)).size).toBe(max);
	});

	it("in production a video's clips, as many as render at once, each get an instance of their own", () => {
		const production = productionVars();
		const { renders } = settingsOf(production).fanOut;
		expect(renders).toBeGreaterThan(3);
		expect(renders).toBeLessThanOrEqual(renderPoolsOf(production).render);
		expect(
			new Set(Array.from({ length: renders }, (_, n) => renderInstance.render(production, "vid_x", n))).size,
		).toBe(renders);
	});

	it("ten thousand videos, workspaces and backgrounds still map onto the bounded set", () => {
		const env = {};
		const allowed = new Set(allRenderInstances(env));
		const seen = new Set<string>();
		for (let i = 0; i < 10_000; i++) {
			const id = `vid_${crypto.randomUUID()}`;
			for (const name of [
				renderInstance.video(env, id),
				renderInstance.render(env, id, i % 40),
				renderInstance.probe(`wsp_${i}`),
				renderInstance.import(`bg_${i}`),
			]) {
				expect(allowed.has(name), name).toBe(true);
				seen.add(name);
			}
		}
		expect(seen).toEqual(allowed);
		// One video's steps stay on one instance; its clips spread over the render pool.
		expect(renderInstance.video(env, "vid_x")).toBe(renderInstance.video(env, "vid_x"));
		expect(new Set(Array.from({ length: 6 }, (_, n) => renderInstance.render(env, "vid_x", n))).size).toBe(
			renderPoolsOf(env).render,
		);
	});

	it("an idle instance sleeps within two minutes", () => {
		const [, amount, unit] = /^(\d+)([smh])$/.exec(RENDER_SLEEP_AFTER)!;
		expect(Number(amount) * { s: 1, m: 60, h: 3600 }[unit as "s" | "m" | "h"]).toBeLessThanOrEqual(120);
	});
});
