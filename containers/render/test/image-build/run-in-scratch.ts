/**
 * Runs the tier from a scratch image as the image's CMD would: the same command in the last
 * WORKDIR with the image's ENV, on this machine's Node (the image's version), with every module
 * resolution recorded (record-resolutions.ts). What the image's skipped RUN steps install is this
 * machine's: ffmpeg, fonts and pocketsphinx from Debian, yt-dlp from .venv/yt-dlp (YT_DLP_BIN).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { createServer } from "node:net";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanEnv, type ScratchImage } from "./scratch-image.ts";

const RECORDER = fileURLToPath(new URL("record-resolutions.ts", import.meta.url));
const LOADER = fileURLToPath(new URL("load-at-run-time.ts", import.meta.url));

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.on("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
		});
	});
}

export interface ScratchProcess {
	child: ChildProcess;
	/** stdout and stderr so far. */
	output: () => string;
	exited: Promise<number | null>;
}

/**
 * Starts `node <args>` in the image's last WORKDIR with its ENV. An absolute path in ENV (WORK_DIR)
 * is taken inside the scratch folder, as the image's `/`; `overrides` replace what cannot be the
 * image's here.
 */
export function runInScratch(
	image: ScratchImage,
	args: string[],
	resolutionsLog: string,
	overrides: Record<string, string>,
): ScratchProcess {
	const imageEnv = Object.fromEntries(
		[...image.env].map(([name, value]) => [name, name === "WORK_DIR" ? join(image.root, value) : value]),
	);
	const env = cleanEnv({ ...imageEnv, ...overrides, RESOLUTIONS_LOG: resolutionsLog });
	const child = spawn(process.execPath, ["--import", RECORDER, ...args], {
		cwd: image.workdir,
		env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
	return { child, output: () => output, exited };
}

/** The image's CMD (`node src/server.ts`), listening on loopback at a free port. */
export async function startTier(image: ScratchImage, resolutionsLog: string, ytDlp: string) {
	const [command, ...args] = image.cmd;
	if (command !== "node") throw new Error(`The image's CMD starts ${command}, not node.`);
	const port = await freePort();
	const tier = runInScratch(image, args, resolutionsLog, {
		PORT: String(port),
		// The image listens on all its interfaces (only its Durable Object reaches them); here, loopback.
		RENDER_HOST: "127.0.0.1",
		// The image's /opt/yt-dlp is made by a RUN step not run here.
		YT_DLP_BIN: ytDlp,
		RENDER_SECRET: randomBytes(32).toString("base64url"),
	});
	return { ...tier, url: `http://127.0.0.1:${port}` };
}

/** /healthz's answer once the tier answers at all (its self-check takes a second or so), or why it did not. */
export async function firstHealth(url: string, tier: ScratchProcess, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	let exitCode: number | null | undefined;
	void tier.exited.then((code) => (exitCode = code));
	while (Date.now() < deadline) {
		if (exitCode !== undefined)
			throw new Error(`The tier exited (${exitCode}) before answering:\n${tier.output()}`);
		const answer = await fetch(`${url}/healthz`).then(
			async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
			() => null,
		);
		if (answer) return answer;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`The tier did not answer /healthz within ${timeoutMs} ms:\n${tier.output()}`);
}

/** load-at-run-time.ts in the scratch image: every module of src/, then the face detector. */
export async function loadEverything(image: ScratchImage, resolutionsLog: string) {
	const run = runInScratch(image, [LOADER], resolutionsLog, {});
	const code = await run.exited;
	if (code !== 0) throw new Error(`Loading the tier's modules from the image failed (${code}):\n${run.output()}`);
	return JSON.parse(run.output().trim().split("\n").at(-1)!) as { modules: number; faces: number };
}

/** The files the recorded processes loaded, as paths relative to the image's `/` (`../…` when outside it). */
export function loadedFiles(image: ScratchImage, resolutionsLogs: string[]): string[] {
	const root = realpathSync(image.root);
	const ours = new Set([RECORDER, LOADER]);
	const files = resolutionsLogs
		.flatMap((log) => readFileSync(log, "utf8").split("\n"))
		.filter(Boolean)
		.map((url) => fileURLToPath(url))
		.filter((file) => !ours.has(file))
		.map((file) => posix.relative(root, realpathSync(file)));
	return [...new Set(files)].sort();
}
