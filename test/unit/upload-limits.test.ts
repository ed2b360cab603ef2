import { describe, expect, it } from "vitest";
import { expectedPartBytes, planParts, UPLOAD_LIMITS, VIDEO_CONTENT_TYPE } from "../../src/worker/domain/upload-limits";

const MiB = 1024 ** 2;

describe("planParts", () => {
	it("uses the requested or default part size, and the last part takes the rest", () => {
		expect(planParts(40 * MiB)).toEqual({ partSize: 16 * MiB, partCount: 3 });
		expect(planParts(10 * MiB + 1, 5 * MiB)).toEqual({ partSize: 5 * MiB, partCount: 3 });
		expect(planParts(1)).toEqual({ partSize: 16 * MiB, partCount: 1 });
		expect(expectedPartBytes({ size: 10 * MiB + 1, partSize: 5 * MiB, partCount: 3 }, 2)).toBe(5 * MiB);
		expect(expectedPartBytes({ size: 10 * MiB + 1, partSize: 5 * MiB, partCount: 3 }, 3)).toBe(1);
	});

	it("raises the part size so a large file needs at most maxParts parts, and gives up past maxPartBytes", () => {
		const plan = planParts(30 * 1024 ** 3, 5 * MiB)!;
		expect(plan.partCount).toBeLessThanOrEqual(UPLOAD_LIMITS.maxParts);
		expect(plan.partSize % MiB).toBe(0);
		expect(planParts(UPLOAD_LIMITS.maxParts * UPLOAD_LIMITS.maxPartBytes)).not.toBeNull();
		expect(planParts(UPLOAD_LIMITS.maxParts * UPLOAD_LIMITS.maxPartBytes + MiB)).toBeNull();
	});

	it("knows a video's content types", () => {
		for (const type of [
			"video/mp4",
			"video/quicktime",
			"video/x-matroska",
			"video/webm",
			"application/octet-stream",
			"VIDEO/MP4",
		])
			expect(VIDEO_CONTENT_TYPE.test(type), type).toBe(true);
		for (const type of ["text/plain", "image/png", "video/", "video/mp4; x", "application/json"])
			expect(VIDEO_CONTENT_TYPE.test(type), type).toBe(false);
	});
});
