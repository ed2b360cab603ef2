/**
 * `make demo`: the whole product on this machine. Starts the local stack (unless `make up` already
 * did), makes a 60 s sample talk video, serves it on loopback, submits it with the bootstrap key,
 * shows live progress, lists the clips and downloads them to demo-output/<videoId>/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_SAMPLE, ensureDemoSample } from "./sample-video.ts";
import { serveDirectory } from "./serve-files.ts";
import { DEFAULT_STATE_DIR, renderToolsReport, ROOT, runningStack, startStack, stopStack } from "./stack.ts";

const POLL_MS = 2000; // local processing is fast; real clients should poll every 10-15 s
const TIMEOUT_MS = 15 * 60_000;

const stateDir = process.env.CLIPFORGE_STATE_DIR ?? DEFAULT_STATE_DIR;
const started = Date.now();
const already = await runningStack(stateDir);
step(already ? `Using the running stack at ${already.url}` : "Starting the render tier and wrangler dev …");
const stack =
	already ??
	(await startStack({
		stateDir,
		port: Number(process.env.CLIPFORGE_PORT ?? 8787),
		renderPort: Number(process.env.RENDER_PORT ?? 8788),
	}));
for (const line of await renderToolsReport(stack.renderUrl)) step(line);

const samples = join(stateDir, "samples");
ensureDemoSample(samples, () =>
	step("Making a 60 s sample talk video (a face drifting over an ffmpeg gradient + flite speech) …"),
);
const files = await serveDirectory(samples);
const hostedUrl = `${files.url}/${DEMO_SAMPLE}`;
/** What a creator would ask for: vertical clips with karaoke captions, a hook title and smart crop on the speaker. */
const DEMO_CONFIG = {
	clipDurationMin: 10,
	clipDurationMax: 30,
	aspectRatio: "9:16",
	enableCaptions: true,
	captionTemplateId: "karaoke",
	enableIntroTitle: true,
	enableSmartCrop: true,
};

try {
	const api = async (method: string, path: string, body?: unknown) => {
		const response = await fetch(stack.url + path, {
			method,
			headers: { authorization: `Bearer ${stack.apiKey}`, "content-type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await response.json()) as any;
		if (!response.ok)
			throw new Error(`${method} ${path} → ${response.status} ${json.error?.code}: ${json.error?.message}`);
		return json;
	};

	step(`Submitting ${hostedUrl} with ${JSON.stringify(DEMO_CONFIG)}`);
	const submitted = await api("POST", "/api/videos/hosted", { hostedUrl, config: DEMO_CONFIG });
	const id: string = submitted.video.id;
	console.log(
		`  video ${id} · "${submitted.videoInfo.title}" · ${submitted.videoInfo.duration} s · status ${submitted.video.status}`,
	);

	const deadline = Date.now() + TIMEOUT_MS;
	let status = submitted.video.status as string;
	let lastLine = "";
	while (status !== "completed" && status !== "failed") {
		if (Date.now() > deadline) throw new Error("processing took longer than 15 minutes");
		await new Promise((r) => setTimeout(r, POLL_MS));
		const s = await api("GET", `/api/videos/${id}/status`);
		status = s.video.status;
		const line = progressLine(status, s.job?.progress ?? 0);
		if (line !== lastLine) {
			if (process.stdout.isTTY) process.stdout.write(`\r${line}\x1b[K`);
			else console.log(line);
			lastLine = line;
		}
		if (status === "failed") throw new Error(`processing failed: ${s.video.errorMessage}`);
	}
	if (process.stdout.isTTY) process.stdout.write("\n");

	const { clips, count } = await api("GET", `/api/videos/${id}/clips`);
	const outDir = join(ROOT, "demo-output", id);
	mkdirSync(outDir, { recursive: true });
	step(`${count} clip(s), best first:`);
	for (const [n, clip] of (clips as any[]).entries()) {
		const base = `${String(n + 1).padStart(2, "0")}-${slug(clip.title)}`;
		for (const [url, ext] of [
			[clip.downloadUrl, "mp4"],
			[clip.thumbnailUrl, "jpg"],
		] as const) {
			const file = await fetch(url);
			if (!file.ok) throw new Error(`downloading ${ext} of ${clip.id} → ${file.status}`);
			writeFileSync(join(outDir, `${base}.${ext}`), new Uint8Array(await file.arrayBuffer()));
		}
		console.log(`  ${String(clip.score).padStart(3)}  ${fmt(clip.startTime)}–${fmt(clip.endTime)}  ${clip.title}`);
		console.log(`       ${clip.viralityReason}`);
		console.log(`       ${join("demo-output", id, `${base}.mp4`)}`);
	}
	writeFileSync(join(outDir, "clips.json"), JSON.stringify({ videoId: id, clips }, null, 2));
	step(
		`Done in ${Math.round((Date.now() - started) / 1000)} s. Clips, thumbnails and clips.json are in demo-output/${id}/`,
	);
	if (already) {
		console.log(
			`The stack keeps running (make down stops it): CLIPFORGE_URL=${stack.url} CLIPFORGE_API_KEY=${stack.apiKey}`,
		);
		console.log(`Dashboard: ${stack.url}/app  (sign in as ${stack.email} / ${stack.password})`);
	} else {
		console.log(
			"Next: `make up` keeps the stack running and prints the dashboard's address and sign-in (this video and its",
		);
		console.log(
			"clips are listed there), the API key for the clipforge CLI, and a loopback URL serving this sample to submit again.",
		);
	}
} finally {
	await files.close();
	if (!already) stopStack(stateDir);
}

function progressLine(status: string, progress: number): string {
	const width = 30;
	const filled = Math.round((progress / 100) * width);
	return `  [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${progress.toFixed(0).padStart(3)}%  ${status}`;
}

function step(text: string) {
	console.log(`▸ ${text}`);
}

function fmt(seconds: number): string {
	return `${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(1).padStart(4, "0")}`;
}

function slug(text: string): string {
	return (
		text
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, "-")
			.replace(/^-|-$/g, "")
			.slice(0, 40) || "clip"
	);
}
