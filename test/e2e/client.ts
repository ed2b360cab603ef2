import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { serveDirectory, type FileServer } from "../../scripts/serve-files.ts";

/** The e2e stack's address and bootstrap key (provided by global-setup.ts). */
export const stackUrl = () => inject("clipforgeUrl");

/** Calls the stack like a client: Bearer key, JSON in and out. */
export async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
	const response = await fetch(stackUrl() + path, {
		method,
		headers: { authorization: `Bearer ${inject("clipforgeApiKey")}`, "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as any };
}

const FINISHED = ["completed", "failed"];

/**
 * Polls a video's status until it reaches one of `until` (completed or failed by default) and
 * returns that status body; throws after `timeoutMs`. `onStatus` sees every answer.
 */
export async function waitForStatus(
	videoId: string,
	options: { until?: string[]; intervalMs?: number; timeoutMs?: number; onStatus?: (body: any) => void } = {},
): Promise<any> {
	const { until = FINISHED, intervalMs = 500, timeoutMs = 5 * 60_000 } = options;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { body } = await api("GET", `/api/videos/${videoId}/status`);
		options.onStatus?.(body);
		if (until.includes(body.video.status) || FINISHED.includes(body.video.status)) return body;
		if (Date.now() > deadline)
			throw new Error(`video ${videoId} was still ${body.video.status} after ${timeoutMs} ms`);
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}

/**
 * A temporary folder of media built once for the file and served over loopback with Range support
 * (as video hosts do); removed afterwards.
 * @example const media = useServedMedia("talk-", (dir) => cachedTalkVideo({ out: join(dir, "t.mp4"), seconds: 20 }));
 */
export function useServedMedia(prefix: string, build: (dir: string) => void): { dir: () => string; url: () => string } {
	let dir = "";
	let server: FileServer | undefined;
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), prefix));
		build(dir);
		server = await serveDirectory(dir);
	});
	afterAll(async () => {
		await server?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});
	return { dir: () => dir, url: () => server!.url };
}
