import { describe, expect, it } from "vitest";
import { egressArgs, egressEnvironment, NETWORK_PROTOCOLS, YT_DLP_PROTOCOL_FILTER } from "../src/egress-args.ts";

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
