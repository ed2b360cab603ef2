/**
 * The SDK's types and the `clipforge` CLI against the real local stack: the OpenAPI document the
 * SDK was generated from is the one the API serves, and the CLI submits, waits, downloads and
 * reports errors with its documented exit codes.
 */
import { execFile, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const media = useServedMedia("clipforge-e2e-cli-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 30 }),
);

/** Runs the CLI as a user would. Async: the media server lives in this process and must keep answering. */
function cli(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[join(ROOT, "packages/sdk/src/cli.ts"), ...args],
			{
				env: {
					...process.env,
					CLIPFORGE_URL: stackUrl(),
					CLIPFORGE_API_KEY: inject("clipforgeApiKey"),
					...env,
				},
				encoding: "utf8",
				timeout: 5 * 60_000,
			},
			(error, stdout, stderr) =>
				resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
		);
	});
}

describe("the SDK's OpenAPI document", () => {
	it("is the one the API serves (run `npm run sdk:types` after changing a route)", async () => {
		const served = await (await fetch(`${stackUrl()}/api/openapi.json`)).json();
		const saved = JSON.parse(readFileSync(join(ROOT, "packages/sdk/openapi.json"), "utf8"));
		expect(served).toEqual(saved);
	});
});

describe("clipforge CLI", () => {
	it("submits with flags, waits, downloads the clips and prints JSON", async () => {
		const out = join(media.dir(), "clips");
		const run = await cli([
			"--json",
			"submit",
			`${media.url()}/talk.mp4`,
			"--aspect",
			"1:1",
			"--captions",
			"sentence",
			"--min",
			"8",
			"--max",
			"20",
			"--layout",
			"stacked",
			"--wait",
			"--interval",
			"1",
			"--out",
			out,
		]);
		expect(run.code, run.stderr + run.stdout).toBe(0);
		const result = JSON.parse(run.stdout);
		expect(result.video.status).toBe("completed");
		expect((await api("GET", `/api/videos/${result.video.id}`)).body.config.layout).toBe("stacked");
		expect(result.clips.length).toBeGreaterThan(0);
		expect(result.files).toHaveLength(result.clips.length);
		for (const file of result.files) expect(existsSync(file)).toBe(true);
		const probe = spawnSync(
			"ffprobe",
			["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", result.files[0]],
			{ encoding: "utf8" },
		);
		expect(probe.stdout.trim().split("\n")[0]).toBe("1080,1080");

		const status = await cli(["status", result.video.id]);
		expect(status.code).toBe(0);
		expect(status.stdout).toContain("completed");
	});

	it("stops waiting on Ctrl-C (exit 130) while the video goes on processing", async () => {
		const child = spawn(
			process.execPath,
			[join(ROOT, "packages/sdk/src/cli.ts"), "submit", `${media.url()}/talk.mp4`, "--wait", "--interval", "1"],
			{
				env: { ...process.env, CLIPFORGE_URL: stackUrl(), CLIPFORGE_API_KEY: inject("clipforgeApiKey") },
			},
		);
		let stderr = "";
		const submitted = new Promise<string>((resolve) => {
			child.stderr.on("data", (chunk) => {
				stderr += chunk;
				const id = /Submitted (vid_\w+)/.exec(stderr)?.[1];
				if (id) resolve(id);
			});
		});
		const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
		const id = await submitted;
		child.kill("SIGINT");
		expect(await exited).toBe(130);
		expect(stderr).toContain(`Stopped waiting; ${id} keeps processing. Follow it with: clipforge status ${id}`);
		expect((await waitForStatus(id)).video.status).toBe("completed");
	});

	it("exits with the documented code per error class", async () => {
		expect((await cli(["status", "vid_doesnotexist"])).code).toBe(5);
		expect((await cli(["workspaces"], { CLIPFORGE_API_KEY: "cf_live_wrong" })).code).toBe(3);
		expect((await cli(["submit", "ftp://example.com/a.mp4"])).code).toBe(8);
		expect((await cli(["submit", `${media.url()}/talk.mp4`, "--aspect", "4:3"])).code).toBe(2);
		expect((await cli(["submit", `${media.url()}/talk.mp4`, "--layout", "sideways"])).code).toBe(2);
		const json = await cli(["--json", "status", "vid_doesnotexist"]);
		expect(JSON.parse(json.stdout).error).toMatchObject({
			code: "not_found",
			status: 404,
			requestId: expect.any(String),
		});
		expect((await cli(["workspaces"], { CLIPFORGE_URL: "http://127.0.0.1:9" })).code).toBe(7);
	});
});
