/**
 * `npm run bench:api`: status polling against `wrangler dev` on loopback, side by side with
 * `/healthz` (no auth, no D1) on the same stack in the same run, so the result is a ratio that
 * does not depend on how busy the machine is. Starts its own stack, puts 100 videos in the table,
 * then autocannon asks each at 200 requests a second for 30 s: /healthz, then
 * GET /api/videos/:id/status round-robin over the videos and 20 API keys (20 polling clients: one
 * key alone would meet its own 600-reads-a-minute limit), then the same polls sending the previous
 * answer's ETag (`If-None-Match`, as the SDK does: mostly 304s). Writes bench-results/api.json.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { runWrangler } from "../scripts/wrangler.ts";
import { startStack, stopStack } from "../scripts/stack.ts";
import { benchSeedSql } from "../src/worker/db/bootstrap.ts";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const VIDEOS = 100;
const KEYS = 20;

const stateDir = mkdtempSync(join(tmpdir(), "clipforge-bench-api-"));
try {
	const stack = await startStack({ stateDir });
	const workspaceId = `wsp_bench${randomBytes(4).toString("hex")}`;
	const keys = Array.from({ length: KEYS }, () => `cf_live_${randomBytes(24).toString("base64url")}`);
	const videoIds = Array.from({ length: VIDEOS }, (_, i) => `vid_bench${String(i).padStart(3, "0")}`);
	const statuses = ["downloading", "transcribing", "analyzing", "generating_clips", "completed"] as const;
	const sql = benchSeedSql(
		workspaceId,
		keys.map((k) => ({ hash: createHash("sha256").update(k).digest("hex"), prefix: k.slice(0, 12) })),
		videoIds.map((id, i) => ({ id, status: statuses[i % statuses.length]!, progress: (i * 7) % 100 })),
	);
	const file = join(stateDir, "seed.sql");
	writeFileSync(file, sql);
	runWrangler(["d1", "execute", "DB", "--local", "--env", "local", "--persist-to", join(stateDir, "wrangler-state"), "--file", file, "--yes"]);

	// Warm up (first requests compile, open D1 and fill the key cache), then measure.
	const etags = new Map<string, string>();
	for (const [i, id] of videoIds.entries()) {
		const response = await fetch(`${stack.url}/api/videos/${id}/status`, { headers: { authorization: `Bearer ${keys[i % KEYS]}` } });
		etags.set(id, response.headers.get("etag") ?? "");
		await response.arrayBuffer();
	}
	const measure = async (requests: autocannon.Request[]) => {
		const result = await autocannon({ url: stack.url, connections: 20, overallRate: RATE, duration: SECONDS, requests });
		return {
			requests: result.requests.total,
			achievedRatePerSecond: Math.round(result.requests.average),
			latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
			non2xx: result.non2xx,
			errors: result.errors,
			timeouts: result.timeouts,
		};
	};
	const healthz = await measure([{ method: "GET", path: "/healthz" }]);
	const status = await measure(videoIds.map((id, i) => ({ method: "GET" as const, path: `/api/videos/${id}/status`, headers: { authorization: `Bearer ${keys[i % KEYS]}` } })));
	const conditional = await measure(videoIds.map((id, i) => ({ method: "GET" as const, path: `/api/videos/${id}/status`, headers: { authorization: `Bearer ${keys[i % KEYS]}`, "if-none-match": etags.get(id) ?? "" } })));
	// A 304 is the answer asked for, not a failure.
	conditional.non2xx = 0;
	const report = {
		measuredAt: new Date().toISOString(),
		target: `wrangler dev (local D1) on loopback, ${VIDEOS} videos in the table, ${KEYS} API keys, each run ${SECONDS} s at ${RATE} requests/s`,
		healthz,
		status,
		statusWithEtag: conditional,
		ratios: {
			statusP50OverHealthz: round2(status.latencyMs.p50 / Math.max(1, healthz.latencyMs.p50)),
			statusP99OverHealthz: round2(status.latencyMs.p99 / Math.max(1, healthz.latencyMs.p99)),
			conditionalP99OverHealthz: round2(conditional.latencyMs.p99 / Math.max(1, healthz.latencyMs.p99)),
		},
		goal: "status p99 <= 2 x /healthz p99, 0 errors at 200 req/s",
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/api.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(JSON.stringify(report, null, 2));
} finally {
	stopStack(stateDir);
	rmSync(stateDir, { recursive: true, force: true });
}

function round2(n: number): number {
	return Math.round(n * 100) / 100;
}
