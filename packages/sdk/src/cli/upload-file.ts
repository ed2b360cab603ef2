/**
 * `clipforge submit ./file`: the file uploaded in parts with a progress bar, resuming the upload an
 * earlier, interrupted run of the same file started (remembered in CLIPFORGE_STATE_DIR, default
 * ~/.clipforge), then submitted.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import cliProgress from "cli-progress";
import { ClipforgeError } from "../errors.ts";
import type { SubmitOptions, UploadProgress, VideoConfig } from "../node-client.ts";
import type { Cli } from "./context.ts";
import { untilInterrupted } from "./interrupt.ts";

/** A path that exists and is a file (a URL never is: `https://…` is not a file name here). */
export function isLocalFile(source: string): boolean {
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return false;
	try {
		return statSync(source).isFile();
	} catch {
		return false;
	}
}

export async function submitFile(
	cli: Cli,
	path: string,
	config: VideoConfig,
	options: SubmitOptions,
	uploadId?: string,
) {
	const memo = uploadMemo(path, cli.url());
	let resume = uploadId ?? memo.read();
	let current = resume ?? "";
	const progress = uploadProgress(cli);
	const upload = await untilInterrupted(
		async (signal) => {
			const onProgress = (p: UploadProgress) => {
				current = p.uploadId;
				memo.write(p.uploadId);
				progress.show(p);
			};
			try {
				return await cli.client().uploadFile(path, { uploadId: resume, onProgress, signal });
			} catch (error) {
				// An upload that expired (or was made into a video) cannot be resumed: start afresh once.
				if (
					!resume ||
					!(error instanceof ClipforgeError) ||
					!["not_found", "conflict"].includes(error.code) ||
					uploadId
				)
					throw error;
				resume = undefined;
				memo.clear();
				return await cli.client().uploadFile(path, { onProgress, signal });
			} finally {
				progress.stop();
			}
		},
		() =>
			`Stopped uploading ${path}${current ? ` (upload ${current})` : ""}; run the same command again to resume where it stopped.`,
	);
	const submitted = await cli.client().submitUpload(upload.id, config, options);
	memo.clear();
	return submitted;
}

/** A bar in MiB on a terminal; a line per 10% otherwise (none with --json). */
function uploadProgress(cli: Cli) {
	const live = process.stderr.isTTY && !cli.json();
	const format = {
		format: " uploading        |{bar}| {percentage}% {value}/{total} MiB",
		hideCursor: true,
		stream: process.stderr,
	};
	const bar = live ? new cliProgress.SingleBar(format, cliProgress.Presets.shades_classic) : null;
	let started = false;
	let lastShown = -1;
	const mib = (n: number) => Math.round(n / 1024 ** 2);
	return {
		show(p: UploadProgress) {
			if (bar && !started) bar.start(mib(p.totalBytes), 0);
			started = true;
			bar?.update(mib(p.uploadedBytes));
			const percent = Math.floor((p.uploadedBytes / p.totalBytes) * 10) * 10;
			if (!live && !cli.json() && percent !== lastShown) console.error(`uploading ${percent}%`);
			lastShown = percent;
		},
		stop: () => bar?.stop(),
	};
}

/** Which upload a file of this size and time, sent to this API, was last given (so a second run resumes it). */
function uploadMemo(path: string, apiUrl: string | undefined) {
	const { size, mtimeMs } = statSync(path);
	const dir = process.env.CLIPFORGE_STATE_DIR ?? join(homedir(), ".clipforge");
	const key = createHash("sha256")
		.update(JSON.stringify([apiUrl, resolve(path), size, mtimeMs]))
		.digest("hex")
		.slice(0, 32);
	const file = join(dir, "uploads", `${key}.json`);
	return {
		read: (): string | undefined => {
			try {
				return (JSON.parse(readFileSync(file, "utf8")) as { uploadId?: string }).uploadId;
			} catch {
				return undefined;
			}
		},
		write: (uploadId: string) => {
			mkdirSync(join(dir, "uploads"), { recursive: true, mode: 0o700 });
			writeFileSync(file, JSON.stringify({ uploadId, path: resolve(path) }), { mode: 0o600 });
		},
		clear: () => rmSync(file, { force: true }),
	};
}
