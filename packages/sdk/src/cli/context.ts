/**
 * What every command shares: the program's global options (--url, --api-key, --json), the client
 * they make, and how a result is printed (JSON for scripts, text for people).
 */
import type { Command } from "commander";
import { ClipforgeError } from "../errors.ts";
import { createClient, type ClipforgeClient } from "../node-client.ts";

export interface Cli {
	/** The API client for --url and --api-key (made once, on first use). */
	client(): ClipforgeClient;
	/** The API's base URL as given (uploads are remembered per API). */
	url(): string | undefined;
	/** --json: machine-readable output on stdout. */
	json(): boolean;
	/** Prints `data` as JSON with --json, else `text()`. */
	output(data: unknown, text: () => string): void;
}

export function cliContext(program: Command): Cli {
	let cached: ClipforgeClient | null = null;
	const options = () => program.opts<{ url?: string; apiKey?: string; json?: boolean }>();
	const json = () => Boolean(options().json);
	return {
		client() {
			if (cached) return cached;
			const { url, apiKey } = options();
			if (!url || !apiKey)
				throw new ClipforgeError(
					"unauthorized",
					"Set CLIPFORGE_URL and CLIPFORGE_API_KEY (or pass --url and --api-key). `make up` prints both.",
					{ status: 0 },
				);
			cached = createClient({ baseUrl: url, apiKey });
			return cached;
		},
		url: () => options().url,
		json,
		output(data, text) {
			console.log(json() ? JSON.stringify(data, null, 2) : text());
		},
	};
}
