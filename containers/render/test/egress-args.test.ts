import { describe, expect, it } from "vitest";
import {
	egressArgs,
	egressEnvironment,
	NETWORK_MEDIA_FORMATS,
	NETWORK_PROTOCOLS,
	TIER_MAX_PIXELS,
	UPLOAD_FORMATS,
	YT_DLP_PROTOCOL_FILTER,
} from "../src/egress/args.ts";

const BOUNDS = ["-format_whitelist", NETWORK_MEDIA_FORMATS, "-max_pixels", String(TIER_MAX_PIXELS)];

const PROXY = "http://127.0.0.1:3128";

describe("every process is put behind the egress proxy", () => {
	it("ffmpeg: -http_proxy and the protocol whitelist before each network input, not before local files", () => {
		const args = egressArgs(
			"ffmpeg",
			[
				"-y",
				"-ss",
				"3",
				"-i",
				"https://w.test/src.mp4?sig=1",
				"-i",
				"/tmp/bg.mp4",
				"-i",
				"http://w.test/mark.png",
				"out.mp4",
			],
			PROXY,
		);
		expect(args).toEqual([
			...BOUNDS,
			"-y",
			"-ss",
			"3",
			"-http_proxy",
			PROXY,
			"-protocol_whitelist",
			NETWORK_PROTOCOLS,
			"-i",
			"https://w.test/src.mp4?sig=1",
			"-i",
			"/tmp/bg.mp4",
			...BOUNDS,
			"-http_proxy",
			PROXY,
			"-protocol_whitelist",
			NETWORK_PROTOCOLS,
			"-i",
			"http://w.test/mark.png",
			"out.mp4",
		]);
		expect(NETWORK_PROTOCOLS.split(",")).not.toContain("udp");
		expect(NETWORK_PROTOCOLS.split(",")).not.toContain("file");
	});

	it("ffprobe: the same options in front when it reads a URL; nothing for a local file", () => {
		expect(egressArgs("ffprobe", ["-v", "error", "http://w.test/a.mp4"], PROXY)).toEqual([
			...BOUNDS,
			"-http_proxy",
			PROXY,
			"-protocol_whitelist",
			NETWORK_PROTOCOLS,
			"-v",
			"error",
			"http://w.test/a.mp4",
		]);
		expect(egressArgs("ffprobe", ["-v", "error", "/tmp/a.mp4"], PROXY)).toEqual(["-v", "error", "/tmp/a.mp4"]);
	});

	it("each network input's demuxer whitelist and picture limit come first among its options, so a call site's narrower ones win", () => {
		const args = egressArgs(
			"ffmpeg",
			["-format_whitelist", UPLOAD_FORMATS, "-max_pixels", "100", "-i", "http://w.test/src", "out.mp4"],
			PROXY,
		);
		// ffmpeg keeps the last value of an option given twice to one input.
		const last = (name: string) => args[args.lastIndexOf(name) + 1];
		expect(last("-format_whitelist")).toBe(UPLOAD_FORMATS);
		expect(last("-max_pixels")).toBe("100");
		expect(args.indexOf("-format_whitelist")).toBe(0);
		for (const opener of ["image2", "concat", "sdp", "rtp", "tee", "lavfi", "html"])
			expect(NETWORK_MEDIA_FORMATS.split(",")).not.toContain(opener);
		for (const opener of ["hls", "dash", "image2", "concat"])
			expect(UPLOAD_FORMATS.split(",")).not.toContain(opener);
	});

	it("yt-dlp: the protocol filter and ffmpeg's whitelist in front (the URL stays after --); no --proxy", () => {
		const args = egressArgs("yt-dlp", ["-J", "--", "https://v.test/watch"], PROXY);
		expect(args.slice(-2)).toEqual(["--", "https://v.test/watch"]);
		expect(args).toContain("--break-match-filters");
		expect(args).toContain(YT_DLP_PROTOCOL_FILTER);
		expect(args).not.toContain("--proxy");
	});

	it("the environment names the proxy for every scheme and drops no_proxy exemptions", () => {
		const env = egressEnvironment(
			{ PATH: "/bin", no_proxy: "127.0.0.1,localhost", NO_PROXY: "*", HTTP_PROXY: "http://elsewhere:1" },
			PROXY,
		);
		for (const name of [
			"http_proxy",
			"https_proxy",
			"ftp_proxy",
			"all_proxy",
			"HTTP_PROXY",
			"HTTPS_PROXY",
			"FTP_PROXY",
			"ALL_PROXY",
		])
			expect(env[name]).toBe(PROXY);
		expect(env.no_proxy).toBeUndefined();
		expect(env.NO_PROXY).toBeUndefined();
		expect(env.PATH).toBe("/bin");
	});

	it("the protocol filter accepts what yt-dlp fetches over http(s) and nothing else", () => {
		const pattern = new RegExp(/'(.*)'/.exec(YT_DLP_PROTOCOL_FILTER)![1]!.replaceAll("\\\\", "\\"));
		for (const ok of [
			"https",
			"http",
			"m3u8_native",
			"m3u8",
			"https+https",
			"http_dash_segments",
			"m3u8_native+m3u8_native",
			"f4m",
			"ism",
		])
			expect(pattern.test(ok), ok).toBe(true);
		for (const bad of ["rtmp", "rtsp", "mms", "ftp", "https+rtmp", "websocket_frag", "rtmp_ffmpeg"])
			expect(pattern.test(bad), bad).toBe(false);
	});
});
