/**
 * `npm run bench:api`: status polling against `wrangler dev` on loopback, side by side with
 * `/healthz` (no auth, no D1) on the same stack in the same run, so the result is a ratio that
 * does not depend on how busy the machine is. Starts its own stack, puts 100 videos in the table
 * spread over 25 workspaces with a key each (a fifth of the videos waiting for a slot, so their
 * place in line is computed), then runs three rounds of: /healthz, GET /api/videos/:id/status
 * round-robin over the videos with their workspace's key (25 polling workspaces at 8 reads a
 * second each: a workspace may read 600 a minute), and the same polls sending the previous
 * answer's ETag (`If-None-Match`, as the SDK does: mostly 304s); each phase 30 s at 200 requests a
 * second (BENCH_SECONDS, BENCH_RATE). The phases' order turns each round, so drift in the
 * machine's load does not always favour one of them. The stack runs with wrangler.toml's
 * STATUS_MAX_AGE_MS (2 s: one D1 read answers a video's polls for 2 s in an isolate);
 * BENCH_STATUS_MAX_AGE_MS=0 measures every poll reading D1.
 *
 * The profile: the Worker answers with `Server-Timing` (SERVER_TIMING=true, middleware/server-timing.ts),
 * so each status answer says how long authentication, the rate limiter, the D1 read and building
 * the answer took inside it; the rest of what the client waited is the HTTP path both endpoints share.
 * Writes bench-results/api.json: per round p50/p99 and ratios, their medians, the profile.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { localD1Execute, runWrangler } from "../scripts/wrangler.ts";
import { startStack, stopStack } from "../scripts/stack.ts";
import { benchSeedSql } from "../src/worker/db/bootstrap.ts";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const VIDEOS = 100;
const WORKSPACES = 25;
const STATUS_MAX_AGE_MS = process.env.BENCH_STATUS_MAX_AGE_MS;

type Phase = "healthz" | "status" | "statusWithEtag";
const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const stateDir = mkdtempSync(join(tmpdir(), "clipforge-bench-api-"));
try {
	const stack = await startStack({
		stateDir,
		workerVars: {
			SERVER_TIMING: "true",
			...(STATUS_MAX_AGE_MS !== undefined ? { STATUS_MAX_AGE_MS } : {}),
		},
	});
	const keys = Array.from({ length: WORKSPACES }, () => `cf_live_${randomBytes(24).toString("base64url")}`);
	const videoIds = Array.from({ length: VIDEOS }, (_, i) => `vid_bench${String(i).padStart(3, "0")}`);
	const statuses = ["downloading", "transcribing", "analyzing", "generating_clips", "completed"] as const;
	// Video i belongs to workspace i mod 25, polled with that workspace's key.
	const sql = keys
		.map((key, w) =>
			benchSeedSql(
				`wsp_bench${String(w).padStart(2, "0")}${randomBytes(3).toString("hex")}`,
				[{ hash: createHash("sha256").update(key).digest("hex"), prefix: key.slice(0, 12) }],
				videoIds
					.map((id, i) => ({ id, status: statuses[i % statuses.length]!, progress: (i * 7) % 100, i }))
					.filter((v) => v.i % WORKSPACES === w)
					.map(({ i: _i, ...v }) => v),
			).replaceAll("'key_bench0'", `'key_bench_w${w}'`),
		)
		.join("\n");
	const file = join(stateDir, "seed.sql");
	writeFileSync(file, sql);
	runWrangler([...localD1Execute(join(stateDir, "wrangler-state")), "--file", file, "--yes"]);

	// Warm up (first requests compile, open D1 and fill the key cache), and keep each video's ETag.
	const etags = new Map<string, string>();
	for (const [i, id] of videoIds.entries()) {
		const response = await fetch(`${stack.url}/api/videos/${id}/status`, {
			headers: { authorization: `Bearer ${keys[i % WORKSPACES]}` },
		});
		etags.set(id, response.headers.get("etag") ?? "");
		await response.arrayBuffer();
	}
	const timings: Record<string, number[]> = {};
	const recordTiming = (
		_status: number,
		_body: string,
		_context: object,
		headers: Record<string, string | string[] | undefined> | undefined,
	) => {
		// autocannon keeps the header names as sent.
		const header = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "server-timing")?.[1];
		for (const part of (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",")) {
			const match = /([\w-]+);dur=([\d.]+)/.exec(part.trim());
			if (match) (timings[match[1]!] ??= []).push(Number(match[2]));
		}
	};
	const requests: Record<Phase, autocannon.Request[]> = {
		healthz: [{ method: "GET", path: "/healthz" }],
		status: videoIds.map((id, i) => ({
			method: "GET" as const,
			path: `/api/videos/${id}/status`,
			headers: { authorization: `Bearer ${keys[i % WORKSPACES]}` },
			onResponse: recordTiming,
		})),
		statusWithEtag: videoIds.map((id, i) => ({
			method: "GET" as const,
			path: `/api/videos/${id}/status`,
			headers: { authorization: `Bearer ${keys[i % WORKSPACES]}`, "if-none-match": etags.get(id) ?? "" },
		})),
	};
	const measure = async (phase: Phase) => {
		const result = await autocannon({
			url: stack.url,
			connections: 20,
			overallRate: RATE,
			duration: SECONDS,
			requests: requests[phase],
		});
		return {
			requests: result.requests.total,
			achievedRatePerSecond: Math.round(result.requests.average),
			latencyMs: {
				p50: result.latency.p50,
				p90: result.latency.p90,
				p99: result.latency.p99,
				max: result.latency.max,
				mean: round2(result.latency.average),
			},
			// A 304 is the answer asked for, not a failure.
			non2xx: phase === "statusWithEtag" ? result.non2xx - (result["3xx"] ?? 0) : result.non2xx,
			errors: result.errors,
			timeouts: result.timeouts,
			loadAverage: round2(loadavg()[0]!),
		};
	};
	const orders: Phase[][] = [
		["healthz", "status", "statusWithEtag"],
		["status", "statusWithEtag", "healthz"],
		["statusWithEtag", "healthz", "status"],
	];
	const rounds = [];
	for (let r = 0; r < ROUNDS; r++) {
		const phases = {} as Record<Phase, Awaited<ReturnType<typeof measure>>>;
		for (const phase of orders[r % orders.length]!) phases[phase] = await measure(phase);
		const ratio = (phase: Phase, p: "p50" | "p99") =>
			round2(phases[phase].latencyMs[p] / Math.max(1, phases.healthz.latencyMs[p]));
		rounds.push({
			order: orders[r % orders.length],
			...phases,
			ratios: {
				statusP50: ratio("status", "p50"),
				statusP99: ratio("status", "p99"),
				conditionalP50: ratio("statusWithEtag", "p50"),
				conditionalP99: ratio("statusWithEtag", "p99"),
			},
		});
		console.log(
			JSON.stringify({
				round: r + 1,
				ratios: rounds[r]!.ratios,
				healthz: phases.healthz.latencyMs,
				status: phases.status.latencyMs,
			}),
		);
	}
	const profile = Object.fromEntries(
		Object.entries(timings).map(([phase, values]) => [
			phase,
			{
				n: values.length,
				p50: round2(percentile(values, 50)),
				p99: round2(percentile(values, 99)),
				mean: round2(values.reduce((a, b) => a + b, 0) / values.length),
			},
		]),
	);
	const statusP50 = median(rounds.map((r) => r.status.latencyMs.p50));
	const report = {
		measuredAt: new Date().toISOString(),
		machine: `${availableParallelism()} cores; load average per phase is beside it (more than the cores: a shared machine)`,
		target: `wrangler dev (local D1) on loopback, ${VIDEOS} videos in the table over ${WORKSPACES} workspaces with a key each, ${ROUNDS} rounds of three phases, each ${SECONDS} s at ${RATE} requests/s; STATUS_MAX_AGE_MS ${STATUS_MAX_AGE_MS ?? "as wrangler.toml (2000)"}`,
		rounds,
		ratios: {
			statusP50OverHealthz: {
				perRound: rounds.map((r) => r.ratios.statusP50),
				median: median(rounds.map((r) => r.ratios.statusP50)),
			},
			statusP99OverHealthz: {
				perRound: rounds.map((r) => r.ratios.statusP99),
				median: median(rounds.map((r) => r.ratios.statusP99)),
			},
			conditionalP50OverHealthz: {
				perRound: rounds.map((r) => r.ratios.conditionalP50),
				median: median(rounds.map((r) => r.ratios.conditionalP50)),
			},
			conditionalP99OverHealthz: {
				perRound: rounds.map((r) => r.ratios.conditionalP99),
				median: median(rounds.map((r) => r.ratios.conditionalP99)),
			},
		},
		profile: {
			about: "Server-Timing of every status answer in the status phases, ms, as the Worker's clock moves (with I/O: computation shows as ~0). auth: key hash + verified-key cache; limiter: paying READ_LIMITER for a batch of 10 reads, on a read with none paid left (runs beside the handler; absent on the other reads); limiter-wait: how long the answer then still waited for it; d1: the one status query; view: building the body and its ETag; app: the whole Worker, first middleware to last.",
			phases: profile,
			statusP50Ms: statusP50,
			healthzP50Ms: median(rounds.map((r) => r.healthz.latencyMs.p50)),
			/** What the client waited beyond the Worker's own time: the HTTP path (wrangler dev's proxy, workerd), the same for /healthz. */
			outsideTheWorkerP50Ms: round2(statusP50 - (profile.app?.p50 ?? 0)),
			/** The status p50 without its D1 read (the local simulator: a Durable Object running SQLite), over /healthz's p50. */
			statusWithoutD1P50OverHealthz: round2(
				(statusP50 - (profile.d1?.p50 ?? 0)) / Math.max(1, median(rounds.map((r) => r.healthz.latencyMs.p50))),
			),
			d1ShareOfStatusP50: round2((profile.d1?.p50 ?? 0) / Math.max(1, statusP50)),
			/** Status answers whose D1 phase took no time: served by the status cache (2 s per video per isolate). */
			servedFromCacheShare: round2(
				(timings.d1 ?? []).filter((ms) => ms === 0).length / Math.max(1, (timings.d1 ?? []).length),
			),
		},
		goal: "status p50 and p99 <= 1.5 x /healthz, 0 errors at 200 req/s spread over workspaces",
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/api.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(JSON.stringify({ ratios: report.ratios, profile: report.profile }, null, 2));
} finally {
	stopStack(stateDir);
	rmSync(stateDir, { recursive: true, force: true });
}
