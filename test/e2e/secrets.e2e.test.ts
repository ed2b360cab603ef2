/**
 * The real stack's secrets and its render tier's door: generated secrets (never the value once
 * committed in wrangler.toml), a URL signed with that old value refused, and the tier refusing what
 * a web page can send it. That the Worker's own signed requests still work is what every pipeline
 * test here shows.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ensureLocalSecrets, secretsFileFor } from "../../scripts/stack.ts";
import { stackUrl } from "./client.ts";

const OLD_COMMITTED_SECRET = "local-dev-signing-secret-not-for-production";

/** An internal object URL signed the way the Worker signs them (services/signing.ts), with `secret`. */
function internalUrl(secret: string, key: string): string {
	const exp = String(Math.floor(Date.now() / 1000) + 3600);
	const sig = createHmac("sha256", secret).update(["internal", "GET", key, exp].join("\n")).digest("base64url");
	return `${stackUrl()}/internal/objects/${key}?method=GET&exp=${exp}&sig=${sig}`;
}

describe("the stack's secrets", () => {
	it("are generated for it (0600), long and random, never the value once committed", () => {
		const file = secretsFileFor(inject("clipforgeStateDir"));
		expect(statSync(file).mode & 0o777).toBe(0o600);
		const text = readFileSync(file, "utf8");
		for (const name of ["SIGNING_SECRET", "RENDER_SECRET"]) {
			const value = new RegExp(`^${name}=(.+)$`, "m").exec(text)?.[1] ?? "";
			expect(value.length, name).toBeGreaterThanOrEqual(32);
			expect(value).not.toBe(OLD_COMMITTED_SECRET);
		}
	});

	it("a URL signed with the old committed SIGNING_SECRET does not verify (403 forbidden)", async () => {
		const response = await fetch(internalUrl(OLD_COMMITTED_SECRET, "sources/vid_anything/source.mp4"));
		expect(response.status).toBe(403);
		expect(((await response.json()) as any).error.code).toBe("forbidden");
	});

	it("ensureLocalSecrets keeps good values and other lines, and replaces missing, short or public ones", () => {
		const dir = mkdtempSync(join(tmpdir(), "clipforge-devvars-"));
		try {
			const file = join(dir, ".dev.vars");
			const first = ensureLocalSecrets(file);
			expect(first.SIGNING_SECRET).not.toBe(first.RENDER_SECRET);
			expect(ensureLocalSecrets(file)).toEqual(first);
			writeFileSync(file, `LLM_API_KEY=keep-me\nSIGNING_SECRET=${OLD_COMMITTED_SECRET}\nRENDER_SECRET=short\n`);
			const renewed = ensureLocalSecrets(file);
			expect(renewed.SIGNING_SECRET).not.toBe(OLD_COMMITTED_SECRET);
			expect(renewed.RENDER_SECRET.length).toBeGreaterThanOrEqual(32);
			expect(readFileSync(file, "utf8")).toContain("LLM_API_KEY=keep-me\n");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("the stack's render tier", () => {
	it("refuses a web page's text/plain cleanup of _shared, an Origin, and a wrong signature", async () => {
		const tier = inject("clipforgeRenderUrl");
		const body = JSON.stringify({ videoId: "_shared" });
		const plain = await fetch(`${tier}/jobs/cleanup`, {
			method: "POST",
			headers: { "content-type": "text/plain" },
			body,
		});
		expect(plain.status).toBe(415);
		const fromPage = await fetch(`${tier}/jobs/cleanup`, {
			method: "POST",
			headers: { "content-type": "application/json", origin: "https://evil.example" },
			body,
		});
		expect(fromPage.status).toBe(403);
		const t = Math.floor(Date.now() / 1000);
		const forged = `Clipforge-HMAC-SHA256 t=${t},n=${"a".repeat(32)},s=${createHmac("sha256", OLD_COMMITTED_SECRET).update(body).digest("hex")}`;
		const wrong = await fetch(`${tier}/jobs/cleanup`, {
			method: "POST",
			headers: { "content-type": "application/json", authorization: forged },
			body,
		});
		expect(wrong.status).toBe(401);
	});
});
