/** `clipforge submit <url-or-file>`: a hosted video's URL, or a local file (uploaded in parts, resumable). */
import type { Command } from "commander";
import type { Cli } from "../context.ts";
import {
	buildConfig,
	withConfigOptions,
	withWaitOptions,
	type ConfigFlags,
	type WaitFlags,
} from "../config-options.ts";
import { isLocalFile, submitFile } from "../upload-file.ts";
import { waitAndCollect } from "../wait.ts";
import { captionsFrom } from "../captions-file.ts";

interface SubmitFlags extends ConfigFlags, WaitFlags {
	project?: string;
	captionsFrom?: string;
	uploadId?: string;
	idempotencyKey?: string;
}

export function registerSubmit(program: Command, cli: Cli): void {
	const command = program
		.command("submit")
		.description(
			"Submit a video for clipping: a hosted video's URL, or a local file (uploaded in parts, resumed when run again after an interruption)",
		)
		.argument("<url-or-file>", "the hosted video's URL, or the path of a video file");
	withWaitOptions(
		withConfigOptions(command, true)
			.option("--project <id>", "project id")
			.option(
				"--captions-from <file-or-url>",
				"the video's own captions (SRT or WebVTT, a file or a URL), read instead of transcribing: any language",
			)
			.option("--upload-id <id>", "a file: resume this upload (the CLI remembers interrupted uploads by itself)")
			.option(
				"--idempotency-key <key>",
				"retry-safe submission key (default: a fresh one per run, reused by the SDK's own retries)",
			),
	).action(async (source: string, opts: SubmitFlags) => {
		const config = buildConfig(opts);
		const options = {
			projectId: opts.project,
			idempotencyKey: opts.idempotencyKey,
			...(opts.captionsFrom ? { captions: await captionsFrom(opts.captionsFrom) } : {}),
		};
		const submitted = isLocalFile(source)
			? await submitFile(cli, source, config, options, opts.uploadId)
			: await cli.client().submit(source, config, options);
		const id = submitted.video.id;
		const about = `${id} ("${submitted.videoInfo.title}", ${Math.round(submitted.videoInfo.duration)} s)`;
		if (!opts.wait) {
			cli.output(
				submitted,
				() => `Submitted ${about}: ${submitted.video.status}. Follow it with: clipforge status ${id}`,
			);
			return;
		}
		await waitAndCollect(cli, id, opts, `Submitted ${about}`);
	});
}
