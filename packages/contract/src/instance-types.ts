/**
 * Cloudflare Containers' instance types and what a render instance's disk holds
 * (https://developers.cloudflare.com/containers/platform/limits/). The disk is ephemeral and also
 * holds the image ("Image size: same as instance disk space"). A video's instance keeps its
 * downloaded source while the video is processed; yt-dlp writes a rendition's video and audio
 * separately and then merges them, so a download needs twice the source's size at its peak.
 */
export const CONTAINER_INSTANCE_TYPES = {
	lite: { vcpu: 1 / 16, memoryMiB: 256, diskBytes: 2e9 },
	basic: { vcpu: 1 / 4, memoryMiB: 1024, diskBytes: 4e9 },
	"standard-1": { vcpu: 1 / 2, memoryMiB: 4096, diskBytes: 8e9 },
	"standard-2": { vcpu: 1, memoryMiB: 6144, diskBytes: 12e9 },
	"standard-3": { vcpu: 2, memoryMiB: 8192, diskBytes: 16e9 },
	"standard-4": { vcpu: 4, memoryMiB: 12288, diskBytes: 20e9 },
} as const;
export type ContainerInstanceType = keyof typeof CONTAINER_INSTANCE_TYPES;

export const SOURCE_DISK = {
	/** A download's peak on disk, as a multiple of the source's size (separate streams, then the merged file). */
	factor: 2,
	/**
	 * Disk that is never a source's: the image (Node, ffmpeg, fonts with CJK, the tier's packages:
	 * about 1.5 GB), audio chunks, a clip render's files, split-screen backgrounds.
	 */
	reservedBytes: 2.5e9,
} as const;

/**
 * The largest source an instance with `diskBytes` of disk can download (0 when none).
 * @example largestSourceOnDisk(12e9) // 4750000000 (standard-2: a 4 GiB source fits)
 */
export function largestSourceOnDisk(diskBytes: number): number {
	return Math.max(0, Math.floor((diskBytes - SOURCE_DISK.reservedBytes) / SOURCE_DISK.factor));
}
