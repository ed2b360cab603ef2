/** Binaries and folders, overridable by environment so the same code runs natively and in the image. */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The pinned yt-dlp scripts/install-deps.sh puts in the repository's own virtual environment, so
 * the local stack and the tests run the image's version; the one on PATH (Debian's 2023 release)
 * only without it, which the self-check warns about. The image sets YT_DLP_BIN.
 */
export const PROJECT_YT_DLP = fileURLToPath(new URL("../../../../.venv/yt-dlp/bin/yt-dlp", import.meta.url));

export const tools = {
	ffmpeg: process.env.FFMPEG_BIN ?? "ffmpeg",
	ffprobe: process.env.FFPROBE_BIN ?? "ffprobe",
	ytDlp: process.env.YT_DLP_BIN ?? (existsSync(PROJECT_YT_DLP) ? PROJECT_YT_DLP : "yt-dlp"),
	pocketsphinx: process.env.POCKETSPHINX_BIN ?? "pocketsphinx_continuous",
};

export const workRoot = process.env.WORK_DIR ?? join(tmpdir(), "clipforge-render");
