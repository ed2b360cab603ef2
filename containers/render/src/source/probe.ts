import { DEFAULT_SOURCE_LIMITS, ProbeResult, type SourceLimits } from "@clipforge/contract";
import { diskOf, sourceLimitsOnDisk } from "./disk-room.ts";
import { assertWithinLimits, mediaFacts } from "./media-limits.ts";
import { runProcess } from "../runtime/run-process.ts";
import { ytDlpError } from "./errors.ts";
import { resolveSource } from "./guard.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools, workRoot } from "../runtime/tool-paths.ts";
import { UPLOAD_FORMATS } from "../egress/args.ts";
import { ytDlpProbeArgs } from "./yt-dlp-args.ts";

const PROBE_TIMEOUT_MS = 20_000;

interface YtDlpInfo {
	id?: string;
	title?: string;
	duration?: number | null;
	thumbnail?: string | null;
	channel?: string | null;
	uploader?: string | null;
	webpage_url_domain?: string | null;
	width?: number | null;
	height?: number | null;
	is_live?: boolean | null;
	_type?: string;
	/** Tracks made by people, and automatic ones (YouTube: the spoken language's is `<lang>-orig`), by language. */
	subtitles?: Record<string, unknown> | null;
	automatic_captions?: Record<string, unknown> | null;
	language?: string | null;
}

/** At most this many tracks are listed (a site may offer a hundred machine translations). */
const MAX_TRACKS = 200;

/**
 * The source's subtitle tracks: every track made by people, then the automatic ones (YouTube's
 * spoken-language track, `-orig`, first). A live chat replay is no subtitle track.
 */
export function subtitleTracksOf(info: Pick<YtDlpInfo, "subtitles" | "automatic_captions">) {
	const langs = (tracks: Record<string, unknown> | null | undefined) =>
		Object.keys(tracks ?? {}).filter((lang) => lang !== "live_chat" && /^[A-Za-z0-9_-]{1,35}$/.test(lang));
	const automatic = langs(info.automatic_captions).sort(
		(a, b) => Number(/-orig$/.test(b)) - Number(/-orig$/.test(a)),
	);
	return [
		...langs(info.subtitles).map((lang) => ({ lang, automatic: false })),
		...automatic.map((lang) => ({ lang, automatic: true })),
	].slice(0, MAX_TRACKS);
}

/**
 * What a source is: yt-dlp's metadata first (title, channel, thumbnail), ffprobe for what it leaves
 * null (direct files have no duration) and to confirm there is a decodable video stream at all. A
 * file read by ffprobe is also held to the limits here, at submission, before anything is charged:
 * its picture (read under `-max_pixels`, never decoded when larger) and its announced size.
 */
export async function probeSource(
	rawUrl: string,
	limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
	signal?: AbortSignal,
	options: { upload?: boolean } = {},
): Promise<ProbeResult> {
	const url = await resolveSource(rawUrl);
	// A user's uploaded file is read by ffprobe alone, always under the limits: yt-dlp's generic
	// extractor could take an HTML page's JSON-LD for the file's duration and size.
	if (options.upload) return probeUpload(url, rawUrl, limits, signal);
	const info = await ytDlpInfo(url, signal);
	if (info.is_live)
		throw new TierError("unsupported_source", "Live streams cannot be clipped; submit the recording.", false, 422);
	if (info._type === "playlist")
		throw new TierError("unsupported_source", "The URL is a playlist; submit one video.", false, 422);

	const needsFfprobe = !info.duration || !info.width || !info.height;
	const facts = needsFfprobe ? await mediaFacts(url, limits.maxPixels, signal, PROBE_TIMEOUT_MS) : null;
	if (needsFfprobe && !facts)
		throw new TierError("unsupported_source", "The URL is not a playable video.", false, 422);
	if (facts && !facts.hasVideo) throw new TierError("unsupported_source", "The URL has no video stream.", false, 422);
	// What this instance type's disk can hold bounds the size too (disk-room.ts).
	if (facts) assertWithinLimits(facts, sourceLimitsOnDisk(limits, await diskOf(workRoot)), "video");

	const duration = info.duration ?? facts?.duration ?? Number.NaN;
	if (!Number.isFinite(duration) || duration <= 0) {
		throw new TierError("unsupported_source", "The video's duration could not be determined.", false, 422);
	}
	return ProbeResult.parse({
		id: info.id ?? "unknown",
		title: info.title?.trim() || "Untitled video",
		duration: Math.round(duration * 1000) / 1000,
		thumbnail: info.thumbnail ?? "",
		channelName: info.channel ?? info.uploader ?? info.webpage_url_domain ?? new URL(rawUrl).host,
		width: info.width ?? (facts?.width || null),
		height: info.height ?? (facts?.height || null),
		hasAudio: facts ? facts.hasAudio : true,
		subtitles: subtitleTracksOf(info),
		language: typeof info.language === "string" && info.language ? info.language.slice(0, 35) : null,
	});
}

/** An uploaded file: ffprobe only, under `-max_pixels`, the byte limit and the upload formats. */
async function probeUpload(url: string, rawUrl: string, limits: SourceLimits, signal?: AbortSignal) {
	const facts = await mediaFacts(url, limits.maxPixels, signal, PROBE_TIMEOUT_MS, UPLOAD_FORMATS);
	if (!facts || !facts.hasVideo)
		throw new TierError("unsupported_source", "The file is not a playable video.", false, 422);
	assertWithinLimits(facts, sourceLimitsOnDisk(limits, await diskOf(workRoot)), "video");
	if (!Number.isFinite(facts.duration) || facts.duration <= 0)
		throw new TierError("unsupported_source", "The video's duration could not be determined.", false, 422);
	return ProbeResult.parse({
		id: "upload",
		title: "Untitled video",
		duration: Math.round(facts.duration * 1000) / 1000,
		thumbnail: "",
		channelName: new URL(rawUrl).host,
		width: facts.width || null,
		height: facts.height || null,
		hasAudio: facts.hasAudio,
	});
}

async function ytDlpInfo(url: string, signal?: AbortSignal): Promise<YtDlpInfo> {
	try {
		// Options are fixed (yt-dlp-args.ts); the URL comes after `--` so it can never be read as an option.
		const { stdout } = await runProcess(tools.ytDlp, ytDlpProbeArgs(url), { timeoutMs: PROBE_TIMEOUT_MS, signal });
		return JSON.parse(stdout) as YtDlpInfo;
	} catch (error) {
		throw ytDlpError(error);
	}
}
