/**
 * `npm run admin -- orphans [--url URL] [--secrets-file FILE] [--min-age-minutes 10]`: asks the
 * Worker which R2 objects no row points to (GET /internal/orphans, signed with SIGNING_SECRET) and
 * prints the report as JSON; a summary goes to stderr. The secret comes from CLIPFORGE_SIGNING_SECRET,
 * else the secrets file (`.dev.vars` of `make up` by default; production: the value you gave
 * `wrangler secret put SIGNING_SECRET`). Nothing is deleted.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { signRenderRequest } from "../packages/contract/src/request-auth.ts";
import { DEFAULT_STATE_DIR, DEV_VARS } from "./stack.ts";

export interface OrphanReport {
	scanned: number;
	orphans: { key: string; size: number; uploaded: string; reason: string }[];
	orphanBytes: number;
	young: number;
	minAgeMinutes: number;
}

/** The report from the Worker at `url`, signed with `signingSecret`. */
export async function fetchOrphanReport(url: string, signingSecret: string, minAgeMinutes = 10): Promise<OrphanReport> {
	const path = `/internal/orphans?minAgeMinutes=${minAgeMinutes}`;
	const authorization = await signRenderRequest(signingSecret, { method: "GET", path, body: "" });
	const response = await fetch(url + path, { headers: { authorization } });
	if (!response.ok)
		throw new Error(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
	return (await response.json()) as OrphanReport;
}

/** SIGNING_SECRET from a dotenv file (`.dev.vars`, or a stack's `<state>/dev.vars`). */
export function signingSecretFrom(file: string): string | undefined {
	if (!existsSync(file)) return undefined;
	const line = readFileSync(file, "utf8")
		.split("\n")
		.find((l) => l.startsWith("SIGNING_SECRET="));
	return line?.slice("SIGNING_SECRET=".length).replace(/^"(.*)"$/, "$1");
}

export async function orphansCommand(argv: string[]): Promise<void> {
	const { values } = parseArgs({
		args: argv,
		options: {
			url: { type: "string" },
			"secrets-file": { type: "string" },
			"min-age-minutes": { type: "string", default: "10" },
		},
	});
	const stackFile = join(DEFAULT_STATE_DIR, "stack.json");
	const url =
		values.url ??
		(existsSync(stackFile)
			? (JSON.parse(readFileSync(stackFile, "utf8")) as { url: string }).url
			: "http://127.0.0.1:8787");
	const secret = process.env.CLIPFORGE_SIGNING_SECRET ?? signingSecretFrom(values["secrets-file"] ?? DEV_VARS);
	if (!secret) {
		console.error(
			"No SIGNING_SECRET: set CLIPFORGE_SIGNING_SECRET or pass --secrets-file (a dotenv file with SIGNING_SECRET=…).",
		);
		process.exit(2);
	}
	const report = await fetchOrphanReport(url, secret, Number(values["min-age-minutes"]));
	console.log(JSON.stringify(report, null, 2));
	console.error(
		`${report.orphans.length} orphaned object(s), ${report.orphanBytes} bytes, of ${report.scanned} scanned (${report.young} unclaimed younger than ${report.minAgeMinutes} min not counted)`,
	);
}
