/**
 * The busy-day simulation (bench:plan --load): arrivals follow the documented curve, a video alone
 * waits for nothing, and a limit set too low is the one reported binding, with the waits it causes.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { containerConfig, wranglerVars } from "../../scripts/wrangler-vars.ts";
import { DEFAULT_COSTS, PLATFORM } from "./costs.ts";
import { arrivals, DIURNAL, simulateDay, type LoadInput } from "./load.ts";

const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const instanceType = containerConfig(toml).instanceType;
const day = (videosPerDay: number, overrides: Partial<LoadInput> = {}): LoadInput => ({
	videosPerDay,
	vars: wranglerVars(toml),
	instanceType,
	vcpus: PLATFORM.vcpus[instanceType as keyof typeof PLATFORM.vcpus] ?? 4,
	costs: DEFAULT_COSTS,
	platform: PLATFORM as unknown as LoadInput["platform"],
	video: { sourceMegabits: 4, clipSeconds: [90, 75, 60, 60, 45, 45, 30, 30, 20, 15], clipMegabits: 5 },
	d1: { queriesPerVideo: 150, queriesPerMinute: 3, queryMs: 1 },
	llm: { rankCallsPerHour: 4.5, chapterCallsPerHour: 4.7, proShare: 0.3 },
	sleepAfterSeconds: 120,
	...overrides,
});

describe("a busy day", () => {
	it("draws arrivals along the diurnal curve", () => {
		let a = 1;
		const rand = () => ((a = (a * 48271) % 2147483647) - 1) / 2147483646;
		const times = arrivals(20_000, rand);
		expect(times.length).toBeGreaterThan(19_000);
		expect(times.length).toBeLessThan(21_000);
		const inHour = (h: number) => times.filter((t) => Math.floor(t / 3600) === h).length;
		// The evening peak (16:00, weight 2.2) against the night (03:00, weight 0.2).
		expect(inHour(16) / inHour(3)).toBeGreaterThan(5); // the weights say 11
		expect(DIURNAL.reduce((s, w) => s + w, 0)).toBeCloseTo(24);
	});

	it("lets a quiet day's videos through with little waiting, and reports the binding limit when one is too low", () => {
		const quiet = simulateDay(day(200));
		expect(quiet.unfinished).toBe(0);
		expect(quiet.all.waitSeconds.p50).toBeLessThan(30);

		// Ten Whisper requests a minute for the account: every 30-minute video's 15 chunks queue.
		const starved = simulateDay(day(200, { limits: { whisperPerMinute: 10 } }));
		expect(starved.binding[0]!.limit).toBe("Workers AI Whisper requests a minute");
		expect(starved.binding[0]!.used).toBeGreaterThan(0.9);
		expect(starved.thirtyMinute.waitSeconds.p95!).toBeGreaterThan(quiet.thirtyMinute.waitSeconds.p95! + 60);
	});
});
