/** The soak's fault-injecting proxy: what it forwards, and that it breaks the share it is told to, each way. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom, startFaultProxy } from "./fault-proxy.ts";

let upstream: Server;
let port: number;

beforeAll(async () => {
	// Answers at once, or streams a line every 100 ms for 3 s (a long-lived job stream).
	upstream = createServer((req, res) => {
		if (req.url !== "/stream") return res.end("pong");
		let n = 0;
		const timer = setInterval(() => {
			res.write(`line ${n++}\n`);
			if (n === 30) {
				clearInterval(timer);
				res.end();
			}
		}, 100);
		res.on("close", () => clearInterval(timer));
	}).listen(0, "127.0.0.1");
	await new Promise((r) => upstream.once("listening", r));
	port = (upstream.address() as AddressInfo).port;
});

afterAll(() => {
	upstream.closeAllConnections();
	upstream.close();
});

const get = (url: string) => fetch(url, { headers: { connection: "close" } }).then((r) => r.text());

describe("the fault proxy", () => {
	it("forwards every connection untouched at a share of 0", async () => {
		const proxy = await startFaultProxy({ target: { host: "127.0.0.1", port }, breakShare: 0 });
		try {
			for (let i = 0; i < 5; i++) expect(await get(`${proxy.url}/ping`)).toBe("pong");
			expect((await get(`${proxy.url}/stream`)).split("\n").filter(Boolean)).toHaveLength(30);
			expect(proxy.counts).toEqual({ connections: 6, reset: 0, cutEarly: 0, cutMidLife: 0 });
		} finally {
			await proxy.close();
		}
	});

	it("at a share of 1 resets, cuts early or cuts mid-life every connection, each in a third", async () => {
		const proxy = await startFaultProxy({
			target: { host: "127.0.0.1", port },
			breakShare: 1,
			midLifeMs: [200, 400],
			random: seededRandom(7),
		});
		try {
			const outcomes = await Promise.all(
				Array.from({ length: 30 }, () =>
					get(`${proxy.url}/stream`).then(
						(text) => text.split("\n").filter(Boolean).length,
						() => -1,
					),
				),
			);
			// No stream got all its lines: each was reset before a byte, or cut while it streamed.
			expect(outcomes.every((lines) => lines < 30)).toBe(true);
			const { reset, cutEarly, cutMidLife } = proxy.counts;
			expect(reset + cutEarly + cutMidLife).toBe(30);
			for (const share of [reset, cutEarly, cutMidLife]) expect(share).toBeGreaterThan(3);
		} finally {
			await proxy.close();
		}
	});
});
