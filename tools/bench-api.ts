/**
 * `npm run bench:api`: status polling against `wrangler dev` on loopback. Starts its own stack,
 * puts 100 videos in the table, then autocannon asks GET /api/videos/:id/status at 200 requests a
 * second for 30 s, round-robin over the videos and over 20 API keys (20 polling clients: one key
 * alone would meet its own 600-reads-a-minute limit). Writes bench-results/api.json.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { runWrangler } from "../scripts/wrangler.ts";
import { startStack, stopStack } from "../scripts/stack.ts";

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
	const statuses = ["downloading", "transcribing", "analyzing", "generating_clips", "completed"];
	const sql = [
		`INSERT INTO workspaces (id, name, minutes_balance) VALUES ('${workspaceId}', 'bench', 0);`,
		`INSERT INTO plans (id, workspace_id, name) VALUES ('pln_${workspaceId}', '${workspaceId}', 'bench');`,
		...keys.map((k, i) => `INSERT INTO api_keys (id, workspace_id, name, key_hash, prefix) VALUES ('key_bench${i}', '${workspaceId}', 'bench ${i}', '${createHash("sha256").update(k).digest("hex")}', '${k.slice(0, 12)}');`),
		...videoIds.map(
			(id, i) =>
				`INSERT INTO videos (id, workspace_id, source_url, title, status, progress, config, source_video_id, duration, thumbnail, channel_name, minutes_charged) VALUES ('${id}', '${workspaceId}', 'https://videos.example.com/${i}', 'Bench video ${i}', '${statuses[i % statuses.length]}', ${(i * 7) % 100}, '{}', 'v${i}', 600, '', 'bench', 10);`,
		),
	].join("\n");
	const file = join(stateDir, "seed.sql");
	writeFileSync(file, sql);
	runWrangler(["d1", "execute", "DB", "--local", "--env", "local", "--persist-to", join(stateDir, "wrangler-state"), "--file", file, "--yes"]);

	// Warm up (first requests compile and open D1), then measure.
	for (const id of videoIds.slice(0, 10)) await fetch(`${stack.url}/api/videos/${id}/status`, { headers: { authorization: `Bearer ${keys[0]}` } });
	const requests = videoIds.map((id, i) => ({ method: "GET" as const, path: `/api/videos/${id}/status`, headers: { authorization: `Bearer ${keys[i % KEYS]}` } }));
	const result = await autocannon({ url: stack.url, connections: 20, overallRate: RATE, duration: SECONDS, requests });
	const report = {
		measuredAt: new Date().toISOString(),
		target: `GET /api/videos/:id/status on wrangler dev (local D1), ${VIDEOS} videos in the table, ${KEYS} API keys`,
		requestedRatePerSecond: RATE,
		durationSeconds: SECONDS,
		requests: result.requests.total,
		achievedRatePerSecond: Math.round(result.requests.average),
		latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
		non2xx: result.non2xx,
		errors: result.errors,
		timeouts: result.timeouts,
		goal: "p99 <= 25 ms locally, 0 errors",
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/api.json", `${JSON.stringify(report, null, 2)}\n`);
	console.log(JSON.stringify(report, null, 2));
} finally {
	stopStack(stateDir);
	rmSync(stateDir, { recursive: true, force: true });
}
