/** How a command that failed ends: the error on stderr (or as JSON on stdout with --json) and its exit code. */
import { ClipforgeError, EXIT_CODES, exitCodeFor } from "../errors.ts";

/** The exit code for `error`; a commander usage error (or --help, --version) has its own. */
export function reportError(error: unknown, json: boolean): number {
	const commanderCode = (error as { code?: string }).code;
	if (commanderCode?.startsWith("commander.")) {
		// --help and --version end here too, with exit code 0.
		return commanderCode === "commander.helpDisplayed" || commanderCode === "commander.version"
			? EXIT_CODES.ok
			: EXIT_CODES.usage;
	}
	if (json) {
		const e =
			error instanceof ClipforgeError
				? {
						code: error.code,
						message: error.message,
						status: error.status,
						requestId: error.requestId,
						details: error.details,
					}
				: { code: "unexpected", message: String(error) };
		console.log(JSON.stringify({ error: e }, null, 2));
	} else {
		// The API's per-field problems say what to fix (e.g. the snapped times of a trim).
		const problems =
			error instanceof ClipforgeError && Array.isArray(error.details)
				? (error.details as { path?: string; message?: string }[])
				: [];
		const details = problems.map((d) => `\n  ${d.path}: ${d.message}`).join("");
		const request = error instanceof ClipforgeError && error.requestId ? ` (request ${error.requestId})` : "";
		console.error(`clipforge: ${(error as Error).message}${request}${details}`);
	}
	return exitCodeFor(error);
}
