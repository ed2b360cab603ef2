#!/usr/bin/env node
/**
 * `clipforge`: the API from a terminal. Reads CLIPFORGE_URL and CLIPFORGE_API_KEY (or --url,
 * --api-key). Human output with a live bar per stage on a terminal; `--json` for scripts. Exit
 * codes by error class: 0 ok, 2 bad request/usage, 3 credentials, 4 minutes/plan, 5 not found,
 * 6 the video failed, 7 service unavailable/rate limited/network, 8 bad source, 130 interrupted,
 * 1 anything else. One file per command in cli/commands/.
 */
import { Command } from "commander";
import { registerCaptionTemplates } from "./cli/commands/caption-templates/index.ts";
import { registerClip } from "./cli/commands/clip.ts";
import { registerClips } from "./cli/commands/clips.ts";
import { registerEdit } from "./cli/commands/edit.ts";
import { registerExport } from "./cli/commands/export.ts";
import { registerMcp } from "./cli/commands/mcp.ts";
import { registerReprocess } from "./cli/commands/reprocess.ts";
import { registerChapters } from "./cli/commands/chapters.ts";
import { registerStatus } from "./cli/commands/status.ts";
import { registerSubmit } from "./cli/commands/submit.ts";
import { registerWorkspaces } from "./cli/commands/workspaces.ts";
import { cliContext } from "./cli/context.ts";
import { reportError } from "./cli/report-error.ts";

const program = new Command()
	.name("clipforge")
	.description("Turn long videos into short, captioned clips with the clipforge API.")
	.option("--url <url>", "API base URL (env CLIPFORGE_URL)", process.env.CLIPFORGE_URL)
	.option("--api-key <key>", "API key cf_live_… (env CLIPFORGE_API_KEY)", process.env.CLIPFORGE_API_KEY)
	.option("--json", "machine-readable output on stdout")
	.showHelpAfterError()
	// Before the subcommands are added: they copy it. Usage errors then reach our exit codes.
	.exitOverride();

const cli = cliContext(program);
const COMMANDS = [
	registerSubmit,
	registerReprocess,
	registerMcp,
	registerStatus,
	registerChapters,
	registerClips,
	registerClip,
	registerEdit,
	registerExport,
	registerWorkspaces,
	registerCaptionTemplates,
];
for (const register of COMMANDS) register(program, cli);

try {
	await program.parseAsync(process.argv);
} catch (error) {
	process.exit(reportError(error, cli.json()));
}
