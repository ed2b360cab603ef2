import { describe, expect, it } from "vitest";
import { JOB_NAMES, jobEventStream, JobStreamError, readJobEvents, renderJobs, type JobEvent } from "../src/index.ts";

const collect = async (body: ReadableStream<Uint8Array>, idle?: AbortSignal) => {
	const events: JobEvent[] = [];
	for await (const event of readJobEvents(body, idle)) events.push(event);
	return events;
};
const streamOf = (text: string) => new Response(text).body!;

describe("the job table", () => {
	it("gives every job its own path, a request and a result schema", () => {
		const paths = JOB_NAMES.map((name) => renderJobs[name].path);
		expect(new Set(paths).size).toBe(paths.length);
		for (const name of JOB_NAMES) expect(renderJobs[name].request.safeParse({}).success).toBe(false);
		expect(JOB_NAMES.filter((name) => !("progress" in renderJobs[name]))).toEqual(["probe", "cleanup"]);
	});
});

describe("the streamed job protocol", () => {
	it("carries progress, then the result, from the tier's writer to the Worker's reader", async () => {
		const stream = jobEventStream(
			async (onProgress) => {
				onProgress(0.5, "half");
				onProgress(0.501); // within 1% of the last one: not sent
				onProgress(1);
				return { bytes: 3 };
			},
			() => ({ code: "internal_error", message: "no", retryable: true }),
		);
		expect(await collect(stream)).toEqual([
			{ type: "progress", fraction: 0.5, message: "half" },
			{ type: "progress", fraction: 1 },
			{ type: "result", result: { bytes: 3 } },
		]);
	});

	it("ends with the typed error when the job throws", async () => {
		const stream = jobEventStream(
			async () => {
				throw new Error("boom");
			},
			(error) => ({ code: "process_failed", message: (error as Error).message, retryable: false }),
		);
		expect(await collect(stream)).toEqual([
			{ type: "error", error: { code: "process_failed", message: "boom", retryable: false } },
		]);
	});

	it("sends a heartbeat while the job has nothing new to say", async () => {
		const stream = jobEventStream(
			() => new Promise((resolve) => setTimeout(() => resolve("done"), 60)),
			() => ({ code: "internal_error", message: "", retryable: true }),
			20,
		);
		const events = await collect(stream);
		expect(events.filter((e) => e.type === "progress" && e.message === "working").length).toBeGreaterThanOrEqual(1);
		expect(events.at(-1)).toEqual({ type: "result", result: "done" });
	});

	it("refuses a line off the protocol, and a stream that goes silent", async () => {
		await expect(collect(streamOf('{"type":"progress","fraction":0.2}\n<<garbage>>\n'))).rejects.toMatchObject({
			reason: "malformed",
		});
		const silent = new ReadableStream<Uint8Array>({
			start: (c) => c.enqueue(new TextEncoder().encode('{"type":"progress","fraction":0.1}\n')),
		});
		const error = await collect(silent, AbortSignal.timeout(30)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(JobStreamError);
		expect(error).toMatchObject({ reason: "stalled" });
	});
});
