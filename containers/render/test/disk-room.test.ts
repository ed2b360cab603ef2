/**
 * A render instance's disk against the largest source the settings allow: the configured
 * instance type (wrangler.toml) holds a default-limit source with its peak (twice its size) and
 * everything else on the disk; a plan allowed more than the disk holds is refused as too large,
 * naming the disk, and a download that would not fit now is refused as busy (retryable).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
	CONTAINER_INSTANCE_TYPES,
	DEFAULT_SOURCE_LIMITS,
	largestSourceOnDisk,
	type ContainerInstanceType,
} from "@clipforge/contract";
import { describe, expect, it } from "vitest";
import { assertRoomFor, diskOf, limitWords, ranOutOfDisk, sourceLimitsOnDisk } from "../src/source/disk-room.ts";

const wrangler = readFileSync(join(import.meta.dirname, "../../../wrangler.toml"), "utf8");
const instanceType = /\[\[containers\]\][^[]*?instance_type\s*=\s*"([^"]+)"/.exec(
	wrangler,
)?.[1] as ContainerInstanceType;

describe("a render instance's disk", () => {
	it("the configured instance type holds the largest source the default limits allow, at its download peak", () => {
		expect(Object.keys(CONTAINER_INSTANCE_TYPES)).toContain(instanceType);
		const disk = CONTAINER_INSTANCE_TYPES[instanceType].diskBytes;
		const configured = Number(
			/^MAX_SOURCE_BYTES\s*=\s*"(\d+)"/m.exec(wrangler)?.[1] ?? DEFAULT_SOURCE_LIMITS.maxBytes,
		);
		expect(largestSourceOnDisk(disk)).toBeGreaterThanOrEqual(configured);
		// standard-1 would not: its 8 GB hold sources up to 2.75 GB.
		expect(largestSourceOnDisk(CONTAINER_INSTANCE_TYPES["standard-1"].diskBytes)).toBeLessThan(
			DEFAULT_SOURCE_LIMITS.maxBytes,
		);
	});

	it("lowers a plan's size limit to what the disk holds, and says so in the refusal", () => {
		const disk = { totalBytes: CONTAINER_INSTANCE_TYPES["standard-2"].diskBytes, freeBytes: 10e9 };
		const generous = sourceLimitsOnDisk({ maxPixels: 1, maxBytes: 8 * 1024 ** 3 }, disk);
		expect(generous).toEqual({ maxPixels: 1, maxBytes: 4_750_000_000, byDisk: true });
		expect(limitWords(generous)).toBe(
			"the 4.4 GB this render instance's disk can hold (raise instance_type or lower max_source_bytes)",
		);
		const modest = sourceLimitsOnDisk({ maxPixels: 1, maxBytes: 1024 ** 3 }, disk);
		expect(modest.byDisk).toBe(false);
		expect(limitWords(modest)).toBe("the 1.0 GB limit");
	});

	it("refuses as busy (retryable) a download that does not fit in what is free now", () => {
		expect(() => assertRoomFor(3e9, { totalBytes: 12e9, freeBytes: 6e9 })).not.toThrow();
		try {
			assertRoomFor(3e9, { totalBytes: 12e9, freeBytes: 5e9 });
			expect.unreachable();
		} catch (error) {
			expect(error).toMatchObject({ code: "busy", retryable: true });
			expect((error as Error).message).toMatch(
				/disk has 4\.7 GB free; downloading this 2\.8 GB video needs 5\.6 GB/,
			);
		}
		expect(ranOutOfDisk("ERROR: unable to write data: [Errno 28] No space left on device")).toBe(true);
		expect(ranOutOfDisk("HTTP Error 403: Forbidden")).toBe(false);
	});

	it("reads the work folder's disk, even before the folder exists", async () => {
		const disk = await diskOf(join(import.meta.dirname, "no", "such", "folder"));
		expect(disk.totalBytes).toBeGreaterThan(0);
		expect(disk.freeBytes).toBeLessThanOrEqual(disk.totalBytes);
	});
});

describe("a job whose disk fills up under it", () => {
	it("fails busy (retryable) with a sentence that says the disk is full, whatever wrote", async () => {
		const { toTierError } = await import("../src/runtime/tier-error.ts");
		const { ProcessError } = await import("../src/runtime/run-process.ts");
		const node = Object.assign(new Error("ENOSPC: no space left on device, mkdtemp '/work/asr-x1'"), {
			code: "ENOSPC",
		});
		const tool = new ProcessError(
			"ffmpeg exited with code 1",
			"exit",
			1,
			"[out#0/mp4] Error writing trailer: No space left on device",
		);
		for (const error of [node, tool]) {
			const tierError = toTierError(error);
			expect(tierError).toMatchObject({ code: "busy", retryable: true, status: 503 });
			expect(tierError.message).toMatch(
				/^This render instance's disk is full \(no space left while .+\); the job is tried again/,
			);
		}
	});
});
