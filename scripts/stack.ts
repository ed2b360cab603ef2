/**
 * The local stack: the render tier as a native Node process and `wrangler dev --env local` (Worker,
 * Workflows, D1, R2 in Miniflare), wired together by URL. Used by `make up`/`make down`, `make demo`
 * and the end-to-end tests.
 *
 * CLI: `node scripts/stack.ts up|down|status`  (state in .stack/, ports from CLIPFORGE_PORT and RENDER_PORT)
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_SAMPLE, ensureDemoSample } from "./sample-video.ts";
import { QUIET_WRANGLER_ENV, runWrangler, WRANGLER_BIN } from "./wrangler.ts";

export const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
export const DEFAULT_STATE_DIR = join(ROOT, ".stack");

export interface StackInfo {
	url: string;
	renderUrl: string;
	apiKey: string;
	/** The bootstrap user's dashboard sign-in (/app). */
	email: string;
	password: string;
	pids: number[];
	stateDir: string;
	/** Where `make up` serves the sample talk video (`${samplesUrl}/talk-60s-speaker.mp4`), once started. */
	samplesUrl?: string;
}

export interface StartOptions {
	stateDir: string;
	port?: number;
	renderPort?: number;
	/** Minutes granted to the bootstrap workspace. */
	minutes?: number;
}

/** Starts both processes in the background (they outlive this one), waits until both answer. */
export async function startStack(options: StartOptions): Promise<StackInfo> {
	const stateDir = resolve(options.stateDir);
	mkdirSync(stateDir, { recursive: true });
	const port = options.port ?? (await freePort());
	const renderPort = options.renderPort ?? (await freePort());
	for (const p of [port, renderPort]) {
		// Another server on the port would answer our health checks and fool every later step.
		if (!(await isPortFree(p))) throw new Error(`Port ${p} is already in use on 127.0.0.1; stop that server or set CLIPFORGE_PORT / RENDER_PORT.`);
	}
	const inspectorPort = await freePort();
	const persist = join(stateDir, "wrangler-state");
	const url = `http://127.0.0.1:${port}`;
	const renderUrl = `http://127.0.0.1:${renderPort}`;

	runWrangler(["d1", "migrations", "apply", "DB", "--local", "--env", "local", "--persist-to", persist]);

	const render = spawnRenderTier(stateDir, renderPort);
	const worker = spawn(
		process.execPath,
		[
			WRANGLER_BIN, "dev", "--env", "local", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort),
			"--persist-to", persist, "--show-interactive-dev-session=false",
			"--var", `RENDER_URL:${renderUrl}`, "--var", `INTERNAL_BASE_URL:${url}`,
		],
		{ cwd: ROOT, detached: true, stdio: ["ignore", openSync(join(stateDir, "wrangler.log"), "a"), openSync(join(stateDir, "wrangler.log"), "a")], env: QUIET_WRANGLER_ENV },
	);
	render.unref();
	worker.unref();
	const pids = [render.pid!, worker.pid!];
	writeFileSync(join(stateDir, "pids.json"), JSON.stringify(pids));
	try {
		await waitForHealth(`${renderUrl}/healthz`, 30_000, join(stateDir, "render.log"));
		await waitForHealth(`${url}/healthz`, 90_000, join(stateDir, "wrangler.log"));
	} catch (error) {
		stopPids(pids);
		throw error;
	}
	const account = ensureAccount(stateDir, persist, options.minutes ?? 1000);
	const info: StackInfo = { url, renderUrl, ...account, pids, stateDir };
	writeFileSync(join(stateDir, "stack.json"), JSON.stringify(info, null, 2));
	return info;
}

/** The native render tier (the Container's code) on loopback, logging to the state folder. */
function spawnRenderTier(stateDir: string, renderPort: number) {
	return spawn(process.execPath, [join(ROOT, "containers/render/src/server.ts")], {
		cwd: ROOT,
		detached: true,
		stdio: ["ignore", openSync(join(stateDir, "render.log"), "a"), openSync(join(stateDir, "render.log"), "a")],
		env: { ...process.env, PORT: String(renderPort), HOST: "127.0.0.1", ALLOW_PRIVATE_SOURCES: "true", WORK_DIR: join(stateDir, "render-work") },
	});
}

/**
 * Kills the running stack's render tier at once (SIGKILL: no cleanup, streams cut mid-job), waits
 * `downMs`, and starts it again on the same port. For fault tests against the real stack.
 */
export async function crashRenderTier(stateDir: string, downMs: number): Promise<void> {
	const info = JSON.parse(readFileSync(join(stateDir, "stack.json"), "utf8")) as StackInfo;
	const [renderPid, ...rest] = JSON.parse(readFileSync(join(stateDir, "pids.json"), "utf8")) as number[];
	try {
		process.kill(-renderPid!, "SIGKILL");
	} catch {
		// Already gone.
	}
	await new Promise((r) => setTimeout(r, downMs));
	const render = spawnRenderTier(stateDir, Number(new URL(info.renderUrl).port));
	render.unref();
	writeFileSync(join(stateDir, "pids.json"), JSON.stringify([render.pid!, ...rest]));
	await waitForHealth(`${info.renderUrl}/healthz`, 30_000, join(stateDir, "render.log"));
}

/** The stack recorded in `stateDir`, if its processes still answer. */
export async function runningStack(stateDir: string): Promise<StackInfo | null> {
	const file = join(stateDir, "stack.json");
	if (!existsSync(file)) return null;
	const info = JSON.parse(readFileSync(file, "utf8")) as StackInfo;
	const alive = await Promise.all([info.url, info.renderUrl].map((u) => fetch(`${u}/healthz`).then((r) => r.ok, () => false)));
	return alive.every(Boolean) ? info : null;
}

/**
 * For `make up`: the demo's sample talk video (made once) served on loopback by a third background
 * process that `make down` stops with the others, so a newcomer has a URL to paste into the
 * dashboard or give the CLI. Reused while it still answers.
 */
export async function ensureSampleServer(info: StackInfo, port: number): Promise<string> {
	const alive = info.samplesUrl && (await fetch(`${info.samplesUrl}/${DEMO_SAMPLE}`, { method: "HEAD" }).then((r) => r.ok, () => false));
	if (alive) return info.samplesUrl!;
	const folder = join(info.stateDir, "samples");
	ensureDemoSample(folder, () => console.error("Making the 60 s sample talk video (once) …"));
	if (!(await isPortFree(port))) throw new Error(`Port ${port} is already in use on 127.0.0.1; stop that server or set SAMPLES_PORT.`);
	const server = spawn(process.execPath, [join(ROOT, "scripts/serve-files.ts"), folder, "--port", String(port)], {
		cwd: ROOT,
		detached: true,
		stdio: ["ignore", "ignore", openSync(join(info.stateDir, "samples.log"), "a")],
	});
	server.unref();
	const samplesUrl = `http://127.0.0.1:${port}`;
	const pidsFile = join(info.stateDir, "pids.json");
	writeFileSync(pidsFile, JSON.stringify([...(JSON.parse(readFileSync(pidsFile, "utf8")) as number[]), server.pid!]));
	await waitForHealth(`${samplesUrl}/${DEMO_SAMPLE}`, 10_000, join(info.stateDir, "samples.log"));
	writeFileSync(join(info.stateDir, "stack.json"), JSON.stringify({ ...info, samplesUrl }, null, 2));
	return samplesUrl;
}

export function stopStack(stateDir: string): boolean {
	const file = join(stateDir, "pids.json");
	if (!existsSync(file)) return false;
	stopPids(JSON.parse(readFileSync(file, "utf8")) as number[]);
	rmSync(file, { force: true });
	rmSync(join(stateDir, "stack.json"), { force: true });
	return true;
}

function stopPids(pids: number[]): void {
	for (const pid of pids) {
		try {
			process.kill(-pid, "SIGTERM"); // the whole process group: wrangler's workerd child too
		} catch {
			// already gone
		}
	}
}

export const BOOTSTRAP_EMAIL = "demo@clipforge.local";

/**
 * One bootstrap account per state folder: created once with an API key and a random dashboard
 * password, both kept in the (git-ignored) folder.
 */
function ensureAccount(stateDir: string, persist: string, minutes: number): { apiKey: string; email: string; password: string } {
	const keyFile = join(stateDir, "api-key");
	const passwordFile = join(stateDir, "password");
	if (existsSync(keyFile) && existsSync(passwordFile)) {
		return { apiKey: readFileSync(keyFile, "utf8").trim(), email: BOOTSTRAP_EMAIL, password: readFileSync(passwordFile, "utf8").trim() };
	}
	const password = randomBytes(12).toString("base64url");
	const result = spawnSync(process.execPath, [join(ROOT, "scripts/admin.ts"), "create-account", "--email", BOOTSTRAP_EMAIL, "--minutes", String(minutes), "--password", password, "--persist-to", persist], {
		cwd: ROOT,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "pipe"],
	});
	const key = result.stdout.trim().split("\n").pop() ?? "";
	if (result.status !== 0 || !key.startsWith("cf_live_")) throw new Error(`creating the bootstrap account failed:\n${result.stderr}`);
	writeFileSync(keyFile, key, { mode: 0o600 });
	writeFileSync(passwordFile, password, { mode: 0o600 });
	return { apiKey: key, email: BOOTSTRAP_EMAIL, password };
}

async function waitForHealth(url: string, timeoutMs: number, logFile: string): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const ok = await fetch(url).then((r) => r.ok, () => false);
		if (ok) return;
		await new Promise((r) => setTimeout(r, 300));
	}
	const log = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n") : "(no log)";
	throw new Error(`${url} did not answer within ${timeoutMs / 1000} s. Last lines of ${logFile}:\n${log}`);
}

function isPortFree(port: number): Promise<boolean> {
	return new Promise((resolveFree) => {
		const server = createServer();
		server.once("error", () => resolveFree(false));
		server.listen(port, "127.0.0.1", () => server.close(() => resolveFree(true)));
	});
}

export function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			server.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
		});
	});
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const command = process.argv[2];
	const stateDir = process.env.CLIPFORGE_STATE_DIR ?? DEFAULT_STATE_DIR;
	if (command === "up") {
		let info = await runningStack(stateDir);
		if (!info) {
			console.error("Starting the render tier and wrangler dev …");
			info = await startStack({ stateDir, port: Number(process.env.CLIPFORGE_PORT ?? 8787), renderPort: Number(process.env.RENDER_PORT ?? 8788) });
		}
		console.error(`clipforge is up (logs: ${stateDir}/wrangler.log, ${stateDir}/render.log; stop with make down)`);
		console.log(`CLIPFORGE_URL=${info.url}`);
		console.log(`CLIPFORGE_API_KEY=${info.apiKey}`);
		console.log(`Dashboard: ${info.url}/app  (sign in as ${info.email} / ${info.password})`);
		const samplesUrl = await ensureSampleServer(info, Number(process.env.SAMPLES_PORT ?? 8789));
		console.log(`Sample video to submit: ${samplesUrl}/${DEMO_SAMPLE}`);
	} else if (command === "down") {
		console.log(stopStack(stateDir) ? "clipforge stopped" : "clipforge was not running");
	} else if (command === "status") {
		const info = await runningStack(stateDir);
		console.log(info ? `running at ${info.url} (render tier ${info.renderUrl})` : "not running");
	} else {
		console.error("usage: node scripts/stack.ts up|down|status");
		process.exit(2);
	}
}
