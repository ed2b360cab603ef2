#!/usr/bin/env node
/**
 * `clipforge`: the API from a terminal. Reads CLIPFORGE_URL and CLIPFORGE_API_KEY (or --url,
 * --api-key). Human output with a live bar per stage on a terminal; `--json` for scripts. Exit
 * codes by error class: 0 ok, 2 bad request/usage, 3 credentials, 4 minutes/plan, 5 not found,
 * 6 the video failed, 7 service unavailable/rate limited/network, 8 bad source, 130 interrupted,
 * 1 anything else.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import cliProgress from "cli-progress";
import { createClient, type Clip, type VideoConfig, type VideoStatus } from "./node-client.ts";
import { ASPECT_RATIOS, BACKGROUND_CATEGORY_IDS, CAPTION_TEMPLATES, CLIP_MODELS, GENRES, SILENCE_THRESHOLD } from "../../src/worker/domain/config-options.ts";
import { CAPTION_FONT_IDS, CAPTION_POSITIONS, CAPTION_PRESET_IDS } from "@clipforge/contract/words";
import { PROCESSING_STAGES as STAGES } from "../../src/worker/domain/video-status.ts";
import { ClipforgeError, EXIT_CODES, exitCodeFor } from "./errors.ts";
import { serveStdio } from "./mcp/stdio.ts";

const program = new Command()
	.name("clipforge")
	.description("Turn long videos into short, captioned clips with the clipforge API.")
	.option("--url <url>", "API base URL (env CLIPFORGE_URL)", process.env.CLIPFORGE_URL)
	.option("--api-key <key>", "API key cf_live_… (env CLIPFORGE_API_KEY)", process.env.CLIPFORGE_API_KEY)
	.option("--json", "machine-readable output on stdout")
	.showHelpAfterError()
	// Before the subcommands are added: they copy it. Usage errors then reach our exit codes.
	.exitOverride();

/** A preset id or custom:<id>, checked before anything is sent (the API checks that the template exists). */
const templateId = (value: string) => {
	if ((CAPTION_TEMPLATES as readonly string[]).includes(value) || /^custom:ct_[A-Za-z0-9_-]{1,64}$/.test(value)) return value;
	throw new InvalidArgumentError(`must be one of ${CAPTION_TEMPLATES.join(", ")} or custom:<id>.`);
};

const number = (name: string) => (value: string) => {
	const n = Number(value);
	if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
	return n;
};

/** The config flags, shared by submit and reprocess: each one given sets its field, the others are left alone. */
function withConfigOptions(command: Command): Command {
	return command
		.option("--config <file>", "a JSON file with the config (flags below override it)")
		.addOption(new Option("--aspect <ratio>", "aspect ratio").choices(ASPECT_RATIOS))
		.addOption(new Option("--captions <style>", "burn in captions in a preset look").choices(CAPTION_TEMPLATES))
		.option("--caption-template <id>", `burn in captions in a look: a preset (${CAPTION_TEMPLATES.join(", ")}) or custom:<id> (see clipforge caption-templates)`, templateId)
		.option("--no-captions", "no captions")
		.option("--remove-silences", "cut the pauses inside each clip (jump cuts; captions follow)")
		.option("--no-remove-silences", "keep the pauses")
		.option("--silence-threshold <seconds>", `with --remove-silences: shortest pause cut (${SILENCE_THRESHOLD.min}-${SILENCE_THRESHOLD.max}, default 0.6)`, number("--silence-threshold"))
		.option("--hook", "AI hook title over the first seconds")
		.option("--no-hook", "no hook title")
		.option("--smart-crop", "follow the speaker's face")
		.option("--no-smart-crop", "crop at the centre")
		.option("--split <background>", "split-screen over a background id or category (see GET /api/backgrounds)")
		.option("--no-split", "no split-screen")
		.option("--split-ratio <percent>", "height share of the video in split-screen", number("--split-ratio"))
		.option("--watermark", "draw the workspace's watermark (the default)")
		.option("--no-watermark", "no watermark")
		.option("--min <seconds>", "shortest clip", number("--min"))
		.option("--max <seconds>", "longest clip", number("--max"))
		.addOption(new Option("--model <model>", "ranker").choices(CLIP_MODELS))
		.addOption(new Option("--genre <genre>", "genre").choices(GENRES))
		.option("--language <code>", "two-letter language code")
		.option("--prompt <text>", "what to look for (custom prompt)")
		.option("--from <seconds>", "time frame start", number("--from"))
		.option("--to <seconds>", "time frame end", number("--to"));
}

/** --wait, --out and --interval, shared by submit and reprocess. */
function withWaitOptions(command: Command): Command {
	return command
		.option("--wait", "wait for processing to finish, showing progress")
		.option("--out <dir>", "with --wait: download the clips here")
		.option("--interval <seconds>", "poll interval with --wait", number("--interval"), 12);
}

withWaitOptions(
	withConfigOptions(program.command("submit").description("Submit a video URL for clipping").argument("<url>", "the hosted video's URL"))
		.option("--transcribe-only", "only transcribe (no clips)")
		.option("--project <id>", "project id")
		.option("--idempotency-key <key>", "retry-safe submission key (default: a fresh one per run, reused by the SDK's own retries)"),
).action(async (url: string, opts: SubmitFlags) => {
	const cf = client();
	const config = buildConfig(opts);
	const submitted = await cf.submit(url, config, { projectId: opts.project, idempotencyKey: opts.idempotencyKey });
	const id = submitted.video.id;
	const about = `${id} ("${submitted.videoInfo.title}", ${Math.round(submitted.videoInfo.duration)} s)`;
	if (!opts.wait) {
		output(submitted, () => `Submitted ${about}: ${submitted.video.status}. Follow it with: clipforge status ${id}`);
		return;
	}
	await waitAndCollect(id, opts, `Submitted ${about}`);
});

withWaitOptions(
	withConfigOptions(
		program
			.command("reprocess")
			.description("Regenerate a finished video's clips with other settings, from its stored source and transcript (the first reprocess of a video is free, later ones cost half its minutes)")
			.argument("<id>", "video id"),
	).option("--idempotency-key <key>", "retry-safe reprocess key"),
).action(async (id: string, opts: ReprocessFlags) => {
	const result = await client().reprocess(id, buildConfig(opts), { idempotencyKey: opts.idempotencyKey });
	const cost = result.reprocess.minutesCharged > 0 ? `${result.reprocess.minutesCharged} minute(s) charged` : "free";
	const line = `Reprocessing ${id} (reprocess ${result.reprocess.number}, ${cost}): ${result.video.status}`;
	if (!opts.wait) {
		output(result, () => `${line}. Follow it with: clipforge status ${id}`);
		return;
	}
	await waitAndCollect(id, opts, line);
});

program
	.command("mcp")
	.description("Serve the clipforge tools to an AI assistant over stdio (Model Context Protocol), with CLIPFORGE_URL and CLIPFORGE_API_KEY")
	.action(async () => {
		await serveStdio(client());
	});

/**
 * --wait: a bar per stage until the video is done, then its clips (downloaded with --out).
 * `announce` goes to stderr once Ctrl-C is handled, so whoever reacts to it can interrupt cleanly.
 */
async function waitAndCollect(id: string, opts: WaitFlags, announce: string): Promise<void> {
	let downloading = false;
	const { status, clips, files } = await untilInterrupted(
		async (signal) => {
			if (!json()) console.error(announce);
			const status = await waitWithProgress(id, opts.interval * 1000, signal);
			const clips = await client().allClips(id);
			downloading = true;
			return { status, clips, files: opts.out ? await download(clips, opts.out, signal) : [] };
		},
		() => (downloading ? stoppedDownloading(id, opts.out!) : `Stopped waiting; ${id} keeps processing. Follow it with: clipforge status ${id}`),
	);
	output({ video: status.video, clips, files }, () => clipsText(clips, files));
}

program
	.command("status")
	.description("Show a video's status and progress")
	.argument("<id>", "video id")
	.action(async (id: string) => {
		const status = await client().status(id);
		output(status, () => {
			const line = `${status.video.id}  ${status.video.status}  ${status.job.progress.toFixed(0)}%  "${status.video.title}"`;
			return status.video.errorMessage ? `${line}\n${status.video.errorMessage}` : line;
		});
	});

program
	.command("clips")
	.description("List a video's clips, best first (optionally download them)")
	.argument("<id>", "video id")
	.option("--download", "download every clip")
	.option("--out <dir>", "where to download (default ./clips/<id>)")
	.option("--min-score <score>", "only clips scoring at least this", number("--min-score"))
	.action(async (id: string, opts: { download?: boolean; out?: string; minScore?: number }) => {
		const clips = await client().allClips(id, { minScore: opts.minScore });
		const dir = opts.out ?? join("clips", id);
		const files = opts.download ? await untilInterrupted((signal) => download(clips, dir, signal), () => stoppedDownloading(id, dir)) : [];
		output({ videoId: id, clips, files }, () => clipsText(clips, files));
	});

program
	.command("workspaces")
	.description("List your workspaces and minutes")
	.action(async () => {
		const workspaces = await client().workspaces();
		output(workspaces, () => workspaces.map((w) => `${w.id}  ${w.name}  ${w.minutesBalance} min  ${w.plan ? `${w.plan.name}${w.plan.active ? "" : " (inactive)"}` : "no plan"}`).join("\n"));
	});

const templates = program.command("caption-templates").description("Caption looks: the presets and your workspace's own templates (brand kit)");

templates
	.command("list", { isDefault: true })
	.description("List the presets and the workspace's templates with their preview images")
	.action(async () => {
		const list = await client().captionTemplates();
		output(list, () =>
			list.templates
				.map((t) => `${t.id.padEnd(24)} ${t.name}\n${" ".repeat(25)}${t.font}, ${t.textColor}/${t.highlightColor}, ${t.position}${t.previewUrl ? `\n${" ".repeat(25)}${t.previewUrl}` : ""}`)
				.join("\n"),
		);
	});

const templateFields = (command: Command, preset: "required" | "optional") =>
	command
		.addOption(new Option("--preset <id>", "the preset look it starts from").choices(CAPTION_PRESET_IDS).makeOptionMandatory(preset === "required"))
		.addOption(new Option("--font <font>", "font (installed fonts only)").choices(CAPTION_FONT_IDS))
		.option("--text-color <#RRGGBB>", "text colour")
		.option("--highlight-color <#RRGGBB>", "spoken word / box / second line colour")
		.addOption(new Option("--position <where>", "where the captions sit").choices(CAPTION_POSITIONS));

interface TemplateFlags {
	name?: string;
	preset?: (typeof CAPTION_PRESET_IDS)[number];
	font?: (typeof CAPTION_FONT_IDS)[number];
	textColor?: string;
	highlightColor?: string;
	position?: (typeof CAPTION_POSITIONS)[number];
}
const templateBody = (opts: TemplateFlags) =>
	Object.fromEntries(
		Object.entries({ name: opts.name, presetId: opts.preset, font: opts.font, textColor: opts.textColor, highlightColor: opts.highlightColor, position: opts.position }).filter(([, v]) => v !== undefined),
	);
const templateText = (t: { id: string; name: string; font: string; textColor: string; highlightColor: string; position: string }) =>
	`${t.id}  ${t.name}  (${t.font}, ${t.textColor}/${t.highlightColor}, ${t.position}). Use it with: clipforge submit <url> --caption-template ${t.id}`;

templateFields(templates.command("create").description("Save a template: a preset with your font, colours and position").argument("<name>", "its name"), "required").action(
	async (name: string, opts: TemplateFlags) => {
		const created = await client().createCaptionTemplate({ ...templateBody(opts), name, presetId: opts.preset! });
		output(created, () => templateText(created));
	},
);

templateFields(templates.command("update").description("Change a template").argument("<id>", "custom:<id>").option("--name <name>", "new name"), "optional").action(
	async (id: string, opts: TemplateFlags) => {
		const updated = await client().updateCaptionTemplate(id, templateBody(opts));
		output(updated, () => templateText(updated));
	},
);

templates
	.command("delete")
	.description("Delete a template (videos already submitted with it keep its look)")
	.argument("<id>", "custom:<id>")
	.action(async (id: string) => {
		await client().deleteCaptionTemplate(id);
		output({ id, deleted: true }, () => `Deleted ${id}.`);
	});

interface ConfigFlags {
	config?: string;
	aspect?: VideoConfig["aspectRatio"];
	/** A style, or false for --no-captions. */
	captions?: VideoConfig["captionTemplateId"] | false;
	/** A preset id or custom:<id>. */
	captionTemplate?: string;
	removeSilences?: boolean;
	silenceThreshold?: number;
	hook?: boolean;
	smartCrop?: boolean;
	/** A background id or category, or false for --no-split. */
	split?: string | false;
	splitRatio?: number;
	watermark?: boolean;
	min?: number;
	max?: number;
	model?: VideoConfig["clipModel"];
	genre?: VideoConfig["genre"];
	language?: string;
	prompt?: string;
	from?: number;
	to?: number;
	transcribeOnly?: boolean;
}

interface WaitFlags {
	wait?: boolean;
	out?: string;
	interval: number;
}

interface SubmitFlags extends ConfigFlags, WaitFlags {
	project?: string;
	idempotencyKey?: string;
}

interface ReprocessFlags extends ConfigFlags, WaitFlags {
	idempotencyKey?: string;
}

/** The config file first, then each flag given on top (unset flags leave the API's defaults). */
function buildConfig(opts: ConfigFlags): VideoConfig {
	let config: VideoConfig = {};
	if (opts.config) {
		try {
			config = JSON.parse(readFileSync(opts.config, "utf8")) as VideoConfig;
		} catch (error) {
			throw new ClipforgeError("invalid_request", `Could not read ${opts.config}: ${(error as Error).message}`, { status: 0 });
		}
	}
	const set = <K extends keyof VideoConfig>(key: K, value: VideoConfig[K] | undefined) => {
		if (value !== undefined) config[key] = value;
	};
	set("aspectRatio", opts.aspect);
	const look = opts.captionTemplate ?? (opts.captions || undefined);
	if (look) Object.assign(config, { enableCaptions: true, captionTemplateId: look });
	if (opts.captions === false) set("enableCaptions", false);
	set("enableIntroTitle", opts.hook);
	set("enableSmartCrop", opts.smartCrop);
	set("removeSilences", opts.removeSilences);
	set("silenceThresholdSeconds", opts.silenceThreshold);
	if (opts.split) {
		const isCategory = BACKGROUND_CATEGORY_IDS.includes(opts.split);
		Object.assign(config, { enableSplitScreen: true, [isCategory ? "splitScreenBgCategoryId" : "splitScreenBgVideoId"]: opts.split });
	}
	if (opts.split === false) set("enableSplitScreen", false);
	set("splitRatio", opts.splitRatio);
	set("enableWatermark", opts.watermark);
	set("clipDurationMin", opts.min);
	set("clipDurationMax", opts.max);
	set("clipModel", opts.model);
	set("genre", opts.genre);
	set("language", opts.language);
	set("customPrompt", opts.prompt);
	set("timeframeStart", opts.from);
	set("timeframeEnd", opts.to);
	if (opts.transcribeOnly) set("skipClipping", true);
	return config;
}

/**
 * Runs `work` so that Ctrl-C (or SIGTERM) stops the CLI's own waiting or downloading, never the
 * video: the signal aborts `work` (progress bars come down, the cursor comes back, a half-written
 * clip is removed) and the user is told how to pick up again; exit code 130 as for any interrupted command.
 */
async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>, interruptedMessage: () => string): Promise<T> {
	const interrupt = new AbortController();
	const onSignal = () => interrupt.abort();
	process.once("SIGINT", onSignal);
	process.once("SIGTERM", onSignal);
	try {
		return await work(interrupt.signal);
	} catch (error) {
		if (interrupt.signal.aborted) throw new ClipforgeError("aborted", interruptedMessage(), { status: 0 });
		throw error;
	} finally {
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
	}
}

const stoppedDownloading = (id: string, dir: string) => `Stopped downloading; the finished clips are in ${dir}. Download them all with: clipforge clips ${id} --download --out ${dir}`;

/** Polls with a bar per stage on a terminal (a line per change otherwise); throws when the video fails. */
async function waitWithProgress(id: string, intervalMs: number, signal: AbortSignal): Promise<VideoStatus> {
	const live = process.stderr.isTTY && !json();
	const bars = live ? new cliProgress.MultiBar({ format: " {stage} |{bar}| {value}%", hideCursor: true, clearOnComplete: false, stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
	const stageBars = new Map(STAGES.map((stage) => [stage, bars?.create(100, 0, { stage: stage.padEnd(16) })]));
	let lastLine = "";
	const show = (status: VideoStatus) => {
		const current = STAGES.indexOf(status.job.stage as (typeof STAGES)[number]);
		STAGES.forEach((stage, i) => {
			const value = status.video.status === "completed" || i < current ? 100 : i === current ? Math.round(status.job.stageProgress) : 0;
			const waiting = stage === "downloading" && status.job.queuePosition ? `waiting #${status.job.queuePosition}` : stage;
			stageBars.get(stage)?.update(value, { stage: waiting.padEnd(16) });
		});
		if (!live && !json()) {
			const queued = status.job.queuePosition ? ` (waiting for a processing slot, number ${status.job.queuePosition} in line)` : "";
			const line = `${status.video.status} ${status.job.progress.toFixed(0)}%${queued}`;
			if (line !== lastLine) console.error(line);
			lastLine = line;
		}
	};
	try {
		return await client().waitForCompletion(id, { intervalMs, onProgress: show, signal });
	} finally {
		bars?.stop();
	}
}

async function download(clips: Clip[], dir: string, signal: AbortSignal): Promise<string[]> {
	mkdirSync(dir, { recursive: true });
	const cf = client();
	const files: string[] = [];
	for (const [n, clip] of clips.entries()) {
		const slug = clip.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "clip";
		const path = join(dir, `${String(n + 1).padStart(2, "0")}-${slug}.mp4`);
		await cf.downloadClip(clip, path, signal);
		files.push(path);
	}
	return files;
}

function clipsText(clips: Clip[], files: string[]): string {
	if (clips.length === 0) return "No clips.";
	return clips
		.map((c, i) => {
			const lines = [`${String(c.score).padStart(3)}  ${fmt(c.startTime)}-${fmt(c.endTime)}  ${c.title}`, `     ${c.viralityReason}`];
			if (files[i]) lines.push(`     ${files[i]}`);
			return lines.join("\n");
		})
		.join("\n");
}

const fmt = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;
const json = () => Boolean(program.opts().json);

function output(data: unknown, text: () => string) {
	console.log(json() ? JSON.stringify(data, null, 2) : text());
}

let cached: ReturnType<typeof createClient> | null = null;
function client() {
	if (cached) return cached;
	const { url, apiKey } = program.opts<{ url?: string; apiKey?: string }>();
	if (!url || !apiKey) throw new ClipforgeError("unauthorized", "Set CLIPFORGE_URL and CLIPFORGE_API_KEY (or pass --url and --api-key). `make up` prints both.", { status: 0 });
	cached = createClient({ baseUrl: url, apiKey });
	return cached;
}

try {
	await program.parseAsync(process.argv);
} catch (error) {
	const commanderCode = (error as { code?: string }).code;
	if (commanderCode?.startsWith("commander.")) {
		// --help and --version end here too, with exit code 0.
		process.exit(commanderCode === "commander.helpDisplayed" || commanderCode === "commander.version" ? EXIT_CODES.ok : EXIT_CODES.usage);
	}
	const code = exitCodeFor(error);
	if (json()) {
		const e = error instanceof ClipforgeError ? { code: error.code, message: error.message, status: error.status, requestId: error.requestId, details: error.details } : { code: "unexpected", message: String(error) };
		console.log(JSON.stringify({ error: e }, null, 2));
	} else {
		console.error(`clipforge: ${(error as Error).message}${error instanceof ClipforgeError && error.requestId ? ` (request ${error.requestId})` : ""}`);
	}
	process.exit(code);
}

