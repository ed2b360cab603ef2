/**
 * What the tier checks about its own machine when it starts: the tools it spawns answer, ffmpeg
 * has every filter, encoder and device the jobs use, every font a caption look may name is
 * installed, and BlazeFace's weights ship with the npm package. The Container image must provide
 * all of it (containers/render/Dockerfile; test/image.test.ts reads both against the code). The
 * result is logged and served by `/healthz` (503 naming what is missing), so a broken image shows
 * at its health check and in `npm run smoke`, not halfway through a customer's video.
 */
import { access, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CAPTION_FONTS, CJK_FALLBACK_FONT, EMOJI_FONT, FALLBACK_FONTS } from "@clipforge/contract/words";
import { DEFAULT_FONT_FILE } from "../ffmpeg/clip-args.ts";
import { ProcessError, runProcess } from "./run-process.ts";
import { tools } from "./tool-paths.ts";

/**
 * ffmpeg filters the jobs' graphs use (ffmpeg-args.ts, backgrounds.ts, caption-preview.ts, faces.ts,
 * silences.ts, jump-cuts.ts, emoji.ts); test/image.test.ts finds every filter name in the tier's
 * string literals and fails when one is missing here.
 */
export const REQUIRED_FILTERS = [
	"ametadata",
	"aresample",
	"aselect",
	"asetnsamples",
	"asetpts",
	"ass",
	"cellauto",
	"color",
	"colorchannelmixer",
	"crop",
	"drawtext",
	"ebur128",
	"format",
	"fps",
	"gradients",
	"life",
	"mandelbrot",
	"metadata",
	"null",
	"overlay",
	"scale",
	"select",
	"setpts",
	"setsar",
	"sierpinski",
	"signalstats",
	"silencedetect",
	"split",
	"testsrc2",
	"thumbnail",
	"trim",
	"vstack",
] as const;

/**
 * Encoders the jobs name (`-c:v`, `-c:a`) or pick by file type: MP4 clips, MP3 audio chunks, raw
 * PCM, JPEG thumbnails, PNG previews.
 */
export const REQUIRED_ENCODERS = ["libx264", "aac", "libmp3lame", "pcm_s16le", "mjpeg", "png"] as const;

/** Input devices: `-f lavfi` (generated backgrounds, previews). */
export const REQUIRED_DEVICES = ["lavfi"] as const;

/**
 * The faces captions use for scripts a look's font lacks (looks.ts `FALLBACK_FONTS`: Noto per
 * script, DejaVu Sans first for Hebrew and Arabic; Noto Sans CJK), from the packages
 * scripts/install-deps.sh and the Dockerfile install.
 */
export const FALLBACK_FONT_FILES = [...new Set([...FALLBACK_FONTS.map((f) => f.file), CJK_FALLBACK_FONT.file])];

/** Every font file a render may use. */
export const REQUIRED_FONT_FILES = [
	...new Set([DEFAULT_FONT_FILE, ...CAPTION_FONTS.map((f) => f.file), EMOJI_FONT.file, ...FALLBACK_FONT_FILES]),
];

/** pocketsphinx's English model (the `local` transcriber), from Debian's pocketsphinx-en-us. */
export const POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

/**
 * The one yt-dlp pin (`yt-dlp==<version> --hash=…`): the Dockerfile and scripts/install-deps.sh
 * install from this file, the self-check compares what it finds with it. In the image it sits at
 * the same place beside src/.
 */
export const YT_DLP_REQUIREMENTS = fileURLToPath(new URL("../../yt-dlp.requirements.txt", import.meta.url));

/** yt-dlp releases before this one have CVE-2024-38519 (a download may be written with any file extension). */
export const YT_DLP_OLDEST_SAFE = "2024.07.01";

/** ffmpeg's major release in the image (Debian bookworm's 5.1): the filter graphs and the goldens are checked on it. */
export const FFMPEG_MAJOR = 5;

export interface SelfCheck {
	ok: boolean;
	/** What is missing or broken, one sentence each: /healthz answers 503. */
	problems: string[];
	/** What runs but is not what the image runs (an old yt-dlp, another ffmpeg release): logged, /healthz stays 200. */
	warnings: string[];
	versions: { ffmpeg: string | null; ytDlp: string | null };
	/** The yt-dlp binary the tier runs (YT_DLP_BIN, the project's .venv/yt-dlp, or the one on PATH). */
	ytDlpPath: string;
}

/** The version yt-dlp.requirements.txt pins, as `yt-dlp --version` prints it; null without the file. */
export async function pinnedYtDlp(file = YT_DLP_REQUIREMENTS): Promise<string | null> {
	const text = await readFile(file, "utf8").catch(() => "");
	return text.match(/^yt-dlp==(\S+)/m)?.[1] ?? null;
}

/**
 * Warnings about versions that run but are not the image's: Debian's 2023 yt-dlp, an ffmpeg of
 * another major release.
 */
export function versionWarnings(versions: SelfCheck["versions"], pin: string | null): string[] {
	const warnings: string[] = [];
	const { ffmpeg, ytDlp } = versions;
	const install = "scripts/install-deps.sh installs the pinned one into .venv/yt-dlp";
	// yt-dlp versions are dates (YYYY.MM.DD[.build]), so they compare as strings.
	if (ytDlp && ytDlp < YT_DLP_OLDEST_SAFE)
		warnings.push(
			`yt-dlp ${ytDlp} (${tools.ytDlp}) predates ${YT_DLP_OLDEST_SAFE}, the fix of CVE-2024-38519, ` +
				`and real sites have changed since: ${install}.`,
		);
	else if (ytDlp && pin && ytDlp !== pin)
		warnings.push(
			`yt-dlp ${ytDlp} (${tools.ytDlp}) is not the pinned ${pin} (yt-dlp.requirements.txt): ${install}.`,
		);
	const major = Number(ffmpeg?.match(/^n?(\d+)\./)?.[1]);
	if (ffmpeg && major !== FFMPEG_MAJOR)
		warnings.push(
			`ffmpeg ${ffmpeg} is not ${FFMPEG_MAJOR}.x, the release the image runs and the goldens were drawn with.`,
		);
	return warnings;
}

const TIMEOUT_MS = 20_000;

async function output(command: string, args: string[]): Promise<string | null> {
	try {
		const { stdout, stderr } = await runProcess(command, args, { timeoutMs: TIMEOUT_MS });
		return `${stdout}\n${stderr}`;
	} catch {
		return null;
	}
}

const exists = (path: string) =>
	access(path).then(
		() => true,
		() => false,
	);

/** Names in the second column of `ffmpeg -filters` / `-encoders` / `-devices` listings. */
export function listedNames(listing: string): Set<string> {
	const names = new Set<string>();
	for (const line of listing.split("\n")) {
		const [flags, name] = line.trim().split(/\s+/);
		if (flags && name && /^[A-Z.|]+$/.test(flags)) names.add(name);
	}
	return names;
}

/** True when `command` starts at all (whatever its exit code): pocketsphinx has no --version. */
async function starts(command: string, args: string[]): Promise<boolean> {
	try {
		await runProcess(command, args, { timeoutMs: TIMEOUT_MS });
		return true;
	} catch (error) {
		return !(error instanceof ProcessError && error.reason === "spawn");
	}
}

export async function selfCheck(): Promise<SelfCheck> {
	const problems: string[] = [];
	const version = await output(tools.ffmpeg, ["-hide_banner", "-version"]);
	if (!version) problems.push(`ffmpeg (${tools.ffmpeg}) does not run.`);
	if (!(await output(tools.ffprobe, ["-hide_banner", "-version"])))
		problems.push(`ffprobe (${tools.ffprobe}) does not run.`);
	if (version) {
		const [filters, encoders, devices] = await Promise.all([
			output(tools.ffmpeg, ["-hide_banner", "-filters"]),
			output(tools.ffmpeg, ["-hide_banner", "-encoders"]),
			output(tools.ffmpeg, ["-hide_banner", "-devices"]),
		]);
		const missing = (listing: string | null, wanted: readonly string[]) => {
			const names = listedNames(listing ?? "");
			return wanted.filter((name) => !names.has(name));
		};
		const noFilters = missing(filters, REQUIRED_FILTERS);
		const noEncoders = missing(encoders, REQUIRED_ENCODERS);
		const noDevices = missing(devices, REQUIRED_DEVICES);
		if (noFilters.length) problems.push(`ffmpeg lacks the filters ${noFilters.join(", ")}.`);
		if (noEncoders.length) problems.push(`ffmpeg lacks the encoders ${noEncoders.join(", ")}.`);
		if (noDevices.length) problems.push(`ffmpeg lacks the input devices ${noDevices.join(", ")}.`);
	}
	const ytDlp = (await output(tools.ytDlp, ["--ignore-config", "--version"]))?.trim().split("\n")[0] ?? null;
	if (!ytDlp) problems.push(`yt-dlp (${tools.ytDlp}) does not run.`);
	const fonts = await Promise.all(REQUIRED_FONT_FILES.map(async (file) => ((await exists(file)) ? null : file)));
	const noFonts = fonts.filter((f): f is string => f !== null);
	if (noFonts.length) problems.push(`Fonts are missing: ${noFonts.join(", ")}.`);
	if (!(await starts(tools.pocketsphinx, ["-h"])))
		problems.push(`pocketsphinx (${tools.pocketsphinx}) does not run.`);
	if (!(await exists(POCKETSPHINX_MODEL_DIR)))
		problems.push(`pocketsphinx's English model is missing (${POCKETSPHINX_MODEL_DIR}).`);
	try {
		const human = dirname(createRequire(import.meta.url).resolve("@vladmandic/human"));
		if (!(await exists(join(human, "..", "models", "blazeface.json"))))
			problems.push("BlazeFace's weights are missing from @vladmandic/human.");
	} catch {
		problems.push("The @vladmandic/human package (BlazeFace) is not installed.");
	}
	const versions = { ffmpeg: version?.match(/ffmpeg version (\S+)/)?.[1] ?? null, ytDlp };
	return {
		ok: problems.length === 0,
		problems,
		warnings: versionWarnings(versions, await pinnedYtDlp()),
		versions,
		ytDlpPath: tools.ytDlp,
	};
}
