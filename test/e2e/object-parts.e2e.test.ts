/**
 * The render tier's large writes on the real stack: a file over one part goes through the Worker's
 * signed PUT URL (wrangler dev) as an R2 multipart upload, with the tier's own putFile, and reads
 * back whole. Parts of 5 MiB here (R2's smallest) so the file stays small; production's are 64 MiB.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, inject, it } from "vitest";
import { putFile } from "../../containers/render/src/runtime/transfer.ts";
import { ensureLocalSecrets, secretsFileFor } from "../../scripts/stack.ts";

/** A signed `/internal/objects` URL as the Worker makes them (src/worker/services/signing.ts): HMAC-SHA-256 over purpose, method, key and expiry. */
function signInternalObjectUrl(secret: string, base: string, key: string, method: "GET" | "PUT"): string {
	const exp = String(Math.floor(Date.now() / 1000) + 600);
	const sig = createHmac("sha256", secret).update(["internal", method, key, exp].join("\n")).digest("base64url");
	const url = new URL(`/internal/objects/${key.split("/").map(encodeURIComponent).join("/")}`, base);
	url.search = new URLSearchParams({ method, exp, sig }).toString();
	return url.toString();
}

it("an 11 MiB file stored in three parts through wrangler dev reads back byte for byte", async () => {
	// The stack's Worker is on loopback: the tier's egress policy lets it through only when told to, as in dev.
	process.env.ALLOW_PRIVATE_SOURCES = "true";
	const secret = ensureLocalSecrets(secretsFileFor(inject("clipforgeStateDir"))).SIGNING_SECRET;
	const signed = (key: string, method: "GET" | "PUT") =>
		signInternalObjectUrl(secret, inject("clipforgeUrl"), key, method);
	const dir = mkdtempSync(join(tmpdir(), "clipforge-e2e-parts-"));
	try {
		const data = randomBytes(11 * 1024 * 1024 + 12345);
		const path = join(dir, "big.bin");
		writeFileSync(path, data);
		const key = `e2e/${randomBytes(8).toString("hex")}/big.bin`;
		const progress: number[] = [];
		expect(
			await putFile(
				path,
				signed(key, "PUT"),
				"application/octet-stream",
				(f) => void progress.push(f),
				undefined,
				5 * 1024 * 1024,
			),
		).toBe(data.length);
		expect(progress.at(-1)).toBe(1);
		const back = await fetch(signed(key, "GET"));
		expect(back.status).toBe(200);
		const bytes = Buffer.from(await back.arrayBuffer());
		expect(bytes.length).toBe(data.length);
		expect(createHash("sha256").update(bytes).digest("hex")).toBe(createHash("sha256").update(data).digest("hex"));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
