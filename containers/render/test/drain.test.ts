/**
 * The tier drained as a container platform drains it (a rollout, a scale-down): SIGTERM, a grace
 * period, then SIGKILL (Cloudflare Containers: 15 minutes). A job running at SIGTERM ends and its
 * answer reaches its caller; nothing new is taken (the port is closed; a request on an open
 * connection gets 503 busy, retryable, so the Worker goes to the successor); then the process exits
 * by itself, before any SIGKILL.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobEvent, renderJobs } from "@clipforge/contract";
import { signedPost } from "./signed-post.ts";

const SECRET = "drain-test-secret-0123456789abcdef0123456789abcdef";
const SERVER = fileURLToPath(new URL("../src/server.ts", import.meta.url));

let audioHost: Server;
let audioUrl: string;
let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => {
	release = resolve;
});
let tier: ChildProcess;
let tierUrl: string;
let exited: Promise<number | null>;

const freePort = () =>
	new Promise<number>((resolve) => {
		const probe = createNetServer().listen(0, "127.0.0.1", () => {
			const { port } = probe.address() as AddressInfo;
			probe.close(() => resolve(port));
		});
	});

beforeAll(async () => {
	const work = mkdtempSync(join(tmpdir(), "render-drain-"));
	const wav = join(work, "tone.wav");
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-y",
		"-f",
		"lavfi",
		"-i",
		"sine=frequency=300:duration=2",
		"-ar",
		"16000",
		"-ac",
		"1",
		wav,
	]);
	const audio = readFileSync(wav);
	// Holds the job's input until the test lets it go: the job is running when SIGTERM comes.
	audioHost = createServer((_req, res) => {
		void held.then(() =>
			res.writeHead(200, { "content-type": "audio/wav", "content-length": String(audio.length) }).end(audio),
		);
	}).listen(0, "127.0.0.1");
	await new Promise((r) => audioHost.once("listening", r));
	audioUrl = `http://127.0.0.1:${(audioHost.address() as AddressInfo).port}/tone.wav`;
	const port = await freePort();
	tier = spawn(process.execPath, [SERVER], {
		env: {
			...process.env,
			PORT: String(port),
			RENDER_HOST: "127.0.0.1",
			RENDER_SECRET: SECRET,
			WORK_DIR: join(work, "render-work"),
			ALLOW_PRIVATE_SOURCES: "true",
		},
		stdio: "ignore",
	});
	exited = new Promise((resolve) => tier.once("exit", (code) => resolve(code)));
	tierUrl = `http://127.0.0.1:${port}`;
	for (let tries = 0; tries < 200; tries++) {
		if (
			await fetch(`${tierUrl}/healthz`).then(
				(r) => r.status > 0,
				() => false,
			)
		)
			break;
		await new Promise((r) => setTimeout(r, 100));
	}
}, 60_000);

afterAll(() => {
	release();
	tier?.kill("SIGKILL");
	audioHost?.closeAllConnections();
	audioHost?.close();
});

describe("a drained render tier (SIGTERM, then SIGKILL after a grace period)", () => {
	it("finishes the job it was running, answers it, takes nothing new, and exits by itself", async () => {
		const path = renderJobs.transcribe.path;
		const response = await signedPost(tierUrl, path, { audioUrl, language: "en" }, SECRET);
		expect(response.status).toBe(200);
		const events: JobEvent[] = [];
		const read = (async () => {
			const reader = response.body!.getReader();
			const decoder = new TextDecoder();
			let text = "";
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				text += decoder.decode(value, { stream: true });
			}
			for (const line of text.split("\n").filter(Boolean)) events.push(JobEvent.parse(JSON.parse(line)));
		})();
		await new Promise((r) => setTimeout(r, 500));
		tier.kill("SIGTERM");
		await new Promise((r) => setTimeout(r, 500));
		// The port is closed: a new job goes to the successor.
		const refused = await signedPost(tierUrl, path, { audioUrl, language: "en" }, SECRET).then(
			(r) => r.status,
			() => "refused" as const,
		);
		expect(refused === "refused" || refused === 503).toBe(true);
		release();
		await read;
		expect(events.at(-1)?.type).toBe("result");
		expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running"), 20_000))])).toBe(0);
	}, 60_000);
});
