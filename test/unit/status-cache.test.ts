/**
 * The status poll's shared read (routes/api/videos/status-cache.ts): a row is served for at most
 * its max age from when its read began, per caller key; a missing video and a failed read are
 * never kept; 0 reads every time.
 */
import { describe, expect, it } from "vitest";
import { MAX_ENTRIES, StatusCache, statusMaxAgeMs } from "../../src/worker/routes/api/videos/status-cache";

function counting<T>(values: (T | undefined)[]) {
	let reads = 0;
	return {
		read: async () => values[Math.min(reads++, values.length - 1)],
		get reads() {
			return reads;
		},
	};
}

describe("the status cache", () => {
	it("answers from one read for at most the max age after that read began", async () => {
		const cache = new StatusCache<string>();
		const source = counting(["queued", "transcribing"]);
		expect(await cache.get("vid_a ws_1", 2000, source.read, 10_000)).toBe("queued");
		expect(await cache.get("vid_a ws_1", 2000, source.read, 11_999)).toBe("queued");
		expect(await cache.get("vid_a ws_1", 2000, source.read, 12_000)).toBe("queued");
		expect(source.reads).toBe(1);
		expect(await cache.get("vid_a ws_1", 2000, source.read, 12_001)).toBe("transcribing");
		expect(source.reads).toBe(2);
	});

	it("reads a settled video each time, so a reprocess asked a moment ago is seen at once", async () => {
		const cache = new StatusCache<string>((status) => status !== "completed");
		const source = counting(["completed", "analyzing", "analyzing"]);
		expect(await cache.get("vid_a ws_1", 2000, source.read, 0)).toBe("completed");
		// The reprocess starts it again: the next poll, within the max age, reads and sees it.
		expect(await cache.get("vid_a ws_1", 2000, source.read, 1)).toBe("analyzing");
		expect(await cache.get("vid_a ws_1", 2000, source.read, 2)).toBe("analyzing");
		expect(source.reads).toBe(2);
	});

	it("keeps each caller key apart, and never keeps a missing video or a failure", async () => {
		const cache = new StatusCache<string>();
		const other = counting<string>([undefined, "found"]);
		expect(await cache.get("vid_a ws_2", 2000, other.read, 0)).toBeUndefined();
		expect(await cache.get("vid_a ws_2", 2000, other.read, 1)).toBe("found");
		const failing = async () => Promise.reject(new Error("D1 is down"));
		await expect(cache.get("vid_b ws_1", 2000, failing, 0)).rejects.toThrow("D1 is down");
		expect(await cache.get("vid_b ws_1", 2000, async () => "queued", 1)).toBe("queued");
	});

	it("reads every time at 0, and holds at most its bound of videos", async () => {
		const cache = new StatusCache<number>();
		const source = counting([1, 2, 3]);
		await cache.get("v", 0, source.read, 0);
		await cache.get("v", 0, source.read, 0);
		expect(source.reads).toBe(2);
		for (let i = 0; i < MAX_ENTRIES + 10; i++) await cache.get(`v${i}`, 2000, async () => i, 0);
		expect(cache.size).toBe(MAX_ENTRIES);
		expect(statusMaxAgeMs("2000")).toBe(2000);
		expect(statusMaxAgeMs(undefined)).toBe(0);
		expect(statusMaxAgeMs("nope")).toBe(0);
		expect(statusMaxAgeMs("60000")).toBe(10_000);
	});
});
