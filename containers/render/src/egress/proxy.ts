/**
 * The filtering forward proxy every process of the tier reaches the network through (yt-dlp with
 * `--proxy`, ffmpeg and ffprobe with `-http_proxy`, all of them with `http_proxy`/`https_proxy` in
 * their environment: see run-process.ts). It listens on loopback only. For each connection it
 * resolves the host itself, checks every address with the egress policy and connects to a checked
 * address, never to the name again, so the check holds at connect time for redirects, HLS/DASH
 * segments and keys, embedded URLs and DNS answers that change:
 *
 * - `CONNECT host:port` (https, which ffmpeg 5.1 and yt-dlp both tunnel): a TCP tunnel to the checked address;
 * - absolute-form requests (`GET http://host/path`): forwarded to the checked address, the response
 *   streamed back; redirects are the client's to follow, so each hop comes back through here.
 *
 * A refused address answers 403, an unreachable one 502, a connect timeout 504: the tools then fail
 * with an ordinary HTTP error, which the tier reports like any other source error (no oracle).
 */
import {
	createServer,
	request as httpRequest,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { checkedAddresses, EgressRefusedError } from "./policy.ts";

const CONNECT_TIMEOUT_MS = 10_000;
/** A tunnel or request with no bytes either way for this long is closed (tools have their own, shorter, timeouts). */
const IDLE_TIMEOUT_MS = 5 * 60_000;
/** Headers that belong to one hop (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set([
	"connection",
	"keep-alive",
	"proxy-connection",
	"proxy-authorization",
	"proxy-authenticate",
	"te",
	"trailer",
	"upgrade",
]);

export interface EgressProxy {
	/** `http://127.0.0.1:PORT`, what the tools are given. */
	readonly url: string;
	/** What went through so far: requests forwarded, tunnels opened, connections refused by the policy. */
	readonly stats: EgressStats;
	close(): Promise<void>;
}

export interface EgressStats {
	forwarded: number;
	tunnels: number;
	refused: number;
}

/** Starts a proxy on a free loopback port. */
export async function startEgressProxy(): Promise<EgressProxy> {
	const stats: EgressStats = { forwarded: 0, tunnels: 0, refused: 0 };
	const server = createServer({ requestTimeout: 0 }, (req, res) => forwardRequest(req, res, stats));
	// Tunnels leave the server's own bookkeeping once CONNECT is answered: close() ends them here.
	const tunnels = new Set<Duplex>();
	server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
		tunnels.add(client);
		client.on("close", () => tunnels.delete(client));
		openTunnel(req, client, head, stats);
	});
	server.on("clientError", (_error, socket) => socket.destroy());
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		stats,
		close: () => {
			for (const tunnel of tunnels) tunnel.destroy();
			return closeServer(server);
		},
	};
}

let shared: Promise<EgressProxy> | null = null;

/** The tier's one proxy, started on first use and kept for the life of the process. */
export function egressProxy(): Promise<EgressProxy> {
	shared ??= startEgressProxy();
	return shared;
}

/** `CONNECT host:port`: check, connect to the checked address, then splice the two sockets. */
function openTunnel(req: IncomingMessage, client: Duplex, head: Buffer, stats: EgressStats): void {
	client.on("error", () => client.destroy());
	const target = parseAuthority(req.url ?? "");
	if (!target) return void refuseRaw(client, 400, "Bad Request");
	connectChecked(target.host, target.port)
		.then((upstream) => {
			stats.tunnels++;
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			if (head.length > 0) upstream.write(head);
			upstream.setTimeout(IDLE_TIMEOUT_MS, () => upstream.destroy());
			upstream.on("error", () => client.destroy());
			upstream.on("close", () => client.destroy());
			client.on("close", () => upstream.destroy());
			upstream.pipe(client);
			client.pipe(upstream);
		})
		.catch((error: unknown) => {
			const [status, reason] = failureStatus(error, stats);
			refuseRaw(client, status, reason);
		});
}

/** `GET http://host/path` and friends: forward to the checked address with the original Host. */
function forwardRequest(req: IncomingMessage, res: ServerResponse, stats: EgressStats): void {
	let url: URL;
	try {
		url = new URL(req.url ?? "");
	} catch {
		return void refuse(res, 400, "Bad Request");
	}
	if (url.protocol !== "http:") return void refuse(res, 400, "Bad Request");
	const port = Number(url.port || 80);
	connectChecked(url.hostname, port)
		.then((socket) => {
			stats.forwarded++;
			const upstream = httpRequest({
				// No agent: with createConnection alone, Node sends the request on the checked socket.
				createConnection: () => socket,
				method: req.method,
				path: `${url.pathname}${url.search}`,
				headers: forwardHeaders(req.headers, url.host),
				setHost: false,
			});
			upstream.setTimeout(IDLE_TIMEOUT_MS, () => upstream.destroy(new Error("idle")));
			upstream.on("response", (answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardHeaders(answer.headers, null));
				answer.pipe(res);
			});
			upstream.on("error", () => (res.headersSent ? res.destroy() : refuse(res, 502, "Bad Gateway")));
			res.on("close", () => upstream.destroy());
			req.pipe(upstream);
		})
		.catch((error: unknown) => {
			const [status, reason] = failureStatus(error, stats);
			refuse(res, status, reason);
		});
}

/** Resolves and checks `host`, then connects to its checked addresses in turn (never to the name). */
async function connectChecked(host: string, port: number): Promise<Socket> {
	const addresses = await checkedAddresses(host);
	let lastError: unknown = null;
	for (const address of addresses) {
		try {
			return await connectTo(address, port);
		} catch (error) {
			lastError = error;
		}
	}
	throw lastError;
}

function connectTo(address: string, port: number): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const socket = connect({ host: address, port });
		socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
			socket.destroy(Object.assign(new Error("connect timeout"), { code: "ETIMEDOUT" })),
		);
		socket.once("connect", () => {
			socket.setTimeout(0);
			socket.removeAllListeners("error");
			resolve(socket);
		});
		socket.once("error", reject);
	});
}

function failureStatus(error: unknown, stats: EgressStats): [number, string] {
	if (error instanceof EgressRefusedError) {
		stats.refused++;
		log({ event: "egress refused", host: error.host, reason: error.message });
		return [403, "Forbidden"];
	}
	if ((error as { code?: string } | null)?.code === "ETIMEDOUT") return [504, "Gateway Timeout"];
	return [502, "Bad Gateway"];
}

function forwardHeaders(headers: IncomingHttpHeaders, host: string | null): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined || HOP_BY_HOP.has(name)) continue;
		out[name] = value;
	}
	if (host !== null) out.host = headers.host ?? host;
	// One request per upstream connection: the pinned socket belongs to this request only.
	if (host !== null) out.connection = "close";
	return out;
}

/** `host:port` of a CONNECT line (`[::1]:443` for IPv6), or null. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
	const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
	if (!match) return null;
	const port = Number(match[2]);
	if (port < 1 || port > 65535) return null;
	return { host: match[1]!, port };
}

function refuse(res: ServerResponse, status: number, reason: string): void {
	if (res.headersSent) return void res.destroy();
	res.writeHead(status, reason, { "content-type": "text/plain", connection: "close" }).end(`${reason}\n`);
}

function refuseRaw(socket: Duplex, status: number, reason: string): void {
	socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
}

function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}

function log(fields: Record<string, unknown>): void {
	if (process.env.RENDER_QUIET === "true") return;
	console.log(JSON.stringify({ at: new Date().toISOString(), ...fields }));
}
