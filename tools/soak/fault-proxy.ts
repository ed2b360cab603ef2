/**
 * A TCP proxy that breaks a share of the connections through it, as a flaky network does: the soak
 * puts it between the Worker (RENDER_URL) and the render tier. Each new connection draws its fate:
 * most are forwarded untouched; of the broken share, a third is reset at once (RST, before a byte
 * reaches the tier), a third is cut within 2 s (mid-request), a third is cut later in its life
 * (mid-stream of a long NDJSON job), if it is still open then.
 */
import { createServer, Socket, type AddressInfo, type Server } from "node:net";

export type Fate = "kept" | "reset" | "cutEarly" | "cutMidLife";

export interface FaultProxyOptions {
	/** Where connections go: the tier's host and port. */
	target: { host: string; port: number };
	/** Share of connections broken, 0..1. */
	breakShare: number;
	/** A mid-life cut happens this long after the connection opened, drawn uniformly (ms; default 1-20 s: most job streams last that long). */
	midLifeMs?: [number, number];
	/** A seeded random source, for a repeatable soak. */
	random?: () => number;
	port?: number;
}

export interface FaultProxyCounts {
	connections: number;
	/** Fates carried out (a mid-life cut whose connection ended first is not counted). */
	reset: number;
	cutEarly: number;
	cutMidLife: number;
}

export interface FaultProxy {
	url: string;
	counts: FaultProxyCounts;
	/** Stops breaking connections (the rest of the run is clean); `setBreakShare(x)` changes the share. */
	setBreakShare(share: number): void;
	close(): Promise<void>;
}

/**
 * @example const proxy = await startFaultProxy({ target: { host: "127.0.0.1", port: 8788 }, breakShare: 0.1 });
 * // RENDER_URL=proxy.url
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
	const random = options.random ?? Math.random;
	const [midFrom, midTo] = options.midLifeMs ?? [1_000, 20_000];
	const counts: FaultProxyCounts = { connections: 0, reset: 0, cutEarly: 0, cutMidLife: 0 };
	let share = options.breakShare;
	const open = new Set<Socket>();
	const server: Server = createServer((client) => {
		counts.connections++;
		open.add(client);
		client.on("close", () => open.delete(client));
		const fate = drawFate(random, share);
		if (fate === "reset") {
			counts.reset++;
			client.resetAndDestroy();
			return;
		}
		const { upstream, isClosed } = pipeToTarget(client, options.target, open);
		if (fate === "kept") return;
		const after = fate === "cutEarly" ? random() * 2_000 : midFrom + random() * (midTo - midFrom);
		const timer = setTimeout(() => {
			if (isClosed()) return;
			if (fate === "cutEarly") counts.cutEarly++;
			else counts.cutMidLife++;
			// A hard cut: the Worker sees its connection reset, the tier its request closed.
			client.resetAndDestroy();
			upstream.destroy();
		}, after);
		timer.unref();
		client.on("close", () => clearTimeout(timer));
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		counts,
		setBreakShare: (next) => {
			share = next;
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of open) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** Pipes the client to a new connection to the target; either side closing or failing closes both. */
function pipeToTarget(client: Socket, target: FaultProxyOptions["target"], open: Set<Socket>) {
	const upstream = new Socket();
	open.add(upstream);
	upstream.on("close", () => open.delete(upstream));
	let closed = false;
	const closeBoth = () => {
		closed = true;
		client.destroy();
		upstream.destroy();
	};
	client.on("error", closeBoth);
	upstream.on("error", closeBoth);
	client.on("close", closeBoth);
	upstream.on("close", closeBoth);
	upstream.connect(target.port, target.host, () => {
		client.pipe(upstream);
		upstream.pipe(client);
	});
	return { upstream, isClosed: () => closed };
}

function drawFate(random: () => number, share: number): Fate {
	const draw = random();
	if (draw >= share) return "kept";
	const third = share / 3;
	return draw < third ? "reset" : draw < 2 * third ? "cutEarly" : "cutMidLife";
}

/** A small seeded generator (mulberry32), so a soak's faults can be replayed. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
