import { afterEach, describe, expect, it, vi } from "vitest";
import { countedInOneWindow } from "../helpers/rate-window";

describe("a test's count inside one window of the local rate limiter", () => {
	afterEach(() => vi.restoreAllMocks());

	it("tries a failed count again when a window edge fell while it ran", async () => {
		let now = 59_000;
		vi.spyOn(Date, "now").mockImplementation(() => now);
		const attempt = vi.fn(async () => {
			now += 2_000; // the count takes 2 s; the first one crosses the minute
			if (attempt.mock.calls.length === 1) throw new Error("no 429: the count started again");
		});
		await countedInOneWindow(60, attempt);
		expect(attempt).toHaveBeenCalledTimes(2);
	});

	it("reports a failure inside one window at once", async () => {
		vi.spyOn(Date, "now").mockReturnValue(10_000);
		const attempt = vi.fn(async () => {
			throw new Error("no 429");
		});
		await expect(countedInOneWindow(60, attempt)).rejects.toThrow("no 429");
		expect(attempt).toHaveBeenCalledTimes(1);
	});
});
