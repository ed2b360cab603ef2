/**
 * The secrets and passwords the local stack generates are passed after a flag (`npm run smoke --
 * --key …`, `admin.ts create-account --password …`): none may start with "-", which the flag
 * parser reads as another flag (a CI run failed on one).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { expect, it } from "vitest";
import { ensureLocalSecrets, flagSafeToken } from "../scripts/stack";

it("no generated secret or password starts with a dash, so each reads back as the flag's value", () => {
	const dir = mkdtempSync(join(tmpdir(), "clipforge-secrets-"));
	// About 1,200 secrets: the old generator gave one starting with "-" in 64.
	const tokens = Array.from({ length: 300 }, (_, i) => [
		...Object.values(ensureLocalSecrets(join(dir, `vars-${i}`))),
		flagSafeToken(12),
	]).flat();
	for (const token of tokens) {
		expect(token).not.toMatch(/^-/);
		const { values } = parseArgs({ args: ["--key", token], options: { key: { type: "string" } } });
		expect(values.key).toBe(token);
	}
});
