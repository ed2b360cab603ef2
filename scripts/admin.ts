/**
 * Bootstrap: `npm run admin -- create-account --email E --minutes N [--name W] [--remote] [--persist-to DIR]`
 * creates a user, a workspace with an active plan and N minutes (a `grant` ledger row) and an API
 * key, in local D1 (default, the `local` wrangler environment) or remote D1 (`--remote`). The key is
 * printed alone on stdout, once; only its SHA-256 is stored.
 *
 * `npm run admin -- reset-password --email E --password P [--remote]` sets a user's password and
 * ends every session of theirs (as does `create-account --password` for an existing user).
 *
 * `npm run admin -- orphans [--url URL] [--secrets-file FILE] [--min-age-minutes 10]` reports the R2
 * objects no row points to (scripts/admin-orphans.ts).
 *
 * `npm run admin -- audit [--url URL] [--secrets-file FILE]` checks rows, objects and the ledger
 * against each other (GET /internal/audit, src/worker/services/audit.ts); exits 1 unless clean.
 */
import { createHash, pbkdf2Sync, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAccountSql, setPasswordSql } from "../src/worker/db/bootstrap.ts";
import { runWrangler } from "./wrangler.ts";

const USAGE =
	"usage: npm run admin -- create-account --email you@example.com --minutes 600 [--password P] [--name Workspace] [--max-hours 3] [--concurrent N] [--remote] [--persist-to DIR]\n" +
	"       (--concurrent: videos the workspace processes at once; default the MAX_CONCURRENT_VIDEOS var)\n" +
	"       (the same email again adds another workspace to that user; --password sets the sign-in password)\n" +
	"       npm run admin -- reset-password --email you@example.com --password P [--remote] [--persist-to DIR]\n" +
	"       (a new password ends every session of the user)\n" +
	"       npm run admin -- orphans [--url URL] [--secrets-file .dev.vars] [--min-age-minutes 10]\n" +
	"       (R2 objects no row points to, from the running Worker; nothing is deleted)\n" +
	"       npm run admin -- audit [--url URL] [--secrets-file .dev.vars]\n" +
	"       (rows, objects and the minutes ledger checked against each other; exit 1 unless clean)";

if (process.argv[2] === "audit") {
	const { auditCommand } = await import("./admin-orphans.ts");
	await auditCommand(process.argv.slice(3));
	process.exit(0);
}

if (process.argv[2] === "orphans") {
	const { orphansCommand } = await import("./admin-orphans.ts");
	await orphansCommand(process.argv.slice(3));
	process.exit(0);
}

const { positionals, values } = parseArgs({
	allowPositionals: true,
	options: {
		email: { type: "string" },
		password: { type: "string" },
		minutes: { type: "string" },
		name: { type: "string" },
		"max-hours": { type: "string", default: "3" },
		concurrent: { type: "string" },
		remote: { type: "boolean", default: false },
		"persist-to": { type: "string" },
	},
});

const command = positionals[0];
if (command !== "create-account" && command !== "reset-password") fail(USAGE);
const email = (values.email ?? fail(`--email is required\n${USAGE}`)).toLowerCase();
if (values.password !== undefined && values.password.length < 8) fail("--password must have at least 8 characters");
if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail(`not an email address: ${email}`);

const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;

/** The Worker's format (src/worker/services/passwords.ts): PBKDF2-SHA-256, 100,000 iterations. */
function hashPassword(password: string): string {
	const salt = randomBytes(16);
	const hash = pbkdf2Sync(password, salt, 100_000, 32, "sha256");
	return `pbkdf2$sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

let sql: string;
let apiKey = "";
let done: string;
if (command === "reset-password") {
	sql = setPasswordSql(email, hashPassword(values.password ?? fail(`--password is required\n${USAGE}`)));
	done = `password of ${email} set in ${values.remote ? "remote" : "local"} D1; every session of theirs has ended`;
} else {
	const minutes = Number(values.minutes ?? fail(`--minutes is required\n${USAGE}`));
	if (!Number.isInteger(minutes) || minutes < 0) fail("--minutes must be a whole number ≥ 0");
	const maxSeconds = Math.round(Number(values["max-hours"]) * 3600);
	if (!Number.isFinite(maxSeconds) || maxSeconds <= 0) fail("--max-hours must be a positive number");
	const maxConcurrent = values.concurrent === undefined ? null : Number(values.concurrent);
	if (maxConcurrent !== null && (!Number.isInteger(maxConcurrent) || maxConcurrent < 1))
		fail("--concurrent must be a whole number ≥ 1");
	const workspaceId = id("wsp");
	const workspaceName = values.name ?? `${email.split("@")[0]}'s workspace`;
	apiKey = `cf_live_${randomBytes(24).toString("base64url")}`;
	// One file, run by D1 as one batch: the account appears whole or not at all.
	sql = createAccountSql({
		userId: id("usr"),
		email,
		passwordHash: values.password ? hashPassword(values.password) : null,
		workspaceId,
		workspaceName,
		minutes,
		planId: id("pln"),
		maxSeconds,
		maxConcurrent,
		keyId: id("key"),
		keyHash: createHash("sha256").update(apiKey).digest("hex"),
		keyPrefix: apiKey.slice(0, 12),
	});
	done = `created workspace ${workspaceId} (${workspaceName}) for ${email} with ${minutes} minutes in ${values.remote ? "remote" : "local"} D1; API key (shown once):`;
}

const dir = mkdtempSync(join(tmpdir(), "clipforge-admin-"));
try {
	const file = join(dir, `${command}.sql`);
	writeFileSync(file, sql);
	const target = values.remote ? ["--remote"] : ["--local", "--env", "local"];
	const persist = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
	if (!values.remote) runWrangler(["d1", "migrations", "apply", "DB", ...target, ...persist]);
	runWrangler(["d1", "execute", "DB", ...target, ...persist, "--file", file, "--yes"]);
} finally {
	rmSync(dir, { recursive: true, force: true });
}
console.error(done);
if (apiKey) console.log(apiKey);

function fail(message: string): never {
	console.error(message);
	process.exit(2);
}
