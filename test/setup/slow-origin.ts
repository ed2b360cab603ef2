/**
 * A real HTTP server on loopback, outside the Workers runtime, that holds each request for a
 * while before answering its headers and counts how many wait at once: what the Workers runtime's
 * connection limit (six waiting for headers per invocation) would be seen from the far end.
 * vitest's global setup (vitest.config.ts) starts it; tests get its origin with
 * `inject("slowOrigin")` (test/integration/outgoing-connections.test.ts).
 *
 * - `GET /wait?run=<id>&ms=<n>`: headers and `ok` after n ms;
 * - `POST /job?run=<id>&ms=<n>`: after n ms, a render job's NDJSON answer (one `result` event,
 *   an `upload` job's);
 * - `GET /stats?run=<id>`: for that run, the most requests waiting for headers at once, and when
 *   each arrived and was answered (ms since the run's first arrival).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
	export interface ProvidedContext {
		slowOrigin: string;
	}
}

interface Run {
	firstAt: number;
	waiting: number;
	mostWaiting: number;
	arrivedMs: number[];
	answeredMs: number[];
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const runs = new Map<string, Run>();
	const runOf = (id: string): Run => {
		let run = runs.get(id);
		if (!run) {
			run = { firstAt: Date.now(), waiting: 0, mostWaiting: 0, arrivedMs: [], answeredMs: [] };
			runs.set(id, run);
		}
		return run;
	};
	const handle = (request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? "/", "http://origin");
		const run = runOf(url.searchParams.get("run") ?? "");
		if (url.pathname === "/stats") {
			const { firstAt: _firstAt, waiting, ...stats } = run;
			response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...stats, waiting }));
			return;
		}
		const ms = Number(url.searchParams.get("ms") ?? 0);
		run.waiting++;
		run.mostWaiting = Math.max(run.mostWaiting, run.waiting);
		run.arrivedMs.push(Date.now() - run.firstAt);
		request.resume();
		setTimeout(() => {
			run.waiting--;
			run.answeredMs.push(Date.now() - run.firstAt);
			if (url.pathname === "/job") {
				response.writeHead(200, { "content-type": "application/x-ndjson" });
				response.end(`${JSON.stringify({ type: "result", result: { bytes: 0 } })}\n`);
			} else {
				response.writeHead(200, { "content-type": "text/plain" }).end("ok");
			}
		}, ms);
	};
	const server = createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	project.provide("slowOrigin", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
	return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
