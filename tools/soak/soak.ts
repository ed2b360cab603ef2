/**
 * `npm run soak [-- --short] [--videos 36] [--workspaces 6] [--minutes 20] [--kill-every 60] [--break 0.1] [--seed 1]
 *  [--faults d1,r2,ai,disk,drain|all] [--d1-rate 0.02] [--r2-rate 0.02] [--ai-rate 0.05] [--drain-every 150]
 *  [--drain-grace 30] [--disk-mb 2816] [--disk-full-every 120] [--disk-full-for 15]`
 *
 * The chaos soak, against the local stack (scripts/stack.ts: the native render tier and
 * `wrangler dev`): several workspaces submit videos over the window with varied configs (captions,
 * smart crop, remove silences, 1:1, split-screen) while
 * - the render tier is SIGKILLed and started again every `--kill-every` seconds;
 * - a proxy between the Worker (RENDER_URL) and the tier resets or cuts `--break` of the
 *   connections (fault-proxy.ts), long-lived job streams included;
 * - the Worker (`wrangler dev`) is stopped and started again on the same state once, mid-window;
 * - every unfinished video's status is read every 2 s;
 * - with `--faults` (dependency-faults.ts), the dependencies fail too: D1 statements and R2
 *   operations (the Worker's injected faults, INJECT_FAULTS), Workers AI (a local stand-in,
 *   ai-stand-in.ts, the production transcriber and LLM path), the tier drained (SIGTERM, a grace,
 *   SIGKILL) and its work folder's disk full for a while.
 * Local dev fires no cron by itself: the soak calls the scheduled handler every 30 s, as Cloudflare
 * would every 5 minutes (its reconciler wakes instances the local engine left idle when the Worker
 * restarted, RECONCILE_STALE_MINUTES 2 here). After the window the faults stop and the stack drains.
 *
 * Writes bench-results/soak.json (`--short`: soak-short.json): completed / failed / stuck, each
 * clip's file checked with ffprobe against its stated length, each balance against the ledger's
 * rule, status p50/p99 and 5xx, job files left in the tier's work folder, orphaned R2 objects. Exits
 * 1 unless: 0 stuck, ≥ 95% completed (all, with --short), the rest failed and refunded, every
 * balance exact, no 5xx on status, every clip as long as it says, 0 job files, 0 orphans, no video
 * made twice by a retried submission, and the store's audit clean (GET /internal/audit: rows,
 * objects and the ledger agree).
 * `--short` (make test): 2 videos of a 20 s talk in 2 workspaces (captions, smart crop), a 45 s
 * window with a kill every 15 s, 15% of connections broken and the Worker restarted once.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { jobFilesIn } from "../../containers/render/src/runtime/sweep.ts";
import {
	fetchAudit,
	fetchOrphanReport,
	signingSecretFrom,
	type AuditReport,
	type OrphanReport,
} from "../../scripts/admin-orphans.ts";
import { createAccountSql } from "../../src/worker/db/bootstrap.ts";
import { makeTalkVideo, SPEAKER_FACE } from "../../scripts/sample-video.ts";
import { serveDirectory } from "../../scripts/serve-files.ts";
import {
	crashRenderTier,
	drainRenderTier,
	freePort,
	renderWorkDir,
	restartWorker,
	ROOT,
	secretsFileFor,
	startStack,
	stopStack,
} from "../../scripts/stack.ts";
import { localD1Execute, QUIET_WRANGLER_ENV, WRANGLER_BIN } from "../../scripts/wrangler.ts";
import { ledgerRows, videoCharges } from "../db/local-d1.ts";
import { checkBalances, checkClips, percentile, type ClipCheck } from "./checks.ts";
import { startAiStandIn, type AiStandIn } from "./ai-stand-in.ts";
import {
	fillDisk,
	freeDisk,
	injectedFaults,
	injectFaultsVar,
	mountSmallDisk,
	parseFaults,
	unmountSmallDisk,
	type SmallDisk,
} from "./dependency-faults.ts";
import { seededRandom, startFaultProxy } from "./fault-proxy.ts";

const { values: flags } = parseArgs({
	options: {
		short: { type: "boolean", default: false },
		videos: { type: "string" },
		workspaces: { type: "string" },
		minutes: { type: "string" },
		"kill-every": { type: "string" },
		break: { type: "string" },
		seed: { type: "string", default: "1" },
		"drain-minutes": { type: "string" },
		keep: { type: "boolean", default: false },
		faults: { type: "string" },
		"d1-rate": { type: "string", default: "0.02" },
		"r2-rate": { type: "string", default: "0.02" },
		"ai-rate": { type: "string", default: "0.05" },
		"drain-every": { type: "string" },
		"drain-grace": { type: "string" },
		"disk-mb": { type: "string", default: "2816" },
		"disk-full-every": { type: "string" },
		"disk-full-for": { type: "string" },
	},
});
const short = flags.short;
const faultsOn = parseFaults(flags.faults);
const plan = {
	videos: Number(flags.videos ?? (short ? 2 : 36)),
	workspaces: Number(flags.workspaces ?? (short ? 2 : 6)),
	windowMs: Number(flags.minutes ?? (short ? 0.75 : 20)) * 60_000,
	killEveryMs: Number(flags["kill-every"] ?? (short ? 15 : 60)) * 1000,
	breakShare: Number(flags.break ?? (short ? 0.15 : 0.1)),
	drainMs: Number(flags["drain-minutes"] ?? (short ? 4 : 15)) * 60_000,
	seed: Number(flags.seed),
	/** Submissions are spread over this share of the window. */
	submitShare: short ? 0.1 : 0.6,
	/** The Worker restarts this far into the window. */
	restartAt: short ? 0.2 : 0.4,
	cronEveryMs: short ? 5_000 : 30_000,
	staleMinutes: short ? "0.2" : "2",
	sourceSeconds: short ? [20] : [45, 60, 75],
	clipSeconds: short ? { clipDurationMin: 5, clipDurationMax: 12 } : { clipDurationMin: 10, clipDurationMax: 25 },
	sweepIntervalSeconds: short ? 10 : 30,
	dependencyFaults: {
		on: [...faultsOn],
		d1Rate: Number(flags["d1-rate"]),
		r2Rate: Number(flags["r2-rate"]),
		aiRate: Number(flags["ai-rate"]),
		/** A drain every this many seconds, its grace (Cloudflare's is 15 minutes; shortened here). */
		drainEveryMs: Number(flags["drain-every"] ?? (short ? 20 : 150)) * 1000,
		drainGraceMs: Number(flags["drain-grace"] ?? (short ? 10 : 30)) * 1000,
		diskMb: Number(flags["disk-mb"]),
		diskFullEveryMs: Number(flags["disk-full-every"] ?? (short ? 25 : 120)) * 1000,
		diskFullForMs: Number(flags["disk-full-for"] ?? (short ? 6 : 15)) * 1000,
		/** A Workers AI call is given up after this long (the stand-in's hangs outlast it). */
		aiTimeoutSeconds: 90,
	},
};
const CONFIGS: { name: string; config: Record<string, unknown> }[] = [
	{ name: "captions", config: { enableCaptions: true } },
	{ name: "smart crop", config: { enableSmartCrop: true } },
	{ name: "remove silences", config: { removeSilences: true, enableCaptions: true } },
	{ name: "1:1", config: { aspectRatio: "1:1" } },
	{ name: "split-screen", config: { enableSplitScreen: true } },
];
const CLIP_CONFIG = plan.clipSeconds;
const POLL_MS = 2000;
const SUBMIT_PATIENCE_MS = 10 * 60_000;
const SWEEP_INTERVAL_SECONDS = plan.sweepIntervalSeconds;

interface VideoRecord {
	index: number;
	id: string | null;
	workspace: number;
	config: string;
	source: string;
	submittedAt: number | null;
	submitAttempts: number;
	status: string;
	errorMessage: string | null;
	endedAt: number | null;
}

const log = (message: string) => console.error(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Sleeps `ms`, or less when the fault window ends first. */
const sleepWhileFaulting = async (ms: number) => {
	const until = Date.now() + ms;
	while (faulting && Date.now() < until) await sleep(Math.min(1000, until - Date.now()));
};

const stateDir = mkdtempSync(join(tmpdir(), "clipforge-soak-"));
// Interrupted (Ctrl-C, a CI timeout): the stack it started goes with it; the state stays for a look.
for (const signal of ["SIGINT", "SIGTERM"] as const)
	process.once(signal, () => {
		stopStack(stateDir);
		if (disk) unmountSmallDisk(disk);
		console.error(`soak interrupted; its state is in ${stateDir}`);
		process.exit(130);
	});
const media = join(stateDir, "media");
mkdirSync(media, { recursive: true });
log(`state in ${stateDir}; plan ${JSON.stringify({ ...plan, sourceSeconds: undefined })}`);
for (const seconds of plan.sourceSeconds)
	makeTalkVideo({ out: join(media, `talk-${seconds}.mp4`), seconds, speaker: SPEAKER_FACE });
const files = await serveDirectory(media);
const random = seededRandom(plan.seed);
const renderPort = await freePort();
const df = plan.dependencyFaults;
/**
 * When the fault window ends, fixed before the stack starts: the Worker's injected faults stop then
 * (INJECT_FAULTS's `until`), so the window runs from the first submission to this moment (the
 * stack's start-up, about a minute, is allowed for).
 */
const STARTUP_ALLOWANCE_MS = 60_000;
const faultsUntil = Date.now() + STARTUP_ALLOWANCE_MS + plan.windowMs;
// The tier's work folder on a small disk of its own, before the tier starts.
let disk: SmallDisk | null = faultsOn.has("disk")
	? mountSmallDisk(renderWorkDir(stateDir), join(stateDir, "render-disk.img"), df.diskMb)
	: null;
if (disk && !disk.mounted) log(`disk faults skipped: the small disk could not be mounted (${disk.reason})`);
if (disk && !disk.mounted) disk = null;
let aiStandIn: AiStandIn | null = null;
if (faultsOn.has("ai")) {
	aiStandIn = await startAiStandIn({
		faultShare: df.aiRate,
		random: seededRandom(plan.seed + 7),
		hangMs: (df.aiTimeoutSeconds + 40) * 1000,
	});
}
const proxy = await startFaultProxy({
	target: { host: "127.0.0.1", port: renderPort },
	breakShare: plan.breakShare,
	random,
});
const stack = await startStack({
	stateDir,
	renderPort,
	workerRenderUrl: proxy.url,
	minutes: 10,
	renderEnv: {
		RENDER_SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_SECONDS),
		// --short runs in make test, beside the end-to-end suite: the fastest encode (a soak checks lengths, not bytes).
		...(short ? { X264_PRESET: "ultrafast" } : {}),
	},
	workerVars: { RECONCILE_STALE_MINUTES: plan.staleMinutes, ...dependencyVars() },
});
const persist = join(stateDir, "wrangler-state");
log(`stack up: ${stack.url}, render tier ${stack.renderUrl} behind ${proxy.url}`);

const keys = createWorkspaces(persist, plan.workspaces, 500);

async function api(
	key: string,
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: any; ms: number }> {
	const started = performance.now();
	const response = await fetch(stack.url + path, {
		method,
		headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON
	}
	return { status: response.status, body: parsed, ms: performance.now() - started };
}

const videos: VideoRecord[] = Array.from({ length: plan.videos }, (_, index) => ({
	index,
	id: null,
	workspace: index % plan.workspaces,
	config: CONFIGS[index % CONFIGS.length]!.name,
	source: `talk-${plan.sourceSeconds[index % plan.sourceSeconds.length]}.mp4`,
	submittedAt: null,
	submitAttempts: 0,
	status: "unsubmitted",
	errorMessage: null,
	endedAt: null,
}));
const statusReads = { ms: [] as number[], byStatus: {} as Record<string, number>, fiveXx: 0, unavailable: 0 };
const faults = { kills: 0, workerRestarts: 0, crons: 0, workerDownMs: 0 };
const terminal = (v: VideoRecord) => v.status === "completed" || v.status === "failed";
const t0 = Date.now();
// With the Worker's faults on, the window ends when they do (faultsUntil); otherwise windowMs after now.
const faultsEnd = injectFaultsVar(faultsOn, { d1: df.d1Rate, r2: df.r2Rate }, 0) ? faultsUntil : t0 + plan.windowMs;
const windowMs = faultsEnd - t0;
let faulting = true;
const dependencyCounts = {
	drains: 0,
	drainsWithinGrace: 0,
	drainMs: [] as number[],
	diskFullEpisodes: 0,
	diskFullMs: 0,
};
/** One tier fault at a time: a kill and a drain never overlap. */
let tierBusy: Promise<unknown> = Promise.resolve();
const onTier = <T>(work: () => Promise<T>): Promise<T> => {
	const next = tierBusy.then(work, work);
	tierBusy = next.catch(() => undefined);
	return next;
};

async function submit(video: VideoRecord): Promise<void> {
	const { name, config } = CONFIGS.find((c) => c.name === video.config)!;
	const firstTry = Date.now();
	for (;;) {
		video.submitAttempts++;
		try {
			// The same Idempotency-Key on every try, as the SDK sends it: a submission whose answer was lost
			// (a D1 write that committed, then failed) is answered from its first try, never made twice.
			const result = await api(
				keys[video.workspace]!,
				"POST",
				"/api/videos/hosted",
				{ hostedUrl: `${files.url}/${video.source}?n=${video.index}`, config: { ...CLIP_CONFIG, ...config } },
				{ "idempotency-key": `soak-${plan.seed}-${t0}-${video.index}` },
			);
			if (result.status === 201) {
				video.id = result.body.video.id;
				video.submittedAt = Date.now();
				video.status = result.body.video.status;
				log(`submitted #${video.index} ${video.id} (${name}, ${video.source}, workspace ${video.workspace})`);
				return;
			}
			log(`submission #${video.index} answered ${result.status}: ${JSON.stringify(result.body).slice(0, 200)}`);
		} catch (error) {
			log(`submission #${video.index} failed: ${(error as Error).message}`);
		}
		// The Worker may be restarting, or the tier's probe cut or too slow: a client tries again,
		// backing off (2 s doubling to 30 s) so a slow tier is not flooded with probes, for 10 minutes.
		if (Date.now() - firstTry > SUBMIT_PATIENCE_MS) {
			video.status = "not submitted";
			return;
		}
		await sleep(Math.min(30_000, 2000 * 2 ** (video.submitAttempts - 1)));
	}
}

const submitter = (async () => {
	const spacing = (windowMs * plan.submitShare) / Math.max(1, plan.videos);
	for (const video of videos) {
		const at = t0 + video.index * spacing;
		if (at > Date.now()) await sleep(at - Date.now());
		void submit(video);
	}
})();

const poller = (async () => {
	while (faulting || videos.some((v) => !terminal(v) && v.status !== "not submitted")) {
		if (Date.now() > faultsEnd + plan.drainMs) break;
		await Promise.all(
			videos
				.filter((v) => v.id && !terminal(v))
				.map(async (video) => {
					try {
						const read = await api(keys[video.workspace]!, "GET", `/api/videos/${video.id}/status`);
						statusReads.byStatus[read.status] = (statusReads.byStatus[read.status] ?? 0) + 1;
						if (read.status >= 500) statusReads.fiveXx++;
						if (read.status !== 200) return;
						statusReads.ms.push(read.ms);
						video.status = read.body.video.status;
						video.errorMessage = read.body.video.errorMessage ?? null;
						if (terminal(video)) {
							video.endedAt = Date.now();
							log(
								`#${video.index} ${video.id} ${video.status} after ${Math.round((video.endedAt - video.submittedAt!) / 1000)} s${video.errorMessage ? `: ${video.errorMessage}` : ""}`,
							);
						}
					} catch {
						// Connection refused: the Worker is restarting (counted apart from its answers).
						statusReads.unavailable++;
					}
				}),
		);
		await sleep(POLL_MS);
	}
})();

const killer = (async () => {
	for (;;) {
		await sleepWhileFaulting(plan.killEveryMs);
		if (!faulting) return;
		try {
			await onTier(() => crashRenderTier(stateDir, 1000));
			faults.kills++;
			log(`render tier killed and started again (${faults.kills})`);
		} catch (error) {
			log(`render tier restart failed: ${(error as Error).message}`);
		}
	}
})();

const scheduler = (async () => {
	while (faulting || videos.some((v) => v.id && !terminal(v))) {
		if (Date.now() > faultsEnd + plan.drainMs) return;
		await sleep(plan.cronEveryMs);
		const ok = await fetch(`${stack.url}/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*`).then(
			(r) => r.ok,
			() => false,
		);
		if (ok) faults.crons++;
	}
})();

const workerRestart = (async () => {
	await sleep(windowMs * plan.restartAt);
	const started = Date.now();
	log("stopping the Worker (wrangler dev) and starting it again on the same state");
	await restartWorker(stateDir, 2000);
	faults.workerDownMs = Date.now() - started;
	faults.workerRestarts++;
	log(`Worker back after ${Math.round(faults.workerDownMs / 1000)} s`);
})();

/** Drains the tier every drainEveryMs (half a period after the kills' rhythm): SIGTERM, the grace, SIGKILL. */
const drainer = (async () => {
	if (!faultsOn.has("drain")) return;
	await sleepWhileFaulting(df.drainEveryMs / 2);
	while (faulting) {
		const drained = await onTier(() => drainRenderTier(stateDir, df.drainGraceMs)).catch((error: Error) => {
			log(`render tier drain failed: ${error.message}`);
			return null;
		});
		if (drained) {
			dependencyCounts.drains++;
			if (drained.exited) dependencyCounts.drainsWithinGrace++;
			dependencyCounts.drainMs.push(drained.ms);
			log(
				`render tier drained (${dependencyCounts.drains}): ${drained.exited ? "exited by itself" : "SIGKILLed at the grace's end"} after ${Math.round(drained.ms / 1000)} s`,
			);
		}
		await sleepWhileFaulting(df.drainEveryMs);
	}
})();

/** Fills the tier's small disk every diskFullEveryMs for diskFullForMs. */
const diskFiller = (async () => {
	if (!disk) return;
	await sleepWhileFaulting(df.diskFullEveryMs / 3);
	while (faulting) {
		const filled = fillDisk(disk);
		const started = Date.now();
		log(`the tier's disk is full (${Math.round(filled / 1e6)} MB of ballast)`);
		await sleepWhileFaulting(df.diskFullForMs);
		freeDisk(disk);
		dependencyCounts.diskFullEpisodes++;
		dependencyCounts.diskFullMs += Date.now() - started;
		await sleepWhileFaulting(df.diskFullEveryMs);
	}
})();

await sleep(windowMs);
faulting = false;
proxy.setBreakShare(0);
aiStandIn?.setFaultShare(0);
if (disk) freeDisk(disk);
log("fault window over: no more kills, drains, full disks or broken connections; draining");
await Promise.all([submitter, killer, workerRestart, drainer, diskFiller]);
await poller;
await scheduler;

// What the tier left: its sweep runs every SWEEP_INTERVAL_SECONDS; give it one pass after the last job.
await sleep((SWEEP_INTERVAL_SECONDS + 5) * 1000);
const jobFiles = await jobFilesIn(renderWorkDir(stateDir));
const secret = signingSecretFrom(secretsFileFor(stateDir))!;
let orphans: OrphanReport | { error: string };
try {
	orphans = await fetchOrphanReport(stack.url, secret, 0);
} catch (error) {
	orphans = { error: (error as Error).message };
}

let audit: AuditReport | { error: string };
try {
	audit = await fetchAudit(stack.url, secret);
} catch (error) {
	audit = { error: (error as Error).message };
}

const clipChecks: ClipCheck[] = [];
for (const video of videos.filter((v) => v.status === "completed")) {
	const { body } = await api(keys[video.workspace]!, "GET", `/api/videos/${video.id}/clips`);
	clipChecks.push(...(await checkClips(video.id!, body.clips ?? [])));
}
const workspaces = await Promise.all(
	keys.map(
		async (key) => (await api(key, "GET", "/api/workspaces")).body[0] as { id: string; minutesBalance: number },
	),
);
const rows = ledgerRows(persist);
const videoRows = videoCharges(persist);
const ours = new Set(workspaces.map((w) => w.id));
const balances = checkBalances(
	rows,
	workspaces.map((w) => ({ id: w.id, balance: w.minutesBalance })),
	videoRows
		.filter((v) => ours.has(v.workspace_id))
		.map((v) => ({ id: v.id, workspaceId: v.workspace_id, status: v.status, minutesCharged: v.minutes_charged })),
);
const renderLog = existsSync(join(stateDir, "render.log")) ? readFileSync(join(stateDir, "render.log"), "utf8") : "";
const workerLog = existsSync(join(stateDir, "wrangler.log"))
	? readFileSync(join(stateDir, "wrangler.log"), "utf8")
	: "";
const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

const completed = videos.filter((v) => v.status === "completed").length;
const failed = videos.filter((v) => v.status === "failed").length;
const notSubmitted = videos.filter((v) => v.status === "not submitted").length;
const stuck = videos.filter((v) => !terminal(v) && v.status !== "not submitted").length;
const orphanCount = "orphans" in orphans ? orphans.orphans.length : null;
const completedShare = completed / plan.videos;
// A submission retried after a lost answer must not have made a second video.
const accepted = new Set(videos.filter((v) => v.id).map((v) => v.id));
const unknownVideos = videoRows.filter((v) => ours.has(v.workspace_id) && !accepted.has(v.id)).map((v) => v.id);
const injected = injectedFaults(workerLog);
const dependencyFaults = {
	on: [...faultsOn],
	d1: faultsOn.has("d1")
		? { rate: df.d1Rate, ...injected.d1, observedRate: rate(injected.d1.injected, injected.d1.seen) }
		: null,
	r2: faultsOn.has("r2")
		? { rate: df.r2Rate, ...injected.r2, observedRate: rate(injected.r2.injected, injected.r2.seen) }
		: null,
	ai: aiStandIn
		? {
				rate: df.aiRate,
				calls: aiStandIn.counts.calls,
				faults: aiStandIn.counts.faults,
				observedRate: rate(
					Object.values(aiStandIn.counts.faults).reduce((a, b) => a + b, 0),
					aiStandIn.counts.calls.whisper + aiStandIn.counts.calls.llm,
				),
				timeoutSeconds: df.aiTimeoutSeconds,
			}
		: null,
	drain: faultsOn.has("drain")
		? {
				everySeconds: df.drainEveryMs / 1000,
				graceSeconds: df.drainGraceMs / 1000,
				drains: dependencyCounts.drains,
				exitedWithinGrace: dependencyCounts.drainsWithinGrace,
				secondsToExit: dependencyCounts.drainMs.map((ms) => Math.round(ms / 100) / 10),
				tierDrainLogs: count(renderLog, /"event":"draining"/g),
			}
		: null,
	disk: faultsOn.has("disk")
		? disk
			? {
					megabytes: df.diskMb,
					fullEpisodes: dependencyCounts.diskFullEpisodes,
					fullSeconds: Math.round(dependencyCounts.diskFullMs / 1000),
					everySeconds: df.diskFullEveryMs / 1000,
				}
			: { skipped: "the small disk could not be mounted (needs root)" }
		: null,
};
const verdicts = {
	noneStuck: stuck === 0,
	everySubmissionAccepted: notSubmitted === 0,
	completedEnough: short ? completed === plan.videos : completedShare >= 0.95,
	balancesExact: balances.every((b) => b.ok),
	no5xxOnStatus: statusReads.fiveXx === 0,
	clipsAsLongAsStated: clipChecks.every((c) => c.ok),
	noJobFilesLeft: jobFiles.length === 0,
	noOrphans: orphanCount === 0,
	noVideoMadeTwice: unknownVideos.length === 0,
	auditClean: "clean" in audit && audit.clean,
};
const report = {
	measuredAt: new Date().toISOString(),
	mode: short ? "short" : "default",
	note: "Measured on the machine it ran on; a shared machine makes every job slower, so more of them meet a kill or a cut.",
	plan: {
		...plan,
		configs: CONFIGS.map((c) => c.name),
		clipConfig: CLIP_CONFIG,
		sweepIntervalSeconds: SWEEP_INTERVAL_SECONDS,
	},
	durationSeconds: Math.round((Date.now() - t0) / 1000),
	verdicts,
	passed: Object.values(verdicts).every(Boolean),
	videos: {
		total: plan.videos,
		completed,
		failed,
		stuck,
		notSubmitted,
		completedShare: Math.round(completedShare * 1000) / 1000,
	},
	submissions: {
		attempts: videos.reduce((n, v) => n + v.submitAttempts, 0),
		refusals: videos.reduce((n, v) => n + Math.max(0, v.submitAttempts - 1), 0),
	},
	failures: videos
		.filter((v) => v.status === "failed")
		.map((v) => ({ id: v.id, config: v.config, errorMessage: v.errorMessage })),
	stuckVideos: videos
		.filter((v) => !terminal(v) && v.status !== "not submitted")
		.map((v) => ({ id: v.id, index: v.index, status: v.status })),
	secondsToEnd: {
		p50: percentile(
			videos.filter((v) => v.endedAt).map((v) => (v.endedAt! - v.submittedAt!) / 1000),
			50,
		),
		max: percentile(
			videos.filter((v) => v.endedAt).map((v) => (v.endedAt! - v.submittedAt!) / 1000),
			100,
		),
	},
	clips: {
		checked: clipChecks.length,
		ok: clipChecks.filter((c) => c.ok).length,
		problems: clipChecks.filter((c) => !c.ok),
	},
	balances,
	status: {
		reads: statusReads.ms.length,
		p50Ms: round(percentile(statusReads.ms, 50)),
		p99Ms: round(percentile(statusReads.ms, 99)),
		fiveXx: statusReads.fiveXx,
		byHttpStatus: statusReads.byStatus,
		unavailableWhileWorkerRestarted: statusReads.unavailable,
	},
	dependencyFaults,
	audit,
	videosNotSubmittedByTheSoak: unknownVideos,
	faults: {
		...faults,
		connections: proxy.counts,
		brokenConnections: proxy.counts.reset + proxy.counts.cutEarly + proxy.counts.cutMidLife,
	},
	recovery: {
		tierJobsJoined: count(renderLog, /"event":"job joined"/g),
		tierAnswersFromKeptResults: count(renderLog, /"event":"job answered from its result"/g),
		tierSweeps: count(renderLog, /"event":"swept"/g),
		reconcilerRuns: count(workerLog, /"event":"reconcile"/g),
	},
	leftBehind: {
		jobFiles: jobFiles.length,
		jobFilePaths: jobFiles.slice(0, 50),
		orphanedObjects: orphanCount,
		orphans: "orphans" in orphans ? orphans.orphans.slice(0, 50) : orphans,
	},
	perVideo: videos.map((v) => ({
		index: v.index,
		id: v.id,
		workspace: v.workspace,
		config: v.config,
		source: v.source,
		status: v.status,
		seconds: v.endedAt && v.submittedAt ? Math.round((v.endedAt - v.submittedAt) / 1000) : null,
		submitAttempts: v.submitAttempts,
	})),
};

mkdirSync(join(ROOT, "bench-results"), { recursive: true });
const out = join(ROOT, "bench-results", short ? "soak-short.json" : "soak.json");
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
stopStack(stateDir);
await proxy.close();
await files.close();
await aiStandIn?.close();
if (disk) unmountSmallDisk(disk);
if (!flags.keep && report.passed) rmSync(stateDir, { recursive: true, force: true });

console.log(
	`soak (${report.mode}): ${completed}/${plan.videos} completed, ${failed} failed, ${stuck} stuck${notSubmitted ? `, ${notSubmitted} never accepted` : ""}; clips ${report.clips.ok}/${report.clips.checked} as long as stated; ` +
		`balances ${balances.filter((b) => b.ok).length}/${balances.length} exact; status p50 ${report.status.p50Ms} ms p99 ${report.status.p99Ms} ms, ${statusReads.fiveXx} 5xx; ` +
		`${faults.kills} kills, ${report.faults.brokenConnections}/${proxy.counts.connections} connections broken, ${faults.workerRestarts} Worker restart(s); ` +
		(faultsOn.size > 0 ? `dependency faults ${[...faultsOn].join(",")}: ${faultSummary()}; ` : "") +
		`audit ${"clean" in audit ? (audit.clean ? "clean" : `NOT clean (${audit.problems.length} problems, ${audit.orphans.length} orphans)`) : audit.error}; ` +
		`left behind: ${jobFiles.length} job files, ${orphanCount ?? "?"} orphaned objects → ${out}`,
);
if (!report.passed) {
	console.error(
		`soak failed: ${Object.entries(verdicts)
			.filter(([, ok]) => !ok)
			.map(([name]) => name)
			.join(", ")}${flags.keep || !report.passed ? ` (state and logs kept in ${stateDir})` : ""}`,
	);
	process.exit(1);
}
process.exit(0);

/** The soak's workspaces (each its own user, plan, 500 minutes and API key), in one D1 batch: as `npm run admin -- create-account` makes them, without a wrangler run each. */
function createWorkspaces(persistTo: string, count: number, minutes: number): string[] {
	const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
	const keys: string[] = [];
	let sql = "";
	for (let w = 0; w < count; w++) {
		const key = `cf_live_${randomBytes(24).toString("base64url")}`;
		keys.push(key);
		sql += createAccountSql({
			userId: id("usr"),
			email: `soak-${w}@clipforge.local`,
			passwordHash: null,
			workspaceId: id("wsp"),
			workspaceName: `soak ${w}`,
			minutes,
			planId: id("pln"),
			maxSeconds: 3 * 3600,
			maxConcurrent: null,
			keyId: id("key"),
			keyHash: createHash("sha256").update(key).digest("hex"),
			keyPrefix: key.slice(0, 12),
		});
	}
	const file = join(stateDir, "soak-workspaces.sql");
	writeFileSync(file, sql);
	const result = spawnSync(process.execPath, [WRANGLER_BIN, ...localD1Execute(persistTo), "--file", file, "--yes"], {
		env: QUIET_WRANGLER_ENV,
		encoding: "utf8",
	});
	if (result.status !== 0)
		throw new Error(`creating the soak's workspaces failed: ${result.stderr || result.stdout}`);
	return keys;
}

/** The Worker's vars for the dependency faults: INJECT_FAULTS (d1, r2), and the AI stand-in in place of Workers AI (ai). */
function dependencyVars(): Record<string, string> {
	const vars: Record<string, string> = {};
	const inject = injectFaultsVar(faultsOn, { d1: df.d1Rate, r2: df.r2Rate }, faultsUntil);
	if (inject) vars.INJECT_FAULTS = inject;
	if (aiStandIn) {
		vars.TRANSCRIBER = "workers-ai";
		vars.AI_URL = aiStandIn.url;
		vars.AI_TIMEOUT_SECONDS = String(df.aiTimeoutSeconds);
		vars.LLM_RETRY_DELAYS_MS = "500,2000,5000";
	}
	return vars;
}

function faultSummary(): string {
	const parts: string[] = [];
	// The Worker counts operations only in its fault lines: with none injected, how many it saw is unknown.
	const share = (d: { injected: number; seen: number }, what: string) =>
		d.seen > 0 ? `${d.injected}/${d.seen} ${what}` : `0 injected (${what} not counted)`;
	if (dependencyFaults.d1) parts.push(`D1 ${share(dependencyFaults.d1, "statements")}`);
	if (dependencyFaults.r2) parts.push(`R2 ${share(dependencyFaults.r2, "operations")}`);
	if (dependencyFaults.ai) {
		const f = Object.values(dependencyFaults.ai.faults).reduce((a, b) => a + b, 0);
		parts.push(`AI ${f}/${dependencyFaults.ai.calls.whisper + dependencyFaults.ai.calls.llm} calls`);
	}
	if (dependencyFaults.drain)
		parts.push(
			`${dependencyFaults.drain.drains} drains (${dependencyFaults.drain.exitedWithinGrace} within the grace)`,
		);
	if (dependencyFaults.disk && "fullEpisodes" in dependencyFaults.disk)
		parts.push(`disk full ${dependencyFaults.disk.fullEpisodes}× (${dependencyFaults.disk.fullSeconds} s)`);
	return parts.join(", ");
}

function rate(part: number, whole: number): number | null {
	return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null;
}

function round(value: number | null): number | null {
	return value === null ? null : Math.round(value * 10) / 10;
}
