/** Binaries and folders, overridable by environment so the same code runs natively and in the image. */
import { tmpdir } from "node:os";
import { join } from "node:path";

export const tools = {
	ffmpeg: process.env.FFMPEG_BIN ?? "ffmpeg",
	ffprobe: process.env.FFPROBE_BIN ?? "ffprobe",
	ytDlp: process.env.YT_DLP_BIN ?? "yt-dlp",
	pocketsphinx: process.env.POCKETSPHINX_BIN ?? "pocketsphinx_continuous",
};

export const workRoot = process.env.WORK_DIR ?? join(tmpdir(), "clipforge-render");

/** Loopback/private sources are refused unless the operator allows them (dev and tests only). */
export const allowPrivateSources = () => process.env.ALLOW_PRIVATE_SOURCES === "true";
