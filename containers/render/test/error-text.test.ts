/**
 * What the tier's error text gives away. (1) No port-scan oracle: a refused, reset or silent
 * connection, an address the egress policy refused, an unknown name and an HTTP error status all
 * answer the same code and message (whether a retry may help stays in `retryable`). (2) No signed
 * URL leaves the tier: tools print their input URLs, query string and credentials included, and the
 * job errors must not carry them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobEvent, renderJobs } from "@clipforge/contract";
import { importMedia } from "../src/media/import-media.ts";
import { useEgressResolver } from "../src/egress/policy.ts";
import { probeSource } from "../src/source/probe.ts";
import { redactUrls } from "../src/runtime/redact.ts";
import { createRenderServer } from "../src/server.ts";
import { signedPost } from "./signed-post.ts";
import { TierError } from "../src/runtime/tier-error.ts";

let dir: string;
let video: Buffer;
let site: string; // http://127.0.0.1:PORT, a host that answers
let closedPort: number; // nothing listens here
let resetting: string; // accepts, then resets the connection
let tier: string;
const servers: (Server | TcpServer)[] = [];

function listen(server: Server | TcpServer): Promise<string> {
	servers.push(server);
	return new Promise((resolve) =>
		server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
	);
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "error-text-test-"));
	process.env.WORK_DIR = join(dir, "work");
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-f",
		"lavfi",
		"-i",
		"testsrc2=size=160x90:rate=10",
		"-t",
		"1",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		join(dir, "v.mp4"),
	]);
	video = readFileSync(join(dir, "v.mp4"));
	site = await listen(
		createHttpServer((req, res) => {
			const path = new URL(req.url ?? "/", "http://x").pathname;
			if (path === "/v.mp4") return void res.writeHead(200, { "content-type": "video/mp4" }).end(video);
			if (path === "/page.html")
				return void res
					.writeHead(200, { "content-type": "text/html" })
					.end("<html><body>no video here</body></html>");
			// The guard's one-byte probe sees a video; the tools are sent to an address the egress proxy refuses.
			if (path === "/to-forbidden.mp4" && req.headers.range === "bytes=0-0")
				return void res.writeHead(206, { "content-type": "video/mp4" }).end(video.subarray(0, 1));
			if (path === "/to-forbidden.mp4")
				return void res.writeHead(302, { location: `http://forbidden.test:${closedPort}/x` }).end();
			if (path === "/500.mp4") return void res.writeHead(500).end("oops");
			if (path === "/403.mp4") return void res.writeHead(403).end("no");
			res.writeHead(404).end("not found");
		}),
	);
	resetting = await listen(createTcpServer((socket) => socket.resetAndDestroy()));
	const closed = createTcpServer();
	await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
	closedPort = (closed.address() as AddressInfo).port;
	await new Promise((r) => closed.close(r));
	const server = createRenderServer();
	tier = await listen(server);
});

afterAll(async () => {
	await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
	rmSync(dir, { recursive: true, force: true });
});

const failureOf = (promise: Promise<unknown>) =>
	promise.then(
		() => null,
		(e: unknown) => e as TierError,
	);

describe("no port-scan oracle", () => {
	const unreachable = () => ({
		"connection refused": `http://127.0.0.1:${closedPort}/v.mp4`,
		"connection reset": `${resetting}/v.mp4`,
		"HTTP 404": `${site}/missing.mp4`,
		"HTTP 403": `${site}/403.mp4`,
		"HTTP 500": `${site}/500.mp4`,
		"an address the egress proxy refuses": `${site}/to-forbidden.mp4`,
		"an unknown name": "http://nowhere.invalid/v.mp4",
	});

	it("probe: every way of not getting the source reads the same, over the tier's HTTP API too", async () => {
		const restorePolicy = useProductionPolicy();
		try {
			const answers = new Map<string, unknown>();
			for (const [what, url] of Object.entries(unreachable())) {
				const response = await signedPost(tier, renderJobs.probe.path, { url });
				const { error } = (await response.json()) as {
					error: { code: string; message: string; retryable: boolean };
				};
				answers.set(what, { status: response.status, code: error.code, message: error.message });
			}
			expect(
				new Set([...answers.values()].map((a) => JSON.stringify(a))).size,
				JSON.stringify(Object.fromEntries(answers), null, 1),
			).toBe(1);
			expect(answers.get("HTTP 404")).toEqual({
				status: 422,
				code: "unsupported_source",
				message: "The source could not be fetched.",
			});
		} finally {
			restorePolicy();
		}
	});

	it("where private sources are allowed (the tools meet the failures through the proxy), the same", async () => {
		const restore = useEgressResolver(async (host) =>
			host === "forbidden.test" ? ["10.0.0.9"] : host === "nowhere.invalid" ? [] : ["127.0.0.1"],
		);
		try {
			const failures = new Map<string, TierError | null>();
			for (const [what, url] of Object.entries(unreachable())) {
				if (what === "an address the egress proxy refuses") continue; // nothing is refused under this policy
				failures.set(what, await failureOf(probeSource(url)));
			}
			for (const [what, failure] of failures)
				expect([what, failure?.code, failure?.message]).toEqual([
					what,
					"unsupported_source",
					"The source could not be fetched.",
				]);
			// Still decided inside: a 4xx will not pass by retrying, a refused or reset connection or a 5xx may.
			expect(failures.get("HTTP 404")?.retryable).toBe(false);
			expect(failures.get("HTTP 500")?.retryable).toBe(true);
			expect(failures.get("connection refused")?.retryable).toBe(true);
		} finally {
			restore();
		}
	});

	it("media imports: a refused connection and an HTTP error read the same", async () => {
		const put = `${site}/upload`;
		const refused = await failureOf(
			importMedia(
				{ kind: "watermark", url: `http://127.0.0.1:${closedPort}/logo.png`, putUrl: put, limits: null },
				() => undefined,
				AbortSignal.timeout(60_000),
			),
		);
		const missing = await failureOf(
			importMedia(
				{ kind: "watermark", url: `${site}/logo.png`, putUrl: put, limits: null },
				() => undefined,
				AbortSignal.timeout(60_000),
			),
		);
		expect([refused?.code, refused?.message]).toEqual(["unsupported_source", "The source could not be fetched."]);
		expect([missing?.code, missing?.message]).toEqual(["unsupported_source", "The source could not be fetched."]);
	});
});

/** The production policy for one test: loopback (this test's servers) counted as public, forbidden.test private. */
function useProductionPolicy(): () => void {
	const saved = process.env.ALLOW_PRIVATE_SOURCES;
	process.env.ALLOW_PRIVATE_SOURCES = "false";
	const restore = useEgressResolver(
		async (host) => (host === "forbidden.test" ? ["10.0.0.9"] : host === "nowhere.invalid" ? [] : ["127.0.0.1"]),
		{ publicAddresses: ["127.0.0.1"] },
	);
	return () => {
		restore();
		process.env.ALLOW_PRIVATE_SOURCES = saved;
	};
}

describe("no signed URL leaves the tier", () => {
	const SIGNED = "exp=1893456000&sig=c2VjcmV0LXNpZ25hdHVyZQ";

	it("redactUrls keeps scheme, host and path; drops credentials, query and fragment", () => {
		expect(
			redactUrls(
				`https://clipforge.example.dev/internal/objects/sources/v1/source.mp4?${SIGNED}: Server returned 403 Forbidden`,
			),
		).toBe("https://clipforge.example.dev/internal/objects/sources/v1/source.mp4: Server returned 403 Forbidden");
		expect(redactUrls("Opening 'http://user:pa55@[::1]:8080/a.m3u8?token=x#frag' for reading")).toBe(
			"Opening 'http://[::1]:8080/a.m3u8' for reading",
		);
		expect(redactUrls("ERROR: [generic] source.mp4?sig=abc.def: Unable to download")).toBe(
			"ERROR: [generic] source.mp4: Unable to download",
		);
		expect(redactUrls("two: http://a.test/x?k=1 and https://b.test/?k=2.")).toBe(
			"two: http://a.test/x and https://b.test/.",
		);
	});

	async function streamedError(path: string, body: unknown): Promise<string> {
		const response = await signedPost(tier, path, body);
		const events = (await response.text())
			.trim()
			.split("\n")
			.map((line) => JobEvent.parse(JSON.parse(line)));
		const last = events.at(-1)!;
		expect(last.type).toBe("error");
		return JSON.stringify(last);
	}

	it("ffmpeg failing on a signed source URL (signals, extract-audio, render-clip): the error has no query string or credentials", async () => {
		const signed = `http://worker:pa55@${site.slice("http://".length)}/internal/objects/sources/v9/source.mp4?${SIGNED}`;
		const put = `${site}/internal/objects/out?${SIGNED}`;
		const errors = [
			await streamedError(renderJobs.signals.path, {
				videoId: "v9",
				sourceUrl: signed,
				duration: 10,
				start: 0,
				end: 10,
				putUrl: put,
			}),
			await streamedError(renderJobs.extractAudio.path, {
				videoId: "v9",
				sourceUrl: signed,
				chunks: [{ index: 0, start: 0, duration: 5, putUrl: put }],
			}),
			await streamedError(renderJobs.renderClip.path, {
				videoId: "v9",
				clipId: "c1",
				sourceUrl: signed,
				start: 0,
				end: 1,
				aspectRatio: "9:16",
				videoPutUrl: put,
				thumbnailPutUrl: put,
			}),
		];
		for (const error of errors) {
			expect(error).not.toContain("c2VjcmV0");
			expect(error).not.toContain("exp=");
			expect(error).not.toContain("pa55");
		}
		expect(errors[0]).toContain("/internal/objects/sources/v9/source.mp4"); // still says which file
	});

	it("yt-dlp's own words about a page (Unsupported URL: …) lose their query string too", async () => {
		const failure = await failureOf(probeSource(`${site}/page.html?${SIGNED}`));
		expect(failure?.code).toBe("unsupported_source");
		expect(failure?.message).not.toContain("c2VjcmV0");
		expect(failure?.message).not.toContain("exp=");
	});
});
