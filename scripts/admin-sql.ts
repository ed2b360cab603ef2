/**
 * The SQL `npm run admin` runs (scripts/admin.ts), as pure functions so the Workers tests can run
 * it against D1. A password set here ends every session of the user in the same file (D1 runs it
 * as one batch): a session opened with the old password must not survive a reset.
 */
export const q = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Sets the user's password hash and signs them out everywhere. */
export function setPasswordSql(email: string, passwordHash: string): string {
	return `UPDATE users SET password_hash = ${q(passwordHash)} WHERE email = ${q(email)};
DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ${q(email)});`;
}

export interface NewAccount {
	userId: string;
	email: string;
	/** PBKDF2 hash, or null to leave the password as it is. */
	passwordHash: string | null;
	workspaceId: string;
	workspaceName: string;
	minutes: number;
	planId: string;
	maxSeconds: number;
	/** Videos processing at once; null = the operator's MAX_CONCURRENT_VIDEOS. */
	maxConcurrent: number | null;
	keyId: string;
	keyHash: string;
	keyPrefix: string;
}

/** A user (or another workspace for an existing one), owner of a new workspace with a plan, minutes and an API key. */
export function createAccountSql(a: NewAccount): string {
	return `
INSERT INTO users (id, email) VALUES (${q(a.userId)}, ${q(a.email)})
  ON CONFLICT(email) DO NOTHING;
${a.passwordHash ? setPasswordSql(a.email, a.passwordHash) : ""}
INSERT INTO workspaces (id, name, minutes_balance) VALUES (${q(a.workspaceId)}, ${q(a.workspaceName)}, ${a.minutes});
INSERT INTO memberships (user_id, workspace_id, role) SELECT id, ${q(a.workspaceId)}, 'owner' FROM users WHERE email = ${q(a.email)};
INSERT INTO plans (id, workspace_id, name, active, max_video_seconds, max_concurrent_videos) VALUES (${q(a.planId)}, ${q(a.workspaceId)}, 'starter', 1, ${a.maxSeconds}, ${a.maxConcurrent ?? "NULL"});
INSERT INTO minutes_ledger (workspace_id, kind, minutes, note) VALUES (${q(a.workspaceId)}, 'grant', ${a.minutes}, 'bootstrap grant');
INSERT INTO api_keys (id, workspace_id, name, key_hash, prefix) VALUES (${q(a.keyId)}, ${q(a.workspaceId)}, 'bootstrap key', ${q(a.keyHash)}, ${q(a.keyPrefix)});
`;
}
