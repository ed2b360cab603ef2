/**
 * `npm run smoke -- --url https://<deployment> --key <OPERATOR_SECRET>`: checks a live deployment
 * after `wrangler deploy` (or `make up` locally), binding by binding, and says what is wrong in
 * words: D1 read, R2 put/get/delete, a 2 s transcription (Whisper on Workers AI), a tiny JSON-mode
 * call on each configured LLM, the render container's health and a signed job through it, a
 * workflow created and polled, and a signed download fetched from here (a forged one refused).
 * It removes what it stored. Exit 0 when nothing failed (a skipped check is not a failure), 1
 * otherwise, 2 for bad arguments. The key may also come from CLIPFORGE_OPERATOR_SECRET.
 */
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";

interface Check {
	name: string;
	status: "ok" | "failed" | "skipped";
	detail: string;
	ms: number;
}

interface Report {
	runId: string;
	ok: boolean;
	checks: Check[];
	download: { url: string; bytes: number; sha256: string };
}

const MARK = { ok: "✓", failed: "✗", skipped: "–" } as const;

/** The error body's message, or the start of whatever came back. */
async function said(response: Response): Promise<string> {
	const text = await response.text();
	try {
		return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.slice(0, 200);
	} catch {
		return text.slice(0, 200);
	}
}

export async function smoke(base: string, key: string, print: (line: string) => void = console.log): Promise<boolean> {
	const url = (path: string) => new URL(path, base).toString();
	try {
		const health = await fetch(url("/healthz"), { signal: AbortSignal.timeout(30_000) });
		if (!health.ok) {
			print(`${MARK.failed} The Worker at ${base} answered ${health.status} to /healthz: ${await said(health)}`);
			return false;
		}
	} catch (error) {
		print(
			`${MARK.failed} The Worker at ${base} cannot be reached (${(error as Error).message}). Check the URL: the deployment's workers.dev address or its own domain.`,
		);
		return false;
	}
	print(`Checking ${base} …`);
	const response = await fetch(url("/admin/smoke"), {
		method: "POST",
		headers: { authorization: `Bearer ${key}` },
		signal: AbortSignal.timeout(5 * 60_000),
	});
	const refused = await refusal(response);
	if (refused) {
		print(`${MARK.failed} ${refused}`);
		return false;
	}
	const report = (await response.json()) as Report;
	let ok = report.ok;
	for (const check of report.checks)
		print(
			`${MARK[check.status]} ${check.name}: ${check.status === "skipped" ? "skipped, " : ""}${check.detail} (${check.ms} ms)`,
		);

	// The signed download, fetched from outside as a client would.
	if (!(await checkDownload(report.download, print))) ok = false;

	if (!(await cleanUp(url(`/admin/smoke/${report.runId}`), key, report.runId, print))) ok = false;
	const failed = report.checks.filter((c) => c.status === "failed").length;
	print(
		ok
			? "Everything answered as it should."
			: `Something is wrong${failed ? `: ${failed} check(s) failed` : ""}; see the lines marked ${MARK.failed}.`,
	);
	return ok;
}

/** Why the smoke route did not run (off, a wrong key, an error), or null when it answered. */
async function refusal(response: Response): Promise<string | null> {
	if (response.status === 404)
		return "The smoke route is off on this deployment: set its key with `openssl rand -base64 48 | npx wrangler secret put OPERATOR_SECRET` (at least 32 characters), then run this again with it.";
	if (response.status === 401)
		return "The key was refused: pass the deployment's OPERATOR_SECRET with --key (not a tenant's API key).";
	if (!response.ok) return `The smoke route answered ${response.status}: ${await said(response)}`;
	return null;
}

/** Removes what the run stored; true when nothing is left. */
async function cleanUp(endpoint: string, key: string, runId: string, print: (line: string) => void): Promise<boolean> {
	const cleanup = await fetch(endpoint, {
		method: "DELETE",
		headers: { authorization: `Bearer ${key}` },
		signal: AbortSignal.timeout(60_000),
	});
	if (!cleanup.ok) {
		print(
			`${MARK.failed} Cleaning up answered ${cleanup.status}: ${await said(cleanup)} (the cron removes smoke/${runId}/ within the hour)`,
		);
		return false;
	}
	const { removed, left } = (await cleanup.json()) as { removed: number; left: number };
	print(
		`${left === 0 ? MARK.ok : MARK.failed} Cleaned up: removed ${removed} object(s) the run stored, ${left} left`,
	);
	return left === 0;
}

/** The signed download fetched as a client would: the bytes stored, and a forged token refused; true when both hold. */
async function checkDownload(stored: Report["download"], print: (line: string) => void): Promise<boolean> {
	try {
		const download = await fetch(stored.url, { signal: AbortSignal.timeout(60_000) });
		const bytes = Buffer.from(await download.arrayBuffer());
		const digest = createHash("sha256").update(bytes).digest("hex");
		const forgedUrl = stored.url.replace(
			/token=(\d+)\.(.)/,
			(_, exp: string, first: string) => `token=${exp}.${first === "A" ? "B" : "A"}`,
		);
		const forged = await fetch(forgedUrl, { signal: AbortSignal.timeout(60_000) });
		if (!download.ok) throw new Error(`it answered ${download.status}: ${bytes.toString("utf8", 0, 200)}`);
		if (digest !== stored.sha256)
			throw new Error(`it served ${bytes.length} bytes, not the ${stored.bytes} stored`);
		if (forged.status !== 403) throw new Error(`a forged token was answered ${forged.status}, not 403`);
		print(
			`${MARK.ok} Signed download: ${bytes.length.toLocaleString("en")} bytes as stored; a forged token refused (403)`,
		);
		return true;
	} catch (error) {
		print(`${MARK.failed} Signed download: ${(error as Error).message}`);
		return false;
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { values } = parseArgs({
		options: { url: { type: "string" }, key: { type: "string" } },
		allowPositionals: false,
	});
	const key = values.key ?? process.env.CLIPFORGE_OPERATOR_SECRET;
	if (!values.url || !key || !URL.canParse(values.url)) {
		console.error(
			"usage: npm run smoke -- --url https://<your deployment> --key <OPERATOR_SECRET>   (or CLIPFORGE_OPERATOR_SECRET in the environment)",
		);
		process.exit(2);
	}
	process.exit(
		(await smoke(values.url, key).catch((error: Error) => (console.log(`${MARK.failed} ${error.message}`), false)))
			? 0
			: 1,
	);
}
