/**
 * Renders clips through the tier's own job function (render/clip.ts) from media a test generates,
 * served on loopback, with outputs PUT to a local sink: the same code path as the HTTP job without
 * the HTTP layer. Used by the look and jump-cut frame tests.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RenderClipRequest, type RenderClipResult } from "@clipforge/contract";
import { renderClip } from "../src/render/clip.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";

export const ffmpeg = (...args: string[]) =>
	execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);

export interface ClipHarness {
	media: string;
	render(
		source: string,
		request: Partial<RenderClipRequest> & { start?: number; end: number },
	): Promise<{ video: string; result: RenderClipResult }>;
	close(): Promise<void>;
}

export async function clipHarness(name: string): Promise<ClipHarness> {
	const media = mkdtempSync(join(tmpdir(), `${name}-media-`));
	const sinkDir = mkdtempSync(join(tmpdir(), `${name}-sink-`));
	const files: FileServer = await serveDirectory(media);
	const sink: FileServer = await serveDirectory(sinkDir, { acceptPut: true });
	let counter = 0;
	return {
		media,
		async render(source, request) {
			const videoId = `${name}${Date.now()}${counter++}`;
			const spec = RenderClipRequest.parse({
				videoId,
				clipId: "clip",
				sourceUrl: `${files.url}/${source}`,
				start: 0,
				aspectRatio: "9:16",
				watermark: null,
				videoPutUrl: `${sink.url}/${videoId}/clip.mp4`,
				thumbnailPutUrl: `${sink.url}/${videoId}/clip.jpg`,
				...request,
			});
			const result = await renderClip(spec, () => {}, AbortSignal.timeout(120_000));
			return { video: join(sinkDir, videoId, "clip.mp4"), result };
		},
		async close() {
			await files.close();
			await sink.close();
			for (const dir of [media, sinkDir]) rmSync(dir, { recursive: true, force: true });
		},
	};
}
