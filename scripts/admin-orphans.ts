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
export function fetchOrphanReport(url: string, signingSecret: string, minAgeMinutes = 10): Promise<OrphanReport> {
	return operatorGet<OrphanReport>(url, signingSecret, `/internal/orphans?minAgeMinutes=${minAgeMinutes}`);
}

/** What GET /internal/audit answers (src/worker/services/audit.ts). */
export interface AuditReport {
	clean: boolean;
	counts: { workspaces: number; videos: number; clips: number; ledgerRows: number; objects: number };
	objectsNamed: number;
	problems: { kind: string; row: string; detail: string }[];
	orphans: OrphanReport["orphans"];
	failedKeepingCharge: string[];
}

export function fetchAudit(url: string, signingSecret: string): Promise<AuditReport> {
	return operatorGet<AuditReport>(url, signingSecret, "/internal/audit");
}

/** GET one of the Worker's operator routes (/internal/…), signed with SIGNING_SECRET; answers its JSON. */
export async function operatorGet<T>(url: string, signingSecret: string, path: string): Promise<T> {
	const authorization = await signRenderRequest(signingSecret, { method: "GET", path, body: "" });
	const response = await fetch(url + path, { headers: { authorization } });
	if (!response.ok)
		throw new Error(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
	return (await response.json()) as T;
}

/** SIGNING_SECRET from a dotenv file (`.dev.vars`, or a stack's `<state>/dev.vars`). */
export function signingSecretFrom(file: string): string | undefined {
	if (!existsSync(file)) return undefined;
	const line = readFileSync(file, "utf8")
		.split("\n")
		.find((l) => l.startsWith("SIGNING_SECRET="));
	return line?.slice("SIGNING_SECRET=".length).replace(/^"(.*)"$/, "$1");
}

/** `npm run admin -- audit [--url URL] [--secrets-file FILE]`: the audit as JSON; exits 1 unless clean. */
export async function auditCommand(argv: string[]): Promise<void> {
	const { url, secret } = operatorTarget(argv);
	const report = await fetchAudit(url, secret);
	console.log(JSON.stringify(report, null, 2));
	console.error(
		`audit: ${report.clean ? "clean" : "NOT clean"}: ${report.problems.length} problem(s), ${report.orphans.length} orphan(s); ${report.counts.videos} videos, ${report.counts.clips} clips, ${report.counts.ledgerRows} ledger rows, ${report.counts.objects} objects (${report.objectsNamed} named by rows)`,
	);
	if (!report.clean) process.exit(1);
}

/** The Worker's URL and SIGNING_SECRET from the flags (`--url`, `--secrets-file`), the environment or the default stack. */
export function operatorTarget(argv: string[]): { url: string; secret: string; values: Record<string, unknown> } {
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
	return { url, secret, values };
}

export async function orphansCommand(argv: string[]): Promise<void> {
	const { url, secret, values } = operatorTarget(argv);
	const report = await fetchOrphanReport(url, secret, Number(values["min-age-minutes"]));
	console.log(JSON.stringify(report, null, 2));
	console.error(
		`${report.orphans.length} orphaned object(s), ${report.orphanBytes} bytes, of ${report.scanned} scanned (${report.young} unclaimed younger than ${report.minAgeMinutes} min not counted)`,
	);
}
