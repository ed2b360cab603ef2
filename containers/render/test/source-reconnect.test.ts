// A stored source read over HTTP (the Worker's signed /internal/objects URL) survives a range request
// answered 5xx once (an R2 get failing for a moment): ffmpeg asks again instead of failing the job.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sourceInputOptions } from "../src/ffmpeg/common.ts";

const dir = mkdtempSync(join(tmpdir(), "clipforge-reconnect-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a stored source read over HTTP", () => {
	it("is read whole when a range request is answered 503 once", async () => {
		const file = join(dir, "source.mp4");
		const made = spawnSync("ffmpeg", [
			...["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=3"],
			...["-f", "lavfi", "-i", "sine=duration=3", "-shortest", "-c:v", "libx264", "-preset", "ultrafast", file],
		]);
		expect(made.status).toBe(0);
		const bytes = readFileSync(file);
		let requests = 0;
		// The second request (ffmpeg's first range read past the header) fails, as an R2 get can.
		const server = createServer((request, response) => {
			requests++;
			if (requests === 2) return void response.writeHead(503).end("R2 failed for a moment");
			const range = /bytes=(\d+)-/.exec(request.headers.range ?? "");
			const start = range ? Number(range[1]) : 0;
			response.writeHead(range ? 206 : 200, {
				"content-type": "video/mp4",
				"accept-ranges": "bytes",
				"content-length": String(bytes.length - start),
				...(range ? { "content-range": `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
			});
			response.end(bytes.subarray(start));
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/source.mp4`;
		try {
			const args = ["-v", "error", ...sourceInputOptions(url), "-i", url, "-f", "null", "-"];
			const read = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
				const child = spawn("ffmpeg", args);
				let stderr = "";
				child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
				child.on("close", (code) => resolve({ code, stderr }));
			});
			expect(read.stderr).toBe("");
			expect(read.code).toBe(0);
			expect(requests).toBeGreaterThan(2);
		} finally {
			server.close();
		}
	});
});
