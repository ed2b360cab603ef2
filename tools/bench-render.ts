/**
 * `npm run bench:render`: the cost of the look. A 30 s clip at 1080x1920 with karaoke captions, a
 * hook title and the watermark, rendered by the tier's own job (one pass: cut, reframe, libass,
 * drawtext, x264, then the thumbnail and the uploads), against a bare single-pass ffmpeg encode of
 * the same cut at the same size and encoder settings. Median of BENCH_RUNS (5) runs each, on a
 * generated 1280x720 talk. Writes bench-results/render.json.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { presetLook, RenderClipRequest, type Word } from "@clipforge/contract";
import { buildAssDocument } from "../containers/render/src/captions/ass-document.ts";
import { renderClipArgs, type RenderClipArgs } from "../containers/render/src/ffmpeg/clip-args.ts";
import { layoutFor } from "../containers/render/src/framing/layout.ts";
import { renderClip } from "../containers/render/src/render/clip.ts";
import { makeTalkVideo } from "../scripts/sample-video.ts";
import { serveDirectory } from "../scripts/serve-files.ts";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const START = 5;
const SECONDS = 30;
const HOOK = "The one habit that changed how I work";

const dir = mkdtempSync(join(tmpdir(), "clipforge-bench-render-"));
process.env.WORK_DIR = join(dir, "work");
process.env.RENDER_QUIET = "true";
// The bench serves its source on loopback: the egress proxy must let private addresses through, as in dev.
process.env.ALLOW_PRIVATE_SOURCES = "true";
try {
	const source = join(dir, "talk.mp4");
	makeTalkVideo({ out: source, seconds: START + SECONDS + 5, width: 1280, height: 720 });
	// A word every 0.36 s with short pauses: as dense as fast speech, so libass has work on every frame.
	const words: Word[] = [];
	for (let t = 0.2; t < SECONDS - 0.5; t += 0.36)
		words.push({
			word: ["we", "render", "captions", "quickly", "today."][words.length % 5]!,
			start: t,
			end: t + 0.3,
		});
	const sink = join(dir, "sink");
	mkdirSync(sink);
	const files = await serveDirectory(dir, { acceptPut: true });

	const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
	const time = async (run: () => Promise<unknown> | unknown) => {
		const started = performance.now();
		await run();
		return (performance.now() - started) / 1000;
	};

	/** The tier's encode of the benchmark's stretch, 9:16, centred, without background. */
	const encodeArgs = (drawn: Pick<RenderClipArgs, "assFile" | "watermark" | "outputPath">) =>
		renderClipArgs({
			sourceUrl: `${files.url}/talk.mp4`,
			start: START,
			end: START + SECONDS,
			layout: layoutFor("9:16", null),
			track: null,
			backgroundFile: null,
			...drawn,
		});
	const bareOut = join(dir, "bare.mp4");
	// Async: the loopback file server lives in this process and must keep answering ffmpeg's reads.
	const bare = () => run("ffmpeg", encodeArgs({ assFile: null, watermark: null, outputPath: bareOut }));
	// The same encode with the look's filters only (no thumbnail, probe or upload): what libass and drawtext cost.
	const assFile = join(dir, "look.ass");
	const markFile = join(dir, "mark.txt");
	writeFileSync(
		assFile,
		buildAssDocument({
			layout: layoutFor("9:16", null),
			captions: { look: presetLook("karaoke"), words },
			hookTitle: HOOK,
			duration: SECONDS,
		}),
	);
	writeFileSync(markFile, "clipforge");
	const styledEncode = () =>
		run(
			"ffmpeg",
			encodeArgs({
				assFile,
				watermark: { kind: "text", textFile: markFile },
				outputPath: join(dir, "styled-encode.mp4"),
			}),
		);
	let n = 0;
	const styled = () =>
		renderClip(
			// Parsed, so the request's defaults (a render option added since, …) are filled as the tier's route does.
			RenderClipRequest.parse({
				videoId: "bench",
				clipId: `clip${n++}`,
				sourceUrl: `${files.url}/talk.mp4`,
				sourceStart: 0,
				start: START,
				end: START + SECONDS,
				aspectRatio: "9:16",
				captions: { look: presetLook("karaoke"), words },
				hookTitle: HOOK,
				watermark: { kind: "text", text: "clipforge" },
				splitScreen: null,
				smartCrop: false,
				jumpCuts: null,
				layout: "single",
				videoPutUrl: `${files.url}/sink/clip.mp4`,
				thumbnailPutUrl: `${files.url}/sink/clip.jpg`,
			}),
			() => undefined,
			new AbortController().signal,
		);

	await time(bare); // warm the page cache and ffmpeg's first start
	const bareTimes: number[] = [];
	const styledTimes: number[] = [];
	const encodeTimes: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		bareTimes.push(await time(bare));
		styledTimes.push(await time(styled));
		encodeTimes.push(await time(styledEncode));
	}
	await files.close();
	const result = {
		measuredAt: new Date().toISOString(),
		machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown" },
		clip: {
			seconds: SECONDS,
			width: 1080,
			height: 1920,
			source: "1280x720 generated talk (testsrc2 + flite), read over loopback HTTP",
			options: "karaoke captions + hook title + text watermark",
		},
		runs: RUNS,
		bareEncodeSeconds: median(bareTimes),
		styledRenderSeconds: median(styledTimes),
		styledEncodeOnlySeconds: median(encodeTimes),
		ratio: median(styledTimes) / median(bareTimes),
		encodeOnlyRatio: median(encodeTimes) / median(bareTimes),
		goalRatio: 1.1,
		realTimeFactor: median(styledTimes) / SECONDS,
		note: "styled = the tier's whole render-clip job (encode with libass + drawtext, thumbnail, upload to a loopback sink); bare = the same cut, crop/scale and x264/aac settings, no text, no thumbnail, no upload",
		samples: { bare: bareTimes, styled: styledTimes, styledEncodeOnly: encodeTimes },
	};
	mkdirSync("bench-results", { recursive: true });
	writeFileSync("bench-results/render.json", `${JSON.stringify(result, null, 2)}\n`);
	console.log(
		`bench:render → bare ${result.bareEncodeSeconds.toFixed(2)} s, styled ${result.styledRenderSeconds.toFixed(2)} s, ratio ${result.ratio.toFixed(3)} (goal ≤ 1.10; encode alone ${result.encodeOnlyRatio.toFixed(3)}), RTF ${result.realTimeFactor.toFixed(3)}`,
	);
} finally {
	rmSync(dir, { recursive: true, force: true });
}
