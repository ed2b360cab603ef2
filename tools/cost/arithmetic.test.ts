/** bench:cost's arithmetic: prices, fits through measured runs, busy spans, tokens and stages. */
import { describe, expect, it } from "vitest";
import { fit, instanceBusySeconds, stageOf, tokenCost, usd } from "./arithmetic.ts";
import { MODELS, PRICES } from "./prices.ts";

describe("bench:cost's arithmetic", () => {
	it("prices a quantity per unit block", () => {
		expect(usd(2_500_000, { usd: 0.3 }, 1e6)).toBeCloseTo(0.75);
		// 1,000 vCPU-seconds of active container CPU at $0.00002 each.
		expect(usd(1000, PRICES.containerCpu, 1)).toBeCloseTo(0.02);
	});

	it("fits a fixed part and a per-minute part through the shortest and longest runs", () => {
		const runs = [
			{ minutes: 30, rows: 400 },
			{ minutes: 10, rows: 200 },
		];
		const rows = fit(runs, (r) => r.rows);
		expect(rows(10)).toBeCloseTo(200);
		expect(rows(60)).toBeCloseTo(700); // 100 fixed + 10 a minute
		expect(fit([{ minutes: 10, rows: 50 }], (r) => r.rows)(60)).toBeCloseTo(300); // one run: proportional
		expect(fit(runs, (r) => (r.minutes === 10 ? 500 : 100))(120)).toBe(0); // never negative
	});

	it("spans each instance from its first step to its last", () => {
		const busy = instanceBusySeconds([
			{ from: 0, to: 10, instance: "video-1" },
			{ from: 30, to: 45, instance: "video-1" },
			{ from: 20, to: 50, instance: "render-3" },
			{ from: 5, to: 6 },
		]);
		expect(Object.fromEntries(busy)).toEqual({ "video-1": 45, "render-3": 30 });
	});

	it("prices tokens in neurons as Workers AI lists them", () => {
		// A million input and a million output tokens of Llama 3.3 70B: $0.293 + $2.253 on the pricing page.
		const cost = tokenCost(MODELS.strong, 1e6, 1e6, PRICES.neurons.usd);
		expect(cost.inputNeurons).toBe(26668);
		expect(cost.usd).toBeCloseTo(0.293 + 2.253, 2);
		// Whisper large-v3-turbo: $0.0005 an audio minute.
		expect(((MODELS.whisper.neuronsPerAudioMinute * PRICES.neurons.usd) / 1000).toFixed(4)).toBe("0.0005");
	});

	it("puts each metered step in its stage", () => {
		expect(stageOf("transcribe chunk 3")).toBe("transcription");
		expect(stageOf("rank moments")).toBe("ranking");
		expect(stageOf("render clip 2")).toBe("renders");
		expect(stageOf("download source")).toBe("source");
		expect(stageOf("api")).toBe("api");
		expect(stageOf("clean up the video's files on the render tier")).toBe("renders");
		expect(stageOf("something new")).toBe("other");
	});
});
