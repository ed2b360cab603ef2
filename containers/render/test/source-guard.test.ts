import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPrivateAddress } from "@clipforge/contract";
import { useEgressResolver } from "../src/egress/policy.ts";
import { assertFetchableSource, resolveSource } from "../src/source/guard.ts";
import { TierError } from "../src/runtime/tier-error.ts";

let server: Server;
let base: string;

beforeAll(async () => {
	// /hop/N redirects N more times before landing on /video.mp4; /evil redirects to cloud metadata.
	server = createServer((req, res) => {
		const url = req.url ?? "/";
		const hop = /^\/hop\/(\d+)$/.exec(url);
		if (hop)
			return res
				.writeHead(302, { location: Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}` : "/video.mp4" })
				.end();
		if (url === "/evil") return res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
		res.writeHead(206, { "content-type": "video/mp4" }).end("x");
	}).listen(0, "127.0.0.1");
	await new Promise((r) => server.once("listening", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

/** The production policy, except that this test server's own loopback host counts as public. */
const policyTrustingTestServer = async (url: string) => {
	const host = new URL(url).host;
	if (host === new URL(base).host) return;
	if (isPrivateAddress(new URL(url).hostname))
		throw new TierError("invalid_url", `The host ${new URL(url).hostname} is not a public address.`, false, 400);
};

describe("resolveSource", () => {
	it("follows redirects hop by hop to the final URL", async () => {
		expect(await resolveSource(`${base}/hop/3`, policyTrustingTestServer)).toBe(`${base}/video.mp4`);
	});

	it("refuses a redirect to a private or metadata address before anything fetches it", async () => {
		await expect(resolveSource(`${base}/evil`, policyTrustingTestServer)).rejects.toMatchObject({
			code: "invalid_url",
		});
	});

	it("refuses endless redirects", async () => {
		await expect(resolveSource(`${base}/hop/9`, policyTrustingTestServer)).rejects.toMatchObject({
			code: "unsupported_source",
		});
	});

	it("in production refuses loopback, private and metadata hosts outright, and names that resolve to them", async () => {
		const saved = process.env.ALLOW_PRIVATE_SOURCES;
		process.env.ALLOW_PRIVATE_SOURCES = "false";
		try {
			for (const url of [
				`${base}/video.mp4`,
				"http://10.1.2.3/x",
				"http://[::1]/x",
				"http://169.254.169.254/",
				"http://localhost/x",
				"http://[fd12::1]/x",
				"http://100.100.1.1/x",
			]) {
				await expect(resolveSource(url)).rejects.toMatchObject({ code: "invalid_url" });
			}
		} finally {
			process.env.ALLOW_PRIVATE_SOURCES = saved;
		}
	});
});

describe("assertFetchableSource after DNS resolution", () => {
	it("refuses a public-looking name that resolves to a private address, accepts a public one", async () => {
		const saved = process.env.ALLOW_PRIVATE_SOURCES;
		process.env.ALLOW_PRIVATE_SOURCES = "false";
		const restore = useEgressResolver(async (host: string) => [
			host === "rebind.example.com" ? "10.0.0.5" : "93.184.216.34",
		]);
		try {
			await expect(assertFetchableSource("https://rebind.example.com/v.mp4")).rejects.toMatchObject({
				code: "invalid_url",
			});
			await expect(assertFetchableSource("https://videos.example.com/v.mp4")).resolves.toBeUndefined();
		} finally {
			restore();
			process.env.ALLOW_PRIVATE_SOURCES = saved;
		}
	});
});
