/**
 * Measures the stage costs the budget needs on this machine, with the tier's own ffmpeg arguments:
 * CPU seconds (user + system, from bash's `time`), which other processes on a shared machine barely
 * change, unlike wall time. A 1080p talk is generated (30 s, looped to 10 minutes for the audio
 * passes); the encode runs on one thread so its CPU time is what one vCPU spends.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { renderClipArgs } from "../../containers/render/src/ffmpeg/clip-args.ts";
import { extractAudioChunkArgs, loudnessArgs } from "../../containers/render/src/ffmpeg/source-args.ts";
import { layoutFor } from "../../containers/render/src/framing/layout.ts";
import { loopVideo, makeTalkVideo } from "../../scripts/sample-video.ts";
import type { MeasuredCosts } from "./costs.ts";

const CLIP_SECONDS = 30;
const LONG_SECONDS = 600;

export async function measureCosts(): Promise<MeasuredCosts> {
	const dir = mkdtempSync(join(tmpdir(), "clipforge-costs-"));
	try {
		const short = join(dir, "talk-1080p.mp4");
		const long = join(dir, "talk-1080p-10min.mp4");
		console.error("Making a 1080p sample talk and measuring (CPU time, a few minutes on a busy machine) …");
		makeTalkVideo({ out: short, seconds: CLIP_SECONDS + 5, width: 1920, height: 1080, preset: "veryfast" });
		loopVideo(short, Math.ceil(LONG_SECONDS / CLIP_SECONDS), LONG_SECONDS, long);
		const encodeArgs = oneThread(
			renderClipArgs({
				sourceUrl: short,
				start: 2,
				end: 2 + CLIP_SECONDS,
				layout: layoutFor("9:16", null),
				track: null,
				assFile: null,
				backgroundFile: null,
				watermark: null,
				outputPath: join(dir, "clip.mp4"),
			}),
		);
		const encode = cpuSecondsOf(encodeArgs);
		const audio = cpuSecondsOf(extractAudioChunkArgs(long, 0, LONG_SECONDS, join(dir, "audio.mp3")));
		const loudness = cpuSecondsOf(loudnessArgs(long, 0, LONG_SECONDS));
		const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
		return {
			measuredAt: new Date().toISOString(),
			machine: `${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), ${ffmpegVersion()}`,
			encodeCpuPerClipSecond: round(encode / CLIP_SECONDS, 3),
			audioCpuPerSourceSecond: round(audio / LONG_SECONDS, 5),
			loudnessCpuPerSourceSecond: round(loudness / LONG_SECONDS, 5),
			tierStartSeconds: round(await tierStartSeconds(), 2),
			offlineRankSeconds: offlineRankSeconds(),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The same encode on one thread (x264 and the filter graph): what one vCPU spends. */
function oneThread(args: string[]): string[] {
	const out = [...args];
	out.splice(out.indexOf("-c:v"), 0, "-threads", "1");
	out.splice(out.indexOf("-filter_complex"), 0, "-filter_complex_threads", "1");
	return out;
}

/** User + system CPU seconds of one ffmpeg run. */
function cpuSecondsOf(args: string[]): number {
	const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
	const out = execFileSync("bash", ["-c", `TIMEFORMAT='%U %S'; { time ffmpeg ${quoted} >/dev/null 2>&1 ; } 2>&1`], {
		encoding: "utf8",
	});
	const [user, system] = out.trim().split(/\s+/).slice(-2).map(Number);
	return user! + system!;
}

function ffmpegVersion(): string {
	return execFileSync("ffmpeg", ["-version"], { encoding: "utf8" })
		.split("\n")[0]!
		.replace(/ Copyright.*/, "");
}

/** The render tier's server from spawn to its first /healthz answer. */
async function tierStartSeconds(): Promise<number> {
	const port = await new Promise<number>((resolve) => {
		const server = createServer();
		server.listen(0, "127.0.0.1", () => {
			const { port: p } = server.address() as { port: number };
			server.close(() => resolve(p));
		});
	});
	const started = performance.now();
	const tier = spawn(process.execPath, [join(import.meta.dirname, "../../containers/render/src/server.ts")], {
		env: {
			...process.env,
			PORT: String(port),
			RENDER_HOST: "127.0.0.1",
			RENDER_SECRET: randomBytes(32).toString("base64url"),
			RENDER_QUIET: "true",
			WORK_DIR: mkdtempSync(join(tmpdir(), "clipforge-tier-")),
		},
		stdio: "ignore",
	});
	try {
		for (;;) {
			if (
				await fetch(`http://127.0.0.1:${port}/healthz`).then(
					(r) => r.ok,
					() => false,
				)
			)
				return (performance.now() - started) / 1000;
			if (performance.now() - started > 60_000) throw new Error("The render tier did not start within 60 s.");
			await new Promise((r) => setTimeout(r, 50));
		}
	} finally {
		tier.kill();
	}
}

/** The rank step of bench:pipeline's 30-minute run (local, offline ranker), if it was measured. */
function offlineRankSeconds(): number | null {
	if (!existsSync("bench-results/pipeline.json")) return null;
	const report = JSON.parse(readFileSync("bench-results/pipeline.json", "utf8")) as {
		runs?: { minutes: number; timeline?: { step: string; seconds: number }[] }[];
	};
	const run = report.runs?.find((r) => r.minutes === 30);
	return run?.timeline?.find((t) => t.step === "rank moments")?.seconds ?? null;
}
