/**
 * The "rank moments" step's heap inside workerd, the runtime production runs (not Node, whose V8
 * is built differently): test/workerd/rank-step-worker.ts under `wrangler dev`, the whole Worker's
 * code loaded, ranking a long transcript offline and by ClipBasic's and ClipPro's LLM paths (an
 * instant stand-in model). Three measures per case:
 *
 * - the isolate's heap before and after ranking a 3-hour transcript, read through the inspector
 *   (`Runtime.getHeapUsage`: workerd's `process.memoryUsage()` answers zeros);
 * - the smallest V8 heap cap (`--max-heap-size`, through MINIFLARE_WORKERD_V8_FLAGS) under which
 *   that ranking still finishes: what it needs at its peak, to 4 MB;
 * - the longest transcript that ranks under a 128 MB cap, a Worker's memory, to half an hour.
 *
 * workerd does not enforce 128 MB by itself; the cap is V8's, and a ranking over it kills the
 * runtime (wrangler restarts it), so "passes" means it really fit. `npm run limits:report` runs
 * it and writes the figures into bench-results/limits.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { QUIET_WRANGLER_ENV, WRANGLER_BIN } from "../../scripts/wrangler.ts";
import { longTranscript } from "../bench-rank-step.ts";

const ROOT = join(import.meta.dirname, "..", "..");
export const CASES = ["offline", "ClipBasic", "ClipPro"] as const;
export type RankCase = (typeof CASES)[number];
export const ISOLATE_MB = 128;

export interface HeapUsage {
	usedMB: number;
	totalMB: number;
}

export interface WorkerdRankCase {
	case: RankCase;
	/** 3 hours: its words, clips and model calls. */
	words: number;
	clips: number;
	llmCalls: number;
	/** The isolate's heap with the Worker loaded, before the request. */
	before: HeapUsage;
	/** Right after ranking 3 hours (V8 seldom gives committed heap back while busy: `totalMB` is about the peak). */
	after: HeapUsage;
	/** The smallest `--max-heap-size` (MB, 4 MB steps) under which the 3 hours still rank. */
	smallestCapMB: number | null;
	/** The longest transcript (hours, half-hour steps, up to `searchedUpToHours`) that ranks under a 128 MB cap. */
	largestHoursAt128MB: number;
	searchedUpToHours: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

interface Session {
	origin: string;
	heap(): Promise<HeapUsage>;
	stop(): Promise<void>;
}

const CONFIG = join(ROOT, ".wrangler.rank-in-workerd.toml");

function writeConfig(): void {
	const production = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
	const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(production)?.[1];
	const flags = /^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(production)?.[1];
	if (!date || !flags) throw new Error("rank-in-workerd: wrangler.toml has no compatibility_date or flags");
	writeFileSync(
		CONFIG,
		`name = "clipforge-rank-in-workerd"\nmain = "test/workerd/rank-step-worker.ts"\ncompatibility_date = "${date}"\ncompatibility_flags = ${flags}\n`,
	);
}

/** `wrangler dev` of the rank worker, its V8 heap capped at `capMB` (null: V8's own limit). */
async function startWorkerd(capMB: number | null): Promise<Session> {
	const [port, inspectorPort] = [await freePort(), await freePort()];
	const env = { ...QUIET_WRANGLER_ENV, MINIFLARE_WORKERD_V8_FLAGS: capMB ? `--max-heap-size=${capMB}` : "" };
	const child: ChildProcess = spawn(
		process.execPath,
		[
			WRANGLER_BIN,
			"dev",
			"-c",
			CONFIG,
			"--ip",
			"127.0.0.1",
			"--port",
			String(port),
			"--inspector-port",
			String(inspectorPort),
			"--show-interactive-dev-session=false",
		],
		{ cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
	);
	let output = "";
	child.stdout!.on("data", (d: Buffer) => (output += d));
	child.stderr!.on("data", (d: Buffer) => (output += d));
	const origin = `http://127.0.0.1:${port}`;
	const stop = async () => {
		if (child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
		// The process group wrangler leads: wrangler and the workerd it started, nothing else.
		process.kill(-child.pid!, "SIGTERM");
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
		if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
	};
	const deadline = Date.now() + 120_000;
	for (;;) {
		try {
			await fetch(`${origin}/`);
			break;
		} catch {
			if (Date.now() > deadline || child.exitCode !== null) {
				await stop();
				throw new Error(`rank-in-workerd: wrangler dev did not start:\n${output.slice(-2000)}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
	return { origin, heap: () => heapUsage(inspectorPort), stop };
}

/** `Runtime.getHeapUsage` of the user worker's isolate, through wrangler's inspector proxy. */
async function heapUsage(inspectorPort: number): Promise<HeapUsage> {
	// wrangler's proxy wants an Origin (a DevTools page's); Node's WebSocket (undici) takes headers as an extension.
	const init = { headers: { Origin: "https://devtools.devprod.cloudflare.dev" } } as unknown as string[];
	const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, init);
	try {
		const answer = await new Promise<{ usedSize: number; totalSize: number }>((resolve, reject) => {
			socket.onerror = () => reject(new Error("rank-in-workerd: the inspector could not be reached"));
			socket.onopen = () => socket.send(JSON.stringify({ id: 1, method: "Runtime.getHeapUsage" }));
			socket.onmessage = (event) => {
				const message = JSON.parse(String(event.data)) as {
					id?: number;
					result?: { usedSize: number; totalSize: number };
				};
				if (message.id === 1 && message.result) resolve(message.result);
			};
		});
		return { usedMB: round1(answer.usedSize / 2 ** 20), totalMB: round1(answer.totalSize / 2 ** 20) };
	} finally {
		socket.close();
	}
}

interface Ranked {
	words: number;
	clips: number;
	llmCalls: number;
}

/** One ranking; null when the runtime died under it (over the heap cap) or answered an error. */
async function rank(session: Session, which: RankCase, transcriptJson: string): Promise<Ranked | null> {
	try {
		const response = await fetch(`${session.origin}/rank?case=${which}`, { method: "POST", body: transcriptJson });
		return response.ok ? ((await response.json()) as Ranked) : null;
	} catch {
		return null;
	}
}

const transcripts = new Map<number, string>();
function transcriptJson(hours: number): string {
	let json = transcripts.get(hours);
	if (!json) {
		json = JSON.stringify(longTranscript(hours * 3600));
		transcripts.set(hours, json);
	}
	return json;
}

/**
 * Whether `which` ranks `hours` of transcript inside workerd under a `capMB` V8 heap (a fresh
 * runtime, the whole Worker loaded): what tools/rank-in-workerd.test.ts asserts.
 */
export async function ranksWithin(which: RankCase, hours: number, capMB: number): Promise<boolean> {
	writeConfig();
	try {
		return await fits(which, hours, capMB);
	} finally {
		rmSync(CONFIG, { force: true });
	}
}

/** Whether `which` ranks `hours` under a `capMB` heap, in a fresh runtime (`atOnce` rankings at the same time). */
async function fits(which: RankCase, hours: number, capMB: number, atOnce = 1): Promise<boolean> {
	const session = await startWorkerd(capMB);
	try {
		const json = transcriptJson(hours);
		const ranked = await Promise.all(Array.from({ length: atOnce }, () => rank(session, which, json)));
		return ranked.every((r) => r !== null);
	} finally {
		await session.stop();
	}
}

/** The smallest integer n in [lo, hi] with `ok(n)` (ok is monotone), or null when even hi fails. */
async function smallest(lo: number, hi: number, ok: (n: number) => Promise<boolean>): Promise<number | null> {
	if (!(await ok(hi))) return null;
	while (lo < hi) {
		const mid = Math.floor((lo + hi) / 2);
		if (await ok(mid)) hi = mid;
		else lo = mid + 1;
	}
	return hi;
}

export interface WorkerdRankReport {
	cases: WorkerdRankCase[];
	/** Two 3-hour ClipBasic rankings at once in one isolate (two videos' steps): the smallest cap, MB. */
	twoAtOnceSmallestCapMB: number | null;
}

export async function measureRankInWorkerd(
	options: { maxHours?: number; log?: (line: string) => void } = {},
): Promise<WorkerdRankReport> {
	const log = options.log ?? (() => {});
	const maxHours = options.maxHours ?? 12;
	writeConfig();
	try {
		const results: WorkerdRankCase[] = [];
		for (const which of CASES) {
			const session = await startWorkerd(null);
			let before: HeapUsage;
			let after: HeapUsage;
			let ranked: Ranked | null;
			try {
				before = await session.heap();
				ranked = await rank(session, which, transcriptJson(3));
				after = await session.heap();
			} finally {
				await session.stop();
			}
			if (!ranked) throw new Error(`rank-in-workerd: ${which} did not rank 3 hours even without a cap`);
			log(`${which}: 3 h ranked, heap ${before.totalMB} → ${after.totalMB} MB committed (${after.usedMB} used)`);
			// 4 MB steps: caps from 8 to 128 MB.
			const steps = await smallest(2, ISOLATE_MB / 4, (n) => fits(which, 3, n * 4));
			const smallestCapMB = steps === null ? null : steps * 4;
			log(`${which}: 3 h rank under a cap of ${smallestCapMB ?? `more than ${ISOLATE_MB}`} MB`);
			// Half-hour steps from 1 h to maxHours: the first that does not fit, less half an hour.
			const tooLong = await smallest(2, maxHours * 2 + 1, async (n) => !(await fits(which, n / 2, ISOLATE_MB)));
			const largestHoursAt128MB = ((tooLong ?? maxHours * 2 + 1) - 1) / 2;
			log(`${which}: up to ${largestHoursAt128MB} h rank under ${ISOLATE_MB} MB (searched to ${maxHours} h)`);
			results.push({
				case: which,
				...ranked,
				before,
				after,
				smallestCapMB,
				largestHoursAt128MB,
				searchedUpToHours: maxHours,
			});
		}
		const two = await smallest(2, ISOLATE_MB / 4, (n) => fits("ClipBasic", 3, n * 4, 2));
		const twoAtOnceSmallestCapMB = two === null ? null : two * 4;
		log(
			`two ClipBasic rankings of 3 h at once: under a cap of ${twoAtOnceSmallestCapMB ?? `more than ${ISOLATE_MB}`} MB`,
		);
		return { cases: results, twoAtOnceSmallestCapMB };
	} finally {
		rmSync(CONFIG, { force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const results = await measureRankInWorkerd({ log: (line) => console.log(line) });
	console.log(JSON.stringify(results, null, 2));
}
