#!/usr/bin/env node
/**
 * `clipforge`: the API from a terminal. Reads CLIPFORGE_URL and CLIPFORGE_API_KEY (or --url,
 * --api-key). Human output with a live bar per stage on a terminal; `--json` for scripts. Exit
 * codes by error class: 0 ok, 2 bad request/usage, 3 credentials, 4 minutes/plan, 5 not found,
 * 6 the video failed, 7 service unavailable/rate limited/network, 8 bad source, 130 interrupted,
 * 1 anything else.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import cliProgress from "cli-progress";
import { createClient, type Clip, type ClipChanges, type ClipDetail, type ClipFilters, type ExportFormat, type VideoConfig, type VideoStatus } from "./node-client.ts";
import {
	CAPTION_FORMATS, CAPTION_TEMPLATES, CLIP_API_STATUSES, CLIP_SORT_FIELDS, type ClipApiStatus, type ClipSortField, EXPORT_FORMATS, PROCESSING_STAGES as STAGES, SORT_ORDERS,
} from "@clipforge/domain";
import { CAPTION_FONT_IDS, CAPTION_POSITIONS, CAPTION_PRESET_IDS } from "@clipforge/contract/words";
import { ClipforgeError, EXIT_CODES, exitCodeFor } from "./errors.ts";
import { serveStdio } from "./mcp/stdio.ts";
import { captionTemplateRef, configFlagSpecs, configFromFlags } from "./cli/config-flags.ts";

const program = new Command()
	.name("clipforge")
	.description("Turn long videos into short, captioned clips with the clipforge API.")
	.option("--url <url>", "API base URL (env CLIPFORGE_URL)", process.env.CLIPFORGE_URL)
	.option("--api-key <key>", "API key cf_live_… (env CLIPFORGE_API_KEY)", process.env.CLIPFORGE_API_KEY)
	.option("--json", "machine-readable output on stdout")
	.showHelpAfterError()
	// Before the subcommands are added: they copy it. Usage errors then reach our exit codes.
	.exitOverride();

const number = (name: string) => (value: string) => {
	const n = Number(value);
	if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
	return n;
};

/** A parser whose errors commander reports as a usage error (exit code 2). */
const cliParser = <T>(parse: (value: string) => T) => (value: string): T => {
	try {
		return parse(value);
	} catch (error) {
		throw new InvalidArgumentError((error as Error).message);
	}
};

/** The config flags (from the config table), shared by submit and reprocess: each one given sets its field, the others are left alone. */
function withConfigOptions(command: Command, forSubmit: boolean): Command {
	command.option("--config <file>", "a JSON file with the config (flags below override it)");
	for (const spec of configFlagSpecs()) {
		if (spec.submitOnly && !forSubmit) continue;
		const option = new Option(spec.flags, spec.help);
		if (spec.choices) option.choices(spec.choices);
		if (spec.parse) option.argParser(cliParser(spec.parse));
		command.addOption(option);
	}
	return command;
}

/** --wait, --out and --interval, shared by submit and reprocess. */
function withWaitOptions(command: Command): Command {
	return command
		.option("--wait", "wait for processing to finish, showing progress")
		.option("--out <dir>", "with --wait: download the clips here")
		.option("--interval <seconds>", "poll interval with --wait", number("--interval"), 12);
}

withWaitOptions(
	withConfigOptions(
		program
			.command("submit")
			.description("Submit a video for clipping: a hosted video's URL, or a local file (uploaded in parts, resumed when run again after an interruption)")
			.argument("<url-or-file>", "the hosted video's URL, or the path of a video file"),
		true,
	)
		.option("--project <id>", "project id")
		.option("--upload-id <id>", "a file: resume this upload (the CLI remembers interrupted uploads by itself)")
		.option("--idempotency-key <key>", "retry-safe submission key (default: a fresh one per run, reused by the SDK's own retries)"),
).action(async (source: string, opts: SubmitFlags) => {
	const cf = client();
	const config = buildConfig(opts);
	const options = { projectId: opts.project, idempotencyKey: opts.idempotencyKey };
	const submitted = isLocalFile(source) ? await submitFile(source, config, options, opts.uploadId) : await cf.submit(source, config, options);
	const id = submitted.video.id;
	const about = `${id} ("${submitted.videoInfo.title}", ${Math.round(submitted.videoInfo.duration)} s)`;
	if (!opts.wait) {
		output(submitted, () => `Submitted ${about}: ${submitted.video.status}. Follow it with: clipforge status ${id}`);
		return;
	}
	await waitAndCollect(id, opts, `Submitted ${about}`);
});

/** A path that exists and is a file (a URL never is: `https://…` is not a file name here). */
function isLocalFile(source: string): boolean {
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return false;
	try {
		return statSync(source).isFile();
	} catch {
		return false;
	}
}

/**
 * Uploads the file with a progress bar (resuming the upload an earlier, interrupted run of the same
 * file started: remembered in CLIPFORGE_STATE_DIR, default ~/.clipforge), then submits it.
 */
async function submitFile(path: string, config: VideoConfig, options: { projectId?: string; idempotencyKey?: string }, uploadId?: string) {
	const cf = client();
	const memo = uploadMemo(path);
	let resume = uploadId ?? memo.read();
	const live = process.stderr.isTTY && !json();
	const bar = live ? new cliProgress.SingleBar({ format: " uploading        |{bar}| {percentage}% {value}/{total} MiB", hideCursor: true, stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
	let started = false;
	let lastShown = -1;
	let current = resume ?? "";
	const upload = await untilInterrupted(
		async (signal) => {
			const onProgress = (p: { uploadedBytes: number; totalBytes: number; uploadId: string }) => {
				current = p.uploadId;
				memo.write(p.uploadId);
				const mib = (n: number) => Math.round(n / 1024 ** 2);
				if (bar && !started) bar.start(mib(p.totalBytes), 0);
				started = true;
				bar?.update(mib(p.uploadedBytes));
				const percent = Math.floor((p.uploadedBytes / p.totalBytes) * 10) * 10;
				if (!live && !json() && percent !== lastShown) console.error(`uploading ${percent}%`);
				lastShown = percent;
			};
			try {
				return await cf.uploadFile(path, { uploadId: resume, onProgress, signal });
			} catch (error) {
				// An upload that expired (or was made into a video) cannot be resumed: start afresh once.
				if (!resume || !(error instanceof ClipforgeError) || !["not_found", "conflict"].includes(error.code) || uploadId) throw error;
				resume = undefined;
				memo.clear();
				return await cf.uploadFile(path, { onProgress, signal });
			} finally {
				bar?.stop();
			}
		},
		() => `Stopped uploading ${path}${current ? ` (upload ${current})` : ""}; run the same command again to resume where it stopped.`,
	);
	const submitted = await cf.submitUpload(upload.id, config, options);
	memo.clear();
	return submitted;
}

/** Which upload a file of this size and time, sent to this API, was last given (so a second run resumes it). */
function uploadMemo(path: string) {
	const { size, mtimeMs } = statSync(path);
	const dir = process.env.CLIPFORGE_STATE_DIR ?? join(homedir(), ".clipforge");
	const key = createHash("sha256").update(JSON.stringify([program.opts().url, resolve(path), size, mtimeMs])).digest("hex").slice(0, 32);
	const file = join(dir, "uploads", `${key}.json`);
	return {
		read: (): string | undefined => {
			try {
				return (JSON.parse(readFileSync(file, "utf8")) as { uploadId?: string }).uploadId;
			} catch {
				return undefined;
			}
		},
		write: (uploadId: string) => {
			mkdirSync(join(dir, "uploads"), { recursive: true, mode: 0o700 });
			writeFileSync(file, JSON.stringify({ uploadId, path: resolve(path) }), { mode: 0o600 });
		},
		clear: () => rmSync(file, { force: true }),
	};
}

withWaitOptions(
	withConfigOptions(
		program
			.command("reprocess")
			.description("Regenerate a finished video's clips with other settings, from its stored source and transcript (the first reprocess of a video is free, later ones cost half its minutes)")
			.argument("<id>", "video id"),
		false,
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


/** The list's filters, shared by clips and export. */
function withClipFilters(command: Command): Command {
	return command
		.option("--min-score <score>", "only clips scoring at least this", number("--min-score"))
		.option("--max-score <score>", "only clips scoring at most this", number("--max-score"))
		.option("--favorites", "only favorite clips")
		.option("--no-favorites", "only clips that are not favorites")
		.addOption(new Option("--status <status>", "only clips in this status").choices(CLIP_API_STATUSES))
		.addOption(new Option("--sort-by <field>", "order by (best score first by default)").choices(CLIP_SORT_FIELDS))
		.addOption(new Option("--sort-order <order>", "order direction (desc by default)").choices(SORT_ORDERS));
}

interface FilterFlags {
	minScore?: number;
	maxScore?: number;
	favorites?: boolean;
	status?: ClipApiStatus;
	sortBy?: ClipSortField;
	sortOrder?: (typeof SORT_ORDERS)[number];
}

const filtersOf = (opts: FilterFlags): ClipFilters => ({ minScore: opts.minScore, maxScore: opts.maxScore, favorited: opts.favorites, status: opts.status, sortBy: opts.sortBy, sortOrder: opts.sortOrder });

withClipFilters(
	program
		.command("clips")
		.description("List a video's clips, best first (optionally download them)")
		.argument("<id>", "video id")
		.option("--download", "download every clip")
		.option("--out <dir>", "where to download (default ./clips/<id>)"),
).action(async (id: string, opts: FilterFlags & { download?: boolean; out?: string }) => {
	const clips = await client().allClips(id, filtersOf(opts));
	const dir = opts.out ?? join("clips", id);
	const files = opts.download ? await untilInterrupted((signal) => download(clips, dir, signal), () => stoppedDownloading(id, dir)) : [];
	output({ videoId: id, clips, files }, () => clipsText(clips, files));
});

program
	.command("clip")
	.description("Show one clip: times, score, status, captions' words, a fresh download link")
	.argument("<id>", "clip id")
	.option("--words", "also list its caption words with their indexes (for edit --word)")
	.action(async (id: string, opts: { words?: boolean }) => {
		const clip = await client().clip(id);
		output(clip, () => clipText(clip, opts.words));
	});

/** Seconds, or m:ss(.s), or h:mm:ss(.s). */
const time = (name: string) => (value: string) => {
	const parts = value.split(":").map(Number);
	if (parts.length > 3 || parts.some((p) => !Number.isFinite(p) || p < 0)) throw new InvalidArgumentError(`${name} must be seconds or m:ss.`);
	return parts.reduce((total, p) => total * 60 + p, 0);
};

const wordFix = (value: string, previous: { index: number; word: string }[] = []) => {
	const match = /^(\d+)=(.+)$/.exec(value);
	if (!match) throw new InvalidArgumentError("--word takes INDEX=WORD (see clipforge clip <id> --words).");
	return [...previous, { index: Number(match[1]), word: match[2]! }];
};

program
	.command("edit")
	.description("Edit a clip: trim it (snapped to word edges), retitle it, change its caption look or words; changes to the picture re-render it (free, up to a limit per clip)")
	.argument("<id>", "clip id")
	.option("--start <time>", "new start in the source (seconds or m:ss)", time("--start"))
	.option("--end <time>", "new end in the source (seconds or m:ss)", time("--end"))
	.option("--title <text>", "new title")
	.option("--hook-title <text>", "new hook title (drawn when the video has hook titles)")
	.option("--caption-style <id>", `the clip's own caption look (turns its captions on): a preset (${CAPTION_TEMPLATES.join(", ")}) or custom:<id>`, cliParser(captionTemplateRef))
	.option("--word <index=word>", "correct caption word INDEX (repeatable)", wordFix)
	.option("--favorite", "mark as favorite")
	.option("--no-favorite", "unmark favorite")
	.option("--wait", "wait for the re-render to finish")
	.action(async (id: string, opts: { start?: number; end?: number; title?: string; hookTitle?: string; captionStyle?: ClipChanges["captionStyle"]; word?: { index: number; word: string }[]; favorite?: boolean; wait?: boolean }) => {
		const changes: ClipChanges = {};
		if (opts.start !== undefined) changes.startTime = opts.start;
		if (opts.end !== undefined) changes.endTime = opts.end;
		if (opts.title !== undefined) changes.title = opts.title;
		if (opts.hookTitle !== undefined) changes.hookTitle = opts.hookTitle;
		if (opts.captionStyle !== undefined) changes.captionStyle = opts.captionStyle;
		if (opts.word) changes.captionWords = opts.word;
		if (opts.favorite !== undefined) changes.favorited = opts.favorite;
		if (Object.keys(changes).length === 0) throw new ClipforgeError("invalid_request", "Nothing to change: give --start, --end, --title, --hook-title, --caption-style, --word or --favorite.", { status: 0 });
		let clip = await client().updateClip(id, changes);
		if (clip.status === "generating" && opts.wait) {
			if (!json()) console.error(`Rendering ${id} again…`);
			clip = await untilInterrupted((signal) => client().waitForClip(id, { signal }), () => `Stopped waiting; ${id} keeps rendering. Check it with: clipforge clip ${id}`);
			if (clip.editError) throw new ClipforgeError("video_failed", clip.editError, { status: 200, details: clip });
		}
		output(clip, () => `${clip.status === "generating" ? "Re-rendering (check with: clipforge clip " + id + ")" : "Saved"}\n${clipText(clip)}`);
	});

const EXPORTS = [...CAPTION_FORMATS, ...EXPORT_FORMATS] as const;
const EXTENSION: Record<(typeof EXPORTS)[number], string> = { srt: "srt", vtt: "vtt", fcpxml: "fcpxml", premiere: "xml", zip: "zip" };

withClipFilters(
	program
		.command("export")
		.description("Export a video's clips: captions (srt, vtt: one file per clip), an editor timeline on the source (fcpxml for Final Cut / DaVinci Resolve, premiere), or a zip of the MP4s")
		.argument("<id>", "video id")
		.addOption(new Option("--format <format>", "what to export").choices(EXPORTS).makeOptionMandatory())
		.option("--out <path>", "the file to write (a folder for srt/vtt); default ./<id>-clips.<ext> (./clips/<id>/ for srt/vtt)")
		.option("--media-url <url>", "timelines: where the editor finds your copy of the source (default: the URL it was submitted from)"),
).action(async (id: string, opts: FilterFlags & { format: (typeof EXPORTS)[number]; out?: string; mediaUrl?: string }) => {
	const cf = client();
	const filters = filtersOf(opts);
	if (opts.format === "srt" || opts.format === "vtt") {
		const format = opts.format;
		const dir = opts.out ?? join("clips", id);
		mkdirSync(dir, { recursive: true });
		const clips = await cf.allClips(id, filters);
		const files: string[] = [];
		for (const [n, clip] of clips.entries()) {
			const path = join(dir, `${fileStem(clip, n)}.${format}`);
			writeFileSync(path, await cf.clipCaptions(clip.id, format));
			files.push(path);
		}
		output({ videoId: id, format, files }, () => (files.length > 0 ? files.join("\n") : "No clips."));
		return;
	}
	const path = opts.out ?? `${id}-clips.${EXTENSION[opts.format]}`;
	const bytes = await untilInterrupted((signal) => cf.exportToFile(id, opts.format as ExportFormat, path, { ...filters, mediaUrl: opts.mediaUrl }, signal), () => `Stopped; nothing was written to ${path}.`);
	output({ videoId: id, format: opts.format, file: path, bytes }, () => `${path} (${bytes} bytes)`);
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

/** The config file and the config flags as commander parsed them (see cli/config-flags.ts). */
interface ConfigFlags {
	config?: string;
	[flag: string]: unknown;
}

interface WaitFlags {
	wait?: boolean;
	out?: string;
	interval: number;
}

interface SubmitFlags extends ConfigFlags, WaitFlags {
	project?: string;
	uploadId?: string;
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
	return { ...config, ...(configFromFlags(opts) as VideoConfig) };
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
		const path = join(dir, `${fileStem(clip, n)}.mp4`);
		await cf.downloadClip(clip, path, signal);
		files.push(path);
	}
	return files;
}

/** `01-the-title`: a clip's file name without extension. */
function fileStem(clip: Pick<Clip, "title">, n: number): string {
	const slug = clip.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "clip";
	return `${String(n + 1).padStart(2, "0")}-${slug}`;
}

function clipText(clip: ClipDetail, words = false): string {
	const lines = [
		`${clip.id}  ${clip.status}${clip.favorited ? "  ★" : ""}  score ${clip.score}  ${fmt(clip.startTime)}-${fmt(clip.endTime)} (${clip.duration.toFixed(1)} s)  "${clip.title}"`,
		`     ${clip.viralityReason}`,
		`     video ${clip.videoId}, ${clip.edits} edit(s)${clip.captionStyle ? `, captions: ${clip.captionStyle}` : ""}`,
	];
	if (clip.editError) lines.push(`     last edit failed: ${clip.editError}`);
	lines.push(`     ${clip.downloadUrl}`);
	if (words) lines.push(clip.words.map((w) => `${String(w.index).padStart(4)}  ${w.start.toFixed(2).padStart(7)}  ${w.word.trim()}`).join("\n"));
	return lines.join("\n");
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
		// The API's per-field problems say what to fix (e.g. the snapped times of a trim).
		const details = error instanceof ClipforgeError && Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]).map((d) => `\n  ${d.path}: ${d.message}`).join("") : "";
		console.error(`clipforge: ${(error as Error).message}${error instanceof ClipforgeError && error.requestId ? ` (request ${error.requestId})` : ""}${details}`);
	}
	process.exit(code);
}

