/**
 * `npm run drill:deploy [-- --short] [--videos n] [--keep]`: the mid-run deploy drill. A local stack
 * (scripts/stack.ts) on this build (A) takes videos; while they are in flight the stack is deployed
 * to build B (build-b.ts: one step added, one additive migration), in production's order
 * (stack-deploy.ts: migrations while A serves, the Worker replaced, the tier drained and started
 * from B), on the same persisted state. Then every video must end completed, or failed and
 * refunded; none stuck; balances exact; the store's audit clean; B's migration applied; and every
 * video in flight at the switch must have gone on under B (it ran B's new step). The cron is
 * called every 5 s, as the soak does (the local engine resumes an instance the Worker's restart
 * left idle only when woken; RECONCILE_STALE_MINUTES 0.2). Writes bench-results/drill-deploy.json
 * (`--short`: drill-deploy-short.json); exits 1 on any finding.
 * `--short` (make test): 2 videos of a 20 s talk; the full drill: 6, of 20 to 45 s.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fetchAudit, signingSecretFrom } from "../../scripts/admin-orphans.ts";
import { makeTalkVideo, SPEAKER_FACE } from "../../scripts/sample-video.ts";
import { serveDirectory } from "../../scripts/serve-files.ts";
import { deployBuild } from "../../scripts/stack-deploy.ts";
import { ROOT, secretsFileFor, startStack, stopStack, type StackInfo } from "../../scripts/stack.ts";
import { hasDrillColumn, videosThatRan } from "../db/deploy-drill.ts";
import { ledgerRows, videoCharges } from "../db/local-d1.ts";
import { BUILD_B_STEP, checkBuildB, makeBuildB } from "./build-b.ts";
import { checkBalances } from "./checks.ts";

const { values: flags } = parseArgs({
	options: {
		short: { type: "boolean", default: false },
		videos: { type: "string" },
		keep: { type: "boolean", default: false },
	},
});
const short = flags.short;
const plan = {
	videos: Number(flags.videos ?? (short ? 2 : 6)),
	seconds: short ? [20] : [20, 30, 45],
	settleMs: (short ? 4 : 12) * 60_000,
	graceMs: 30_000,
};
const log = (message: string) => console.error(`[deploy-drill ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TERMINAL = new Set(["completed", "failed"]);
const started = Date.now();
const root = mkdtempSync(join(tmpdir(), "clipforge-deploy-drill-"));
const stateDir = join(root, "stack");
const persist = join(stateDir, "wrangler-state");
for (const signal of ["SIGINT", "SIGTERM"] as const)
	process.once(signal, () => {
		stopStack(stateDir);
		process.exit(130);
	});

async function api(stack: StackInfo, method: string, path: string, body?: unknown, key?: string): Promise<any> {
	const response = await fetch(stack.url + path, {
		method,
		headers: {
			authorization: `Bearer ${stack.apiKey}`,
			"content-type": "application/json",
			...(key ? { "idempotency-key": key } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
	return response.json();
}

/** Each video's status now (a read that fails counts as unknown, never as an end). */
async function statuses(stack: StackInfo, ids: string[]): Promise<Map<string, string>> {
	const seen = new Map<string, string>();
	for (const id of ids) {
		const status = await api(stack, "GET", `/api/videos/${id}/status`).then(
			(b: { video?: { status?: string } }) => b.video?.status ?? "unknown",
			() => "unknown",
		);
		seen.set(id, status);
	}
	return seen;
}

const cron = (stack: StackInfo) =>
	fetch(`${stack.url}/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*`).then(
		(r) => r.ok,
		() => false,
	);

/** Submits the videos; the ids. Captions on all, smart crop on every other one. */
async function submitAll(stack: StackInfo, filesUrl: string): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < plan.videos; i++) {
		const seconds = plan.seconds[i % plan.seconds.length]!;
		const config = { enableCaptions: true, enableSmartCrop: i % 2 === 1, clipDurationMin: 5, clipDurationMax: 12 };
		const body = { hostedUrl: `${filesUrl}/talk-${seconds}.mp4`, config };
		ids.push((await api(stack, "POST", "/api/videos/hosted", body, `drill-${started}-${i}`)).video.id as string);
	}
	return ids;
}

// Statuses of a video whose instance has finished steps (the download, the upload) and has more to run.
const PAST_SOURCE = new Set(["transcribing", "analyzing", "generating_clips"]);

/** Until a video is past its source (finished steps behind it, work ahead) or 90 s pass. */
async function waitUntilInFlight(stack: StackInfo, ids: string[]): Promise<Map<string, string>> {
	const by = Date.now() + 90_000;
	for (;;) {
		const seen = await statuses(stack, ids);
		const moving = [...seen.values()].some((s) => PAST_SOURCE.has(s));
		if (moving || Date.now() > by) return seen;
		await sleep(1000);
	}
}

/** Calls the cron every 5 s until every video ended or the settle time is over; their last statuses. */
async function settle(stack: StackInfo, ids: string[]): Promise<{ seen: Map<string, string>; crons: number }> {
	const by = Date.now() + plan.settleMs;
	let crons = 0;
	for (;;) {
		const seen = await statuses(stack, ids);
		if ([...seen.values()].every((s) => TERMINAL.has(s)) || Date.now() > by) return { seen, crons };
		if (await cron(stack)) crons++;
		await sleep(5000);
	}
}

const media = join(root, "media");
mkdirSync(media, { recursive: true });
for (const seconds of new Set(plan.seconds))
	makeTalkVideo({ out: join(media, `talk-${seconds}.mp4`), seconds, speaker: SPEAKER_FACE });
const files = await serveDirectory(media);
const buildB = join(root, "build-b");
const migration = makeBuildB(buildB);
const compat = checkBuildB(buildB);
log(
	`build B in ${buildB}: step "${BUILD_B_STEP}" added, migration ${migration}; its check:workflows: ${compat.length === 0 ? "passes" : compat.join("; ")}`,
);

const stack = await startStack({
	stateDir,
	renderEnv: { X264_PRESET: "ultrafast", RENDER_SWEEP_INTERVAL_SECONDS: "10" },
	workerVars: { RECONCILE_STALE_MINUTES: "0.2" },
});
log(`stack on build A at ${stack.url}; submitting ${plan.videos} videos`);
const ids = await submitAll(stack, files.url);
const atSwitch = await waitUntilInFlight(stack, ids);
const inFlight = ids.filter((id) => !TERMINAL.has(atSwitch.get(id)!));
log(`deploying build B with ${inFlight.length} video(s) in flight: ${JSON.stringify(Object.fromEntries(atSwitch))}`);
const switchStarted = Date.now();
const deploy = await deployBuild(stateDir, buildB, plan.graceMs);
const switchMs = Date.now() - switchStarted;
log(`build B serves after ${Math.round(switchMs / 1000)} s; waiting for every video to end`);
const { seen: final, crons } = await settle(stack, ids);

const secret = signingSecretFrom(secretsFileFor(stateDir))!;
const audit = await fetchAudit(stack.url, secret).catch((error: Error) => ({ clean: false, error: error.message }));
const workspace = (await api(stack, "GET", "/api/workspaces"))[0] as { id: string; minutesBalance: number };
const videoRows = videoCharges(persist).filter((v) => ids.includes(v.id));
const balances = checkBalances(
	ledgerRows(persist),
	[{ id: workspace.id, balance: workspace.minutesBalance }],
	videoRows.map((v) => ({
		id: v.id,
		workspaceId: v.workspace_id,
		status: v.status,
		minutesCharged: v.minutes_charged,
	})),
);
const ranB = new Set(videosThatRan(persist, BUILD_B_STEP));
const migrated = hasDrillColumn(persist);
stopStack(stateDir);
await files.close();

const count = (status: string) => [...final.values()].filter((s) => s === status).length;
const stuck = ids.filter((id) => !TERMINAL.has(final.get(id)!));
const notOnB = inFlight.filter((id) => !ranB.has(id) && final.get(id) === "completed");
const findings = [
	compat.length > 0 ? `build B's check:workflows failed: ${compat.join("; ")}` : null,
	inFlight.length === 0 ? "no video was in flight at the switch: nothing was drilled" : null,
	stuck.length > 0 ? `${stuck.length} video(s) stuck: ${stuck.join(", ")}` : null,
	balances.some((b) => !b.ok) ? `balances: ${balances.flatMap((b) => b.problems).join("; ")}` : null,
	audit.clean ? null : `audit not clean: ${JSON.stringify(audit).slice(0, 300)}`,
	migrated ? null : `build B's migration ${migration} is not in the store`,
	notOnB.length > 0 ? `completed without running build B's step (not on B?): ${notOnB.join(", ")}` : null,
].filter((f): f is string => f !== null);
const report = {
	measuredAt: new Date().toISOString(),
	mode: short ? "short" : "full",
	seconds: Math.round((Date.now() - started) / 1000),
	passed: findings.length === 0,
	findings,
	buildB: { addedStep: BUILD_B_STEP, migration, checkWorkflows: compat.length === 0 ? "passes" : compat },
	videos: {
		submitted: ids.length,
		inFlightAtSwitch: inFlight.length,
		completed: count("completed"),
		failed: count("failed"),
		stuck: stuck.length,
	},
	statusAtSwitch: Object.fromEntries(atSwitch),
	statusAtEnd: Object.fromEntries(final),
	ranBuildBStep: ids.filter((id) => ranB.has(id)).length,
	deploy: { switchSeconds: Math.round(switchMs / 100) / 10, ...deploy },
	crons,
	balances,
	audit,
};
mkdirSync(join(ROOT, "bench-results"), { recursive: true });
const out = join(ROOT, "bench-results", short ? "drill-deploy-short.json" : "drill-deploy.json");
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
if (!flags.keep && report.passed) rmSync(root, { recursive: true, force: true });
console.log(
	`deploy drill: ${report.passed ? "passed" : "FAILED"} in ${report.seconds} s (switch ${report.deploy.switchSeconds} s); ${report.videos.completed} completed, ${report.videos.failed} failed, ${stuck.length} stuck of ${ids.length} (${inFlight.length} in flight at the switch, ${report.ranBuildBStep} ran build B's step); balances ${balances.every((b) => b.ok) ? "exact" : "WRONG"}, audit ${audit.clean ? "clean" : "NOT clean"}${findings.length ? `: ${findings.join("; ")}` : ""}`,
);
process.exit(report.passed ? 0 : 1);
