/**
 * `make up` (scripts/stack.ts up) on a running stack, as a newcomer uses it: it prints the API's
 * address, the key, the dashboard sign-in and a sample video URL that the API accepts, and a
 * second `make up` reuses everything instead of starting more processes.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, stackUrl } from "./client.ts";
import { freePort } from "../../scripts/stack.ts";

const ROOT = join(import.meta.dirname, "..", "..");

function makeUp(samplesPort: number): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			[join(ROOT, "scripts/stack.ts"), "up"],
			{
				env: {
					...process.env,
					CLIPFORGE_STATE_DIR: inject("clipforgeStateDir"),
					SAMPLES_PORT: String(samplesPort),
				},
				encoding: "utf8",
				timeout: 2 * 60_000,
			},
			(error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
		);
	});
}

describe("make up", () => {
	it("prints what a newcomer needs, serves a sample the API accepts, and reuses it on a second run", async () => {
		const port = await freePort();
		const printed = await makeUp(port);
		expect(printed).toContain(`CLIPFORGE_URL=${stackUrl()}`);
		expect(printed).toContain(`CLIPFORGE_API_KEY=${inject("clipforgeApiKey")}`);
		expect(printed).toContain(
			`Dashboard: ${stackUrl()}/app  (sign in as ${inject("clipforgeEmail")} / ${inject("clipforgePassword")})`,
		);
		const sampleUrl = /^Sample video to submit: (\S+)$/m.exec(printed)?.[1];
		expect(sampleUrl).toBe(`http://127.0.0.1:${port}/talk-60s-speaker.mp4`);

		// Served as a video host would: byte ranges (what ffmpeg and browsers ask for).
		const head = await fetch(sampleUrl!, { headers: { range: "bytes=0-99" } });
		expect(head.status).toBe(206);
		expect(head.headers.get("content-type")).toBe("video/mp4");
		expect((await head.arrayBuffer()).byteLength).toBe(100);

		// The API probes it as a 60 s talk (left pending, then deleted: the minute comes back).
		const submitted = await api("POST", "/api/videos/hosted", { hostedUrl: sampleUrl });
		expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
		expect(submitted.body.videoInfo.duration).toBeCloseTo(60, 0);
		const deleted = await api("DELETE", `/api/videos/${submitted.body.video.id}`);
		expect(deleted.body).toMatchObject({ deleted: true, minutesRefunded: 1 });

		// Again: same URL, no extra process (make down stops exactly what pids.json lists).
		const pids = readFileSync(join(inject("clipforgeStateDir"), "pids.json"), "utf8");
		expect(await makeUp(await freePort())).toContain(`Sample video to submit: ${sampleUrl}`);
		expect(readFileSync(join(inject("clipforgeStateDir"), "pids.json"), "utf8")).toBe(pids);
	});
});
