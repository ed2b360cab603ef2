/**
 * A source must fit on this instance's disk (@clipforge/contract instance-types.ts). What the disk
 * can never hold is refused as too large, with the limit named, before anything is fetched; a
 * download that would not fit next to other videos' files right now is refused as busy
 * (retryable: their files go when they finish), instead of failing mid-way with ENOSPC.
 */
import { statfs } from "node:fs/promises";
import { dirname } from "node:path";
import { largestSourceOnDisk, SOURCE_DISK, type SourceLimits } from "@clipforge/contract";
import { formatBytes } from "./media-limits.ts";
import { TierError } from "../runtime/tier-error.ts";

export interface Disk {
	totalBytes: number;
	freeBytes: number;
}

/** The work folder's file system (in the Container, the instance's disk), found from its nearest existing folder. */
export async function diskOf(dir: string): Promise<Disk> {
	for (let at = dir; ; at = dirname(at)) {
		try {
			const stats = await statfs(at);
			return { totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize };
		} catch (error) {
			if (dirname(at) === at) throw error;
		}
	}
}

/**
 * The limits with `maxBytes` lowered to what the disk can hold, and whether the disk lowered it.
 * @example sourceLimitsOnDisk({ maxPixels: 1, maxBytes: 8e9 }, { totalBytes: 12e9, freeBytes: 12e9 }) // { maxPixels: 1, maxBytes: 4.75e9, byDisk: true }
 */
export function sourceLimitsOnDisk(limits: SourceLimits, disk: Disk): SourceLimits & { byDisk: boolean } {
	const fits = largestSourceOnDisk(disk.totalBytes);
	return fits < limits.maxBytes ? { ...limits, maxBytes: fits, byDisk: true } : { ...limits, byDisk: false };
}

/** Refuses (busy, retryable) a download of `sourceBytes` the free space cannot take now. */
export function assertRoomFor(sourceBytes: number, disk: Disk): void {
	const needed = sourceBytes * SOURCE_DISK.factor;
	if (disk.freeBytes >= needed) return;
	throw new TierError(
		"busy",
		`This render instance's disk has ${formatBytes(disk.freeBytes)} free; downloading this ${formatBytes(sourceBytes)} video needs ${formatBytes(needed)}. It is tried again when other videos' files are cleared.`,
		true,
		503,
	);
}

/** The error of a tool that ran out of disk. */
export const ranOutOfDisk = (text: string): boolean => /No space left on device|ENOSPC|Disk quota exceeded/i.test(text);

export const diskFullError = (): TierError =>
	new TierError(
		"busy",
		"This render instance's disk filled up during the download; it is tried again when other videos' files are cleared.",
		true,
		503,
	);

/** "larger than the 4.4 GB this render instance's disk can hold" when the disk set the limit. */
export const limitWords = (limits: SourceLimits & { byDisk: boolean }): string =>
	limits.byDisk
		? `the ${formatBytes(limits.maxBytes)} this render instance's disk can hold (raise instance_type or lower max_source_bytes)`
		: `the ${formatBytes(limits.maxBytes)} limit`;
