/**
 * A local stack whose Worker counts what it uses (tools/bench/metered-worker.js): the stack starts
 * as usual (scripts/stack.ts), then its `wrangler dev` is stopped and started again, on the same
 * port, state and secrets, with the metered module as its main. Nothing of the stack's own code
 * changes; `meter()` reads the counts.
 */
import { spawn } from "node:child_process";
import { openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEV_VARS, ROOT, secretsFileFor, startStack, type StackInfo, type StartOptions } from "../../scripts/stack.ts";
import { QUIET_WRANGLER_ENV, WRANGLER_BIN } from "../../scripts/wrangler.ts";

export interface Meter {
	since: string;
	until: string;
	requests: { api: number; internal: number; other: number; cron: number };
	d1: { queries: number; batches: number; rowsRead: number; rowsWritten: number };
	r2: { classA: number; classB: number; free: number; byMethod: Record<string, number> };
	workflows: { runs: number; steps: number; byStep: Record<string, number> };
	byStage: Record<
		string,
		{ requests: number; d1Queries: number; rowsRead: number; rowsWritten: number; r2A: number; r2B: number }
	>;
}

export async function startMeteredStack(options: StartOptions): Promise<StackInfo & { workerPid: number }> {
	const stack = await startStack(options);
	const pids = JSON.parse(readFileSync(join(stack.stateDir, "pids.json"), "utf8")) as number[];
	try {
		process.kill(-pids[1]!, "SIGTERM");
	} catch {
		// Already gone.
	}
	const port = new URL(stack.url).port;
	for (let tries = 0; tries < 150 && (await answers(stack.url)); tries++) await sleep(200);
	const launch = JSON.parse(readFileSync(join(stack.stateDir, "launch.json"), "utf8")) as {
		workerRenderUrl: string;
		workerVars: Record<string, string>;
	};
	const secrets = secretsFileFor(stack.stateDir);
	const log = join(stack.stateDir, "wrangler.log");
	const worker = spawn(
		process.execPath,
		[
			WRANGLER_BIN,
			"dev",
			"tools/bench/metered-worker.js",
			"--env",
			"local",
			"--ip",
			"127.0.0.1",
			"--port",
			port,
			"--persist-to",
			join(stack.stateDir, "wrangler-state"),
			"--show-interactive-dev-session=false",
			...(secrets === DEV_VARS ? [] : ["--env-file", secrets]),
			"--var",
			`RENDER_URL:${launch.workerRenderUrl}`,
			"--var",
			`INTERNAL_BASE_URL:${stack.url}`,
			...Object.entries(launch.workerVars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
		],
		{
			cwd: ROOT,
			detached: true,
			stdio: ["ignore", openSync(log, "a"), openSync(log, "a")],
			env: QUIET_WRANGLER_ENV,
		},
	);
	worker.unref();
	pids[1] = worker.pid!;
	writeFileSync(join(stack.stateDir, "pids.json"), JSON.stringify(pids));
	const deadline = Date.now() + 120_000;
	while (
		!(await fetch(`${stack.url}/__meter`).then(
			(r) => r.ok,
			() => false,
		))
	) {
		if (Date.now() > deadline) throw new Error(`The metered Worker did not start; see ${log}`);
		await sleep(500);
	}
	return { ...stack, workerPid: worker.pid! };
}

/** The Worker's counts since the last reset (and, with `reset`, zero them). */
export async function meter(stack: StackInfo, reset = false): Promise<Meter> {
	return (await (await fetch(`${stack.url}/__meter${reset ? "?reset=1" : ""}`)).json()) as Meter;
}

/** The bucket's objects by key prefix, with their bytes. */
export async function storedObjects(stack: StackInfo): Promise<Record<string, { objects: number; bytes: number }>> {
	return (await (await fetch(`${stack.url}/__meter/stored`)).json()) as Record<
		string,
		{ objects: number; bytes: number }
	>;
}

const answers = (url: string) =>
	fetch(`${url}/healthz`).then(
		() => true,
		() => false,
	);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
