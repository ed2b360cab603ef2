/**
 * Bootstrap: `npm run admin -- create-account --email E --minutes N [--name W] [--remote] [--persist-to DIR]`
 * creates a user, a workspace with an active plan and N minutes (a `grant` ledger row) and an API
 * key, in local D1 (default, the `local` wrangler environment) or remote D1 (`--remote`). The key is
 * printed alone on stdout, once; only its SHA-256 is stored.
 */
import { createHash, pbkdf2Sync, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runWrangler } from "./wrangler.ts";

const USAGE =
	"usage: npm run admin -- create-account --email you@example.com --minutes 600 [--password P] [--name Workspace] [--max-hours 3] [--remote] [--persist-to DIR]\n" +
	"       (the same email again adds another workspace to that user; --password sets the sign-in password)";

const { positionals, values } = parseArgs({
	allowPositionals: true,
	options: {
		email: { type: "string" },
		password: { type: "string" },
		minutes: { type: "string" },
		name: { type: "string" },
		"max-hours": { type: "string", default: "3" },
		remote: { type: "boolean", default: false },
		"persist-to": { type: "string" },
	},
});

if (positionals[0] !== "create-account") fail(USAGE);
const email = (values.email ?? fail(`--email is required\n${USAGE}`)).toLowerCase();
if (values.password !== undefined && values.password.length < 8) fail("--password must have at least 8 characters");
if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail(`not an email address: ${email}`);
const minutes = Number(values.minutes ?? fail(`--minutes is required\n${USAGE}`));
if (!Number.isInteger(minutes) || minutes < 0) fail("--minutes must be a whole number ≥ 0");
const maxSeconds = Math.round(Number(values["max-hours"]) * 3600);
if (!Number.isFinite(maxSeconds) || maxSeconds <= 0) fail("--max-hours must be a positive number");

const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
const userId = id("usr");
const workspaceId = id("wsp");
const apiKey = `cf_live_${randomBytes(24).toString("base64url")}`;
const q = (text: string) => `'${text.replace(/'/g, "''")}'`;
const workspaceName = values.name ?? `${email.split("@")[0]}'s workspace`;

/** The Worker's format (src/worker/services/passwords.ts): PBKDF2-SHA-256, 100,000 iterations. */
function hashPassword(password: string): string {
	const salt = randomBytes(16);
	const hash = pbkdf2Sync(password, salt, 100_000, 32, "sha256");
	return `pbkdf2$sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}
const setPassword = values.password ? `UPDATE users SET password_hash = ${q(hashPassword(values.password))} WHERE email = ${q(email)};` : "";

// One file, run by D1 as one batch: the account appears whole or not at all.
const sql = `
INSERT INTO users (id, email) VALUES (${q(userId)}, ${q(email)})
  ON CONFLICT(email) DO NOTHING;
${setPassword}
INSERT INTO workspaces (id, name, minutes_balance) VALUES (${q(workspaceId)}, ${q(workspaceName)}, ${minutes});
INSERT INTO memberships (user_id, workspace_id, role) SELECT id, ${q(workspaceId)}, 'owner' FROM users WHERE email = ${q(email)};
INSERT INTO plans (id, workspace_id, name, active, max_video_seconds) VALUES (${q(id("pln"))}, ${q(workspaceId)}, 'starter', 1, ${maxSeconds});
INSERT INTO minutes_ledger (workspace_id, kind, minutes, note) VALUES (${q(workspaceId)}, 'grant', ${minutes}, 'bootstrap grant');
INSERT INTO api_keys (id, workspace_id, name, key_hash, prefix) VALUES (${q(id("key"))}, ${q(workspaceId)}, 'bootstrap key', ${q(createHash("sha256").update(apiKey).digest("hex"))}, ${q(apiKey.slice(0, 12))});
`;

const dir = mkdtempSync(join(tmpdir(), "clipforge-admin-"));
try {
	const file = join(dir, "create-account.sql");
	writeFileSync(file, sql);
	const target = values.remote ? ["--remote"] : ["--local", "--env", "local"];
	const persist = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
	if (!values.remote) runWrangler(["d1", "migrations", "apply", "DB", ...target, ...persist]);
	runWrangler(["d1", "execute", "DB", ...target, ...persist, "--file", file, "--yes"]);
} finally {
	rmSync(dir, { recursive: true, force: true });
}
console.error(`created workspace ${workspaceId} (${workspaceName}) for ${email} with ${minutes} minutes in ${values.remote ? "remote" : "local"} D1; API key (shown once):`);
console.log(apiKey);

function fail(message: string): never {
	console.error(message);
	process.exit(2);
}
