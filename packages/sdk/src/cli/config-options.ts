/**
 * The config flags (from the config table: config-flags.ts) and the waiting flags, shared by
 * `clipforge submit` and `clipforge reprocess`, and the config they ask for.
 */
import { readFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { ClipforgeError } from "../errors.ts";
import type { VideoConfig } from "../node-client.ts";
import { configFlagSpecs, configFromFlags } from "./config-flags.ts";
import { cliParser, number } from "./parsers.ts";

/** The config file and the config flags as commander parsed them. */
export interface ConfigFlags {
	config?: string;
	[flag: string]: unknown;
}

export interface WaitFlags {
	wait?: boolean;
	out?: string;
	interval: number;
}

/** Each config flag given sets its field, the others are left alone. */
export function withConfigOptions(command: Command, forSubmit: boolean): Command {
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

export function withWaitOptions(command: Command): Command {
	return command
		.option("--wait", "wait for processing to finish, showing progress")
		.option("--out <dir>", "with --wait: download the clips here")
		.option("--interval <seconds>", "poll interval with --wait", number("--interval"), 12);
}

/** The config file first, then each flag given on top (unset flags leave the API's defaults). */
export function buildConfig(opts: ConfigFlags): VideoConfig {
	let config: VideoConfig = {};
	if (opts.config) {
		try {
			config = JSON.parse(readFileSync(opts.config, "utf8")) as VideoConfig;
		} catch (error) {
			throw new ClipforgeError("invalid_request", `Could not read ${opts.config}: ${(error as Error).message}`, {
				status: 0,
			});
		}
	}
	return { ...config, ...(configFromFlags(opts) as VideoConfig) };
}
