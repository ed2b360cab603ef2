/**
 * Attacks on the render tier's egress, with the real yt-dlp, ffprobe and ffmpeg, under the
 * production policy (ALLOW_PRIVATE_SOURCES=false). Loopback plays the internet: a "public" server
 * on 127.0.0.2 (the one address the test's resolver and policy count as public, as `public.test`)
 * and a forbidden one on 127.0.0.3, a TCP server that counts every connection and would answer
 * anything. Each attack must leave the forbidden server with zero connections. Literal 127.0.0.3
 * URLs are used where the tools would reach it on their own without the proxy (so these tests fail
 * on the code before it); the metadata address is only ever named through the test's resolver,
 * so no test can send a packet anywhere but loopback.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SOURCE_LIMITS } from "@clipforge/contract";
import { importMedia } from "../src/media/import-media.ts";
import { downloadSource } from "../src/source/download.ts";
import { egressFetch } from "../src/egress/fetch.ts";
import { useEgressResolver } from "../src/egress/policy.ts";
import { egressProxy } from "../src/egress/proxy.ts";
import { extractAudioChunkArgs } from "../src/ffmpeg/source-args.ts";
import { videoSize } from "../src/source/stored-media.ts";
import { probeSource } from "../src/source/probe.ts";
import { ProcessError, runProcess } from "../src/runtime/run-process.ts";
import { tools } from "../src/runtime/tool-paths.ts";
import { fetchToFile, putFile } from "../src/runtime/transfer.ts";

const PUBLIC = "127.0.0.2";
const FORBIDDEN = "127.0.0.3";

let dir: string;
let video: Buffer;
let port: number; // the public HTTP server's port; the forbidden server listens on the same port
let tlsPort: number; // the public HTTPS server's port; a forbidden counter listens on it too
const servers: (Server | TcpServer)[] = [];
/** Connections the forbidden address received, by port. */
const forbiddenHits = new Map<number, number>();
const hits = () => [...forbiddenHits.values()].reduce((a, b) => a + b, 0);
/** What the public server saw: `guard` for the source guard's one-byte probe, `tool` for the rest. */
const publicRequests: string[] = [];

/**
 * `rebind-*.test` answer these in turn (then the last one forever). Each test uses its own name:
 * the agent keeps a checked connection open per origin, which is not a new lookup.
 */
let rebindAnswers: string[] = [];
const lookups: string[] = [];
const resolver = async (host: string) => {
	lookups.push(host);
	if (host === "public.test") return [PUBLIC];
	if (host === "forbidden.test") return [FORBIDDEN];
	if (host === "metadata.test") return ["169.254.169.254"];
	if (host === "mixed.test") return [PUBLIC, FORBIDDEN];
	if (host.startsWith("rebind-")) return [rebindAnswers.length > 1 ? rebindAnswers.shift()! : rebindAnswers[0]!];
	throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

const trap = (suffix: string) => `http://${FORBIDDEN}:${port}${suffix}`;
const playlist = (lines: string[]) =>
	[
		"#EXTM3U",
		"#EXT-X-VERSION:3",
		"#EXT-X-TARGETDURATION:2",
		"#EXT-X-MEDIA-SEQUENCE:0",
		...lines,
		"#EXT-X-ENDLIST",
		"",
	].join("\n");

/** The public host's pages: the guard's probe (`Range: bytes=0-0`) sees a video, the tools see the attack. */
function publicSite(req: IncomingMessage, res: ServerResponse): void {
	const path = new URL(req.url ?? "/", "http://x").pathname;
	const guard = req.headers.range === "bytes=0-0";
	publicRequests.push(`${guard ? "guard" : "tool"} ${path}`);
	const redirect = (location: string): void => void res.writeHead(302, { location }).end();
	if (guard && path !== "/video.mp4")
		return void res
			.writeHead(206, { "content-type": "video/mp4", "content-range": `bytes 0-0/${video.length}` })
			.end(video.subarray(0, 1));
	switch (path) {
		case "/video.mp4":
			return void res.writeHead(200, { "content-type": "video/mp4", "content-length": video.length }).end(video);
		case "/to-forbidden.mp4":
			return redirect(trap("/latest/meta-data/iam"));
		case "/to-forbidden-name.mp4":
			return redirect(`http://forbidden.test:${port}/x.mp4`);
		case "/to-metadata.mp4":
			return redirect("http://metadata.test/latest/meta-data/");
		case "/to-ftp.mp4":
			return redirect(`ftp://${FORBIDDEN}:${port}/x.mp4`);
		case "/segments.m3u8":
			return void res
				.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" })
				.end(playlist(["#EXTINF:2.0,", trap("/seg0.ts"), "#EXTINF:2.0,", trap("/seg1.ts")]));
		case "/key.m3u8":
			return void res
				.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" })
				.end(playlist([`#EXT-X-KEY:METHOD=AES-128,URI="${trap("/key.bin")}"`, "#EXTINF:2.0,", "/seg0.ts"]));
		case "/public.m3u8":
			return void res
				.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" })
				.end(playlist(["#EXTINF:2.0,", "/seg0.ts", "#EXTINF:2.0,", "/seg0.ts"]));
		case "/seg0.ts":
			return void res.writeHead(200, { "content-type": "video/mp2t" }).end(Buffer.alloc(188 * 10, 0x47));
		case "/stream.sdp":
			return void res
				.writeHead(200, { "content-type": "application/sdp" })
				.end(
					`v=0\r\no=- 0 0 IN IP4 ${FORBIDDEN}\r\ns=x\r\nc=IN IP4 ${FORBIDDEN}\r\nt=0 0\r\nm=video ${port} RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n`,
				);
		default:
			return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
	}
}

function listen(server: Server | TcpServer, host: string, onPort = 0): Promise<number> {
	servers.push(server);
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(onPort, host, () => resolve((server.address() as AddressInfo).port));
	});
}

/** A server on the forbidden address that counts connections and answers whatever it is asked. */
function forbiddenCounter(): TcpServer {
	return createTcpServer((socket) => {
		const local = socket.localPort ?? 0;
		forbiddenHits.set(local, (forbiddenHits.get(local) ?? 0) + 1);
		socket.on("error", () => undefined);
		socket.end(
			"HTTP/1.1 200 OK\r\ncontent-type: video/mp4\r\ncontent-length: 16\r\nconnection: close\r\n\r\n0123456789abcdef",
		);
	});
}

let restoreResolver: () => void;
let savedPolicy: string | undefined;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "egress-test-"));
	process.env.WORK_DIR = join(dir, "work");
	const file = join(dir, "video.mp4");
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-f",
		"lavfi",
		"-i",
		"testsrc2=size=160x90:rate=10",
		"-f",
		"lavfi",
		"-i",
		"sine=frequency=440",
		"-t",
		"2",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-c:a",
		"aac",
		"-shortest",
		file,
	]);
	video = readFileSync(file);
	execFileSync(
		"openssl",
		[
			"req",
			"-x509",
			"-newkey",
			"rsa:2048",
			"-nodes",
			"-days",
			"1",
			"-subj",
			"/CN=public.test",
			"-addext",
			"subjectAltName=DNS:public.test",
			"-keyout",
			join(dir, "key.pem"),
			"-out",
			join(dir, "cert.pem"),
		],
		{ stdio: "ignore" },
	);
	port = await listen(createHttpServer(publicSite), PUBLIC);
	await listen(forbiddenCounter(), FORBIDDEN, port);
	tlsPort = await listen(
		createHttpsServer(
			{ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
			publicSite,
		),
		PUBLIC,
	);
	await listen(forbiddenCounter(), FORBIDDEN, tlsPort);
});

afterAll(async () => {
	await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
	rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
	savedPolicy = process.env.ALLOW_PRIVATE_SOURCES;
	process.env.ALLOW_PRIVATE_SOURCES = "false";
	restoreResolver = useEgressResolver(resolver, { publicAddresses: [PUBLIC] });
	forbiddenHits.clear();
	publicRequests.length = 0;
	lookups.length = 0;
});

afterEach(() => {
	restoreResolver();
	process.env.ALLOW_PRIVATE_SOURCES = savedPolicy;
});

/** The public source by address, which the tools can reach without the proxy too (so each attack would succeed without it). */
const src = (path: string) => `http://${PUBLIC}:${port}${path}`;
const NOT_FETCHED = { code: "unsupported_source", message: "The source could not be fetched." };

describe("the source works through the proxy", () => {
	it("probes and downloads a public source, every tool connection through the egress proxy", async () => {
		const { stats } = await egressProxy();
		const before = stats.forwarded;
		const byName = `http://public.test:${port}/video.mp4`;
		const info = await probeSource(byName);
		expect(info.duration).toBeCloseTo(2, 0);
		const { bytes } = await downloadSource(
			{ videoId: `egress-ok-${Date.now()}`, url: byName, limits: DEFAULT_SOURCE_LIMITS, expectedDuration: null },
			() => undefined,
		);
		expect(bytes).toBe(video.length);
		// public.test exists only in the test's resolver: only the proxy could have reached it.
		expect(stats.forwarded).toBeGreaterThan(before);
		expect(publicRequests.filter((r) => r.startsWith("tool")).length).toBeGreaterThanOrEqual(2);
	});

	it("https inputs go through it too (CONNECT), with ffprobe and yt-dlp", async () => {
		const { stats } = await egressProxy();
		const before = stats.tunnels;
		const { stdout } = await runProcess(
			tools.ffprobe,
			[
				"-v",
				"error",
				"-show_entries",
				"format=duration",
				"-of",
				"csv=p=0",
				`https://public.test:${tlsPort}/video.mp4`,
			],
			{ timeoutMs: 30_000 },
		);
		expect(Number(stdout.trim())).toBeCloseTo(2, 0);
		// yt-dlp checks certificates (this one is self-signed), so it fails, but only after its tunnel reached the server.
		await runProcess(tools.ytDlp, ["-J", "--", `https://public.test:${tlsPort}/video.mp4`], {
			timeoutMs: 30_000,
		}).catch(() => undefined);
		expect(stats.tunnels).toBeGreaterThanOrEqual(before + 2);
		expect(publicRequests.filter((r) => r === "tool /video.mp4").length).toBeGreaterThanOrEqual(1);
	});
});

describe("redirects the guard never saw", () => {
	it("guard 200, tools 302 → a forbidden address: probe and download fail, the forbidden server gets nothing", async () => {
		await expect(probeSource(src("/to-forbidden.mp4"))).rejects.toMatchObject(NOT_FETCHED);
		await expect(
			downloadSource(
				{
					videoId: `egress-302-${Date.now()}`,
					url: src("/to-forbidden.mp4"),
					limits: DEFAULT_SOURCE_LIMITS,
					expectedDuration: null,
				},
				() => undefined,
			),
		).rejects.toMatchObject(NOT_FETCHED);
		expect(publicRequests).toContain("guard /to-forbidden.mp4");
		expect(publicRequests).toContain("tool /to-forbidden.mp4");
		expect(hits()).toBe(0);
	});

	it("tools 302 → a name that resolves to the forbidden address, and → the metadata service", async () => {
		const { stats } = await egressProxy();
		const refused = stats.refused;
		await expect(probeSource(src("/to-forbidden-name.mp4"))).rejects.toMatchObject(NOT_FETCHED);
		await expect(probeSource(src("/to-metadata.mp4"))).rejects.toMatchObject(NOT_FETCHED);
		expect(lookups).toContain("forbidden.test");
		expect(lookups).toContain("metadata.test");
		expect(stats.refused).toBeGreaterThanOrEqual(refused + 2);
		expect(hits()).toBe(0);
	});

	it("tools 302 → ftp:// on the forbidden address (yt-dlp follows ftp redirects): refused by the proxy", async () => {
		await expect(probeSource(src("/to-ftp.mp4"))).rejects.toMatchObject({ code: "unsupported_source" });
		expect(hits()).toBe(0);
	});

	it("a background or watermark import redirected the same way", async () => {
		const request = {
			kind: "background" as const,
			url: src("/to-forbidden.mp4"),
			putUrl: `http://public.test:${port}/upload`,
			limits: null,
		};
		await expect(importMedia(request, () => undefined, AbortSignal.timeout(60_000))).rejects.toMatchObject(
			NOT_FETCHED,
		);
		await expect(
			importMedia({ ...request, kind: "watermark" }, () => undefined, AbortSignal.timeout(60_000)),
		).rejects.toMatchObject(NOT_FETCHED);
		expect(hits()).toBe(0);
	});
});

describe("URLs inside what the source serves", () => {
	it("an HLS playlist whose segments are on the forbidden address: probe and download fail, nothing reaches it", async () => {
		await expect(probeSource(src("/segments.m3u8"))).rejects.toMatchObject({ code: "unsupported_source" });
		await expect(
			downloadSource(
				{
					videoId: `egress-hls-${Date.now()}`,
					url: src("/segments.m3u8"),
					limits: DEFAULT_SOURCE_LIMITS,
					expectedDuration: null,
				},
				() => undefined,
			),
		).rejects.toMatchObject({ code: "unsupported_source" });
		expect(publicRequests).toContain("tool /segments.m3u8");
		expect(hits()).toBe(0);
	});

	it("an HLS playlist whose AES key URL is on the forbidden address", async () => {
		await expect(probeSource(src("/key.m3u8"))).rejects.toMatchObject({ code: "unsupported_source" });
		await expect(
			downloadSource(
				{
					videoId: `egress-key-${Date.now()}`,
					url: src("/key.m3u8"),
					limits: DEFAULT_SOURCE_LIMITS,
					expectedDuration: null,
				},
				() => undefined,
			),
		).rejects.toMatchObject({ code: "unsupported_source" });
		expect(publicRequests).toContain("tool /key.m3u8");
		expect(hits()).toBe(0);
	});

	it("an SDP file served over http cannot make ffmpeg open rtp/udp (demuxer and protocol whitelists)", async () => {
		const failure = (args: string[]) =>
			runProcess(tools.ffprobe, ["-v", "error", ...args, src("/stream.sdp")], { timeoutMs: 30_000 }).then(
				() => ({ stderrTail: "it ran" }),
				(e: unknown) => e as ProcessError,
			);
		// The sdp demuxer is not among what a network input may be read as…
		expect((await failure([])).stderrTail).toMatch(/Format not on whitelist/);
		// …and even where a call site allowed it, rtp is not a protocol it may open.
		expect((await failure(["-format_whitelist", "sdp"])).stderrTail).toMatch(/Protocol 'rtp' not on whitelist/);
	});

	it("a stored source read back that is really a playlist: the render-time reads refuse it before any segment", async () => {
		const out = join(dir, "chunk.mp3");
		const error = await runProcess(tools.ffmpeg, extractAudioChunkArgs(src("/public.m3u8"), 0, 2, out), {
			timeoutMs: 30_000,
		}).then(
			() => null,
			(e: unknown) => e as ProcessError,
		);
		expect(error).toBeInstanceOf(ProcessError);
		expect(error!.stderrTail).toMatch(/not on whitelist/);
		expect(publicRequests).toContain("tool /public.m3u8");
		expect(publicRequests).not.toContain("tool /seg0.ts");
	});

	it("…and the frame-size read before a render frames it (videoSize) refuses it the same way", async () => {
		const before = publicRequests.length;
		const error = await videoSize(src("/public.m3u8")).then(
			() => null,
			(e: unknown) => e as ProcessError,
		);
		expect(error).toBeInstanceOf(ProcessError);
		expect(error!.stderrTail).toMatch(/not on whitelist/);
		expect(publicRequests.slice(before)).toContain("tool /public.m3u8");
		expect(publicRequests.slice(before)).not.toContain("tool /seg0.ts");
	});

	it("https straight to the forbidden address, tunnelled: ffprobe and yt-dlp are refused before a connection", async () => {
		for (const command of [tools.ffprobe, tools.ytDlp]) {
			const args =
				command === tools.ytDlp
					? ["-J", "--", `https://${FORBIDDEN}:${tlsPort}/x.mp4`]
					: ["-v", "error", `https://${FORBIDDEN}:${tlsPort}/x.mp4`];
			await expect(runProcess(command, args, { timeoutMs: 30_000 })).rejects.toBeInstanceOf(ProcessError);
		}
		expect(hits()).toBe(0);
	});
});

describe("DNS rebinding", () => {
	it("public for the guard, the forbidden address when the tools connect: the proxy resolves again and refuses", async () => {
		// 1: the guard's check, 2: the guard's own request (pinned to what it resolved), then the tools.
		rebindAnswers = [PUBLIC, PUBLIC, FORBIDDEN];
		await expect(probeSource(`http://rebind-tools.test:${port}/video.mp4`)).rejects.toMatchObject(NOT_FETCHED);
		expect(lookups.filter((h) => h === "rebind-tools.test").length).toBeGreaterThanOrEqual(3);
		expect(publicRequests).toEqual(["guard /video.mp4"]);
		expect(hits()).toBe(0);
	});

	it("public for the guard's check, the forbidden address for its own request: the pinned agent refuses", async () => {
		rebindAnswers = [PUBLIC, FORBIDDEN];
		await expect(probeSource(`http://rebind-guard.test:${port}/video.mp4`)).rejects.toMatchObject({
			code: "invalid_url",
		});
		expect(hits()).toBe(0);
	});

	it("one private address among public ones refuses the host", async () => {
		await expect(probeSource(`http://mixed.test:${port}/video.mp4`)).rejects.toMatchObject({ code: "invalid_url" });
		await expect(
			runProcess(tools.ffprobe, ["-v", "error", `http://mixed.test:${port}/video.mp4`], { timeoutMs: 30_000 }),
		).rejects.toBeInstanceOf(ProcessError);
		expect(hits()).toBe(0);
	});
});

describe("Node's own fetches (transfers, the guard)", () => {
	it("go through the pinned agent: a name or literal that is not public is refused before connecting", async () => {
		for (const url of [`http://forbidden.test:${port}/x`, trap("/x"), `http://rebind-fetch.test:${port}/x`]) {
			rebindAnswers = [FORBIDDEN];
			const error = await egressFetch(url).catch((e: Error) => e);
			expect(error).toBeInstanceOf(Error);
			expect(((error as Error).cause as Error).name).toBe("EgressRefusedError");
		}
		await expect(fetchToFile(trap("/audio.mp3"), join(dir, "audio.mp3"))).rejects.toThrow();
		await expect(putFile(join(dir, "video.mp4"), trap("/upload"), "video/mp4")).rejects.toThrow();
		expect(hits()).toBe(0);
		expect((await egressFetch(src("/video.mp4"))).status).toBe(200);
	});

	it("a redirect they follow is a new connection, checked again", async () => {
		const error = await egressFetch(src("/to-forbidden.mp4")).catch((e: Error) => e);
		expect(((error as Error).cause as Error).name).toBe("EgressRefusedError");
		expect(hits()).toBe(0);
	});
});

describe("where private sources are allowed (local stack, tests)", () => {
	it("loopback stays reachable, still through the proxy", async () => {
		process.env.ALLOW_PRIVATE_SOURCES = "true";
		const { stats } = await egressProxy();
		const before = stats.forwarded;
		const { stdout } = await runProcess(
			tools.ffprobe,
			["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", `http://${PUBLIC}:${port}/video.mp4`],
			{ timeoutMs: 30_000 },
		);
		expect(Number(stdout.trim())).toBeCloseTo(2, 0);
		expect(stats.forwarded).toBeGreaterThan(before);
	});
});
