// The soak's --faults switch and what it reads back from the Worker's log.
import { describe, expect, it } from "vitest";
import { injectedFaults, injectFaultsVar, parseFaults } from "./dependency-faults.ts";

describe("the soak's dependency faults", () => {
	it("turns on the named ones, all of them with 'all', and refuses a name it does not know", () => {
		expect([...parseFaults("d1,drain")]).toEqual(["d1", "drain"]);
		expect([...parseFaults("all")]).toEqual(["d1", "r2", "ai", "disk", "drain"]);
		expect(parseFaults(undefined).size).toBe(0);
		expect(() => parseFaults("d1,dsik")).toThrow("--faults: unknown dsik (known: d1, r2, ai, disk, drain, all)");
	});

	it("gives the Worker its rates and the window's end only for D1 and R2", () => {
		expect(injectFaultsVar(parseFaults("all"), { d1: 0.02, r2: 0.03 }, 1000)).toBe("d1=0.02,r2=0.03,until=1000");
		expect(injectFaultsVar(parseFaults("ai,disk"), { d1: 0.02, r2: 0.03 }, 1000)).toBeNull();
	});

	it("counts the faults the Worker injected across its restarts (each isolate counts from 0)", () => {
		const line = (dependency: string, fault: string, injected: number, seen: number) =>
			`[wrangler:info] ${JSON.stringify({ event: "fault injected", dependency, fault, injected, seen })}`;
		const log = [
			line("d1", "Network connection lost.", 1, 40),
			line("r2", "put: We encountered an internal error.", 1, 12),
			line("d1", "D1 DB is overloaded.", 2, 90),
			"GET /api/videos 200",
			// The Worker restarted: its counts start again.
			line("d1", "Network connection lost.", 1, 30),
		].join("\n");
		const counted = injectedFaults(log);
		expect(counted.d1).toEqual({
			injected: 3,
			seen: 120,
			kinds: { "Network connection lost.": 2, "D1 DB is overloaded.": 1 },
		});
		expect(counted.r2).toMatchObject({ injected: 1, seen: 12, kinds: { "We encountered an internal error.": 1 } });
	});
});
