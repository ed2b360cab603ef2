/**
 * How each process the tier starts is put behind the egress proxy (pure: run-process.ts applies it
 * to every process, so no call site can forget). Two layers:
 *
 * - the environment: `http_proxy`, `https_proxy`, `ftp_proxy` and `all_proxy` (both cases) name the
 *   proxy and `no_proxy` is removed. ffmpeg reads `http_proxy` for every http and https connection it opens,
 *   nested ones included (HLS and DASH segments, keys, redirects); yt-dlp reads all three.
 * - flags: ffmpeg and ffprobe get `-http_proxy` and a protocol whitelist before each network input.
 *   The whitelist keeps a fetched playlist or SDP file from opening udp/rtp, ftp, file or other
 *   protocols that no proxy sees. Each network input also gets a demuxer whitelist and a picture
 *   limit, first among its options so a call site's narrower ones (the upload probe's formats, a
 *   plan's pixels, a stored source's formats) win.
 *
 * yt-dlp is deliberately not given `--proxy`: with it, yt-dlp 2023.03.04 (Debian) proxies only http
 * and https and follows a redirect to `ftp://` directly (tried: the trap server got the connection);
 * from the environment it proxies ftp too, which the proxy refuses. yt-dlp is given instead:
 * - `--break-match-filters` on the chosen format's protocol: only what yt-dlp fetches itself over
 *   http(s) (direct files, HLS, DASH, f4m, ISM). A page can offer `rtmp://`, `rtsp://` or `mms://`
 *   formats, which yt-dlp hands to rtmpdump, mplayer, mpv or ffmpeg as raw TCP/UDP that no proxy
 *   sees (tried with `--downloader ffmpeg`: an rtsp:// format reached the trap server). A separate
 *   option from `--match-filters`, so a filter added there is ANDed with this one, never ORed.
 * - `--downloader-args ffmpeg_i:` with the same protocol whitelist, for the ffmpeg it runs on HLS.
 */

/** The format protocols yt-dlp may download (a merged format reads `https+https`). */
const YT_DLP_PROTOCOLS = "(https?|m3u8(_native)?|http_dash_segments(_generator)?|f4m|ism)";
export const YT_DLP_PROTOCOL_FILTER = `protocol~='^${YT_DLP_PROTOCOLS}(\\+${YT_DLP_PROTOCOLS})*$'`;

/**
 * Protocols an ffmpeg network input may use: http(s) to the proxy (tcp, and httpproxy to tunnel
 * tls), HLS keys (crypto), inline data.
 */
export const NETWORK_PROTOCOLS = "http,https,tls,tcp,httpproxy,crypto,data";

/**
 * The container formats a user's own file or a stored source may be in (ffmpeg demuxer names): no
 * playlist, manifest, concat or image-sequence demuxer that would open other inputs, nor HTML read
 * as anything.
 */
export const UPLOAD_FORMATS = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,flv,ogg,asf,wav,mp3,aac";
/**
 * What any network input may be read as, unless its call site narrows it: the upload formats, a
 * hosted source's HLS or DASH (their segments are held to this same list), and single pictures
 * (a watermark). Not image2 (sequences), concat, sdp/rtp or the other demuxers that open more.
 */
export const NETWORK_MEDIA_FORMATS = `${UPLOAD_FORMATS},hls,dash,png_pipe,jpeg_pipe,webp_pipe,gif`;
/**
 * The decoder's picture limit on every network input whose call site gives none: a net under the
 * plans' own limits (held at the probe), so no input is ever decoded into gigabytes.
 */
export const TIER_MAX_PIXELS = 8192 * 8192;

const isNetworkUrl = (value: string) => /^https?:\/\//i.test(value);

/**
 * `args` with the proxy flags a tool needs (unchanged for other tools).
 * @example egressArgs("ffmpeg", ["-i", "https://x/a.mp4", "out.mp4"], "http://127.0.0.1:9") // ["-http_proxy", "http://127.0.0.1:9", "-protocol_whitelist", …, "-i", "https://x/a.mp4", "out.mp4"]
 */
export function egressArgs(
	tool: "ffmpeg" | "ffprobe" | "yt-dlp" | "other",
	args: readonly string[],
	proxyUrl: string,
): string[] {
	const inputOptions = ["-http_proxy", proxyUrl, "-protocol_whitelist", NETWORK_PROTOCOLS];
	const inputBounds = ["-format_whitelist", NETWORK_MEDIA_FORMATS, "-max_pixels", String(TIER_MAX_PIXELS)];
	if (tool === "yt-dlp")
		return [
			"--break-match-filters",
			YT_DLP_PROTOCOL_FILTER,
			"--downloader-args",
			`ffmpeg_i:-protocol_whitelist ${NETWORK_PROTOCOLS}`,
			...args,
		];
	if (tool === "ffprobe") return args.some(isNetworkUrl) ? [...inputBounds, ...inputOptions, ...args] : [...args];
	if (tool !== "ffmpeg") return [...args];
	// An input's options run from the end of the previous input (`-i X`) to its own `-i`.
	const out: string[] = [];
	let groupStart = 0;
	for (let i = 0; i < args.length; i++) {
		if (args[i] === "-i" && isNetworkUrl(args[i + 1] ?? "")) {
			out.splice(groupStart, 0, ...inputBounds);
			out.push(...inputOptions);
		}
		out.push(args[i]!);
		if (args[i] === "-i" && i + 1 < args.length) {
			out.push(args[++i]!);
			groupStart = out.length;
		}
	}
	return out;
}

/** The environment of every process: the proxy for each scheme a tool may speak, and no exemptions. */
export function egressEnvironment(base: NodeJS.ProcessEnv, proxyUrl: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...base };
	for (const name of ["no_proxy", "NO_PROXY"]) delete env[name];
	for (const name of ["http_proxy", "https_proxy", "ftp_proxy", "all_proxy"]) {
		env[name] = proxyUrl;
		env[name.toUpperCase()] = proxyUrl;
	}
	return env;
}
