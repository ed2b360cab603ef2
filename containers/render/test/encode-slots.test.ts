import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { currentCpuHold } from "../src/runtime/cpu-hold.ts";
import { Slots, type SlotRelease } from "../src/runtime/encode-slots.ts";
import { runProcess } from "../src/runtime/run-process.ts";

describe("encode slots", () => {
	it("lets `size` jobs encode at once; the next starts the moment one releases (e.g. to upload)", async () => {
		const slots = new Slots(2);
		const order: string[] = [];
		const a = await slots.acquire();
		const b = await slots.acquire();
		const third = slots.acquire().then((release) => {
			order.push("c encodes");
			return release;
		});
		await new Promise((r) => setTimeout(r, 20));
		expect(order).toEqual([]);
		order.push("a uploads");
		a();
		const c = await third;
		expect(order).toEqual(["a uploads", "c encodes"]);
		// Releasing twice frees one slot, not two.
		a();
		b();
		c();
		const all = await Promise.all([slots.acquire(), slots.acquire()]);
		expect(all).toHaveLength(2);
	});

	it("run gives the slot back when its work ends, failed or not", async () => {
		const slots = new Slots(1);
		await expect(slots.run(undefined, {}, async () => Promise.reject(new Error("encode failed")))).rejects.toThrow(
			"encode failed",
		);
		await expect(slots.run(undefined, {}, async () => "done")).resolves.toBe("done");
		// The slot came back each time: the next job starts at once.
		(await slots.acquire())();
	});

	it("stops waiting when the job is cancelled", async () => {
		const slots = new Slots(1);
		await slots.acquire();
		const controller = new AbortController();
		const waiting = slots.acquire(controller.signal);
		controller.abort(new Error("cancelled"));
		await expect(waiting).rejects.toThrow("cancelled");
	});

	it("shares the cores between videos: a freed slot goes to the video holding fewest, not to the oldest waiter", async () => {
		const slots = new Slots(2);
		const order: string[] = [];
		const take = (video: string, label: string) =>
			slots.acquire(undefined, { video }).then((release) => {
				order.push(label);
				return release;
			});
		// A burst: video A holds both cores and queues three more jobs before video B's first one.
		const a1 = await take("vid_a", "a1");
		const a2 = await take("vid_a", "a2");
		const queued = [take("vid_a", "a3"), take("vid_a", "a4"), take("vid_a", "a5"), take("vid_b", "b1")];
		await new Promise((r) => setTimeout(r, 10));
		expect(slots.queued).toBe(4);
		a1();
		await new Promise((r) => setTimeout(r, 10));
		// B holds none, A one: B goes first although it came last.
		expect(order.slice(2)).toEqual(["b1"]);
		a2();
		await new Promise((r) => setTimeout(r, 10));
		expect(order.slice(2)).toEqual(["b1", "a3"]);
		for (const release of await Promise.all(queued.slice(0, 1))) release();
		(await queued[3]!)();
		await new Promise((r) => setTimeout(r, 10));
		expect(order).toEqual(["a1", "a2", "b1", "a3", "a4", "a5"]);
	});

	it("a burst yields: a job of a workspace running none pauses the running job of a workspace with several videos in progress", async () => {
		const slots = new Slots(2);
		const take = (workspace: string, video: string) => slots.acquire(undefined, { workspace, video });
		const holdOf = (release: SlotRelease) => release.within(async () => currentCpuHold()!);
		// Workspace A's two videos hold both cores; its third waits.
		const [a1, a2] = [await take("ws_a", "vid_a1"), await take("ws_a", "vid_a2")];
		const a3 = take("ws_a", "vid_a3");
		// B's and C's first jobs do not wait behind A's: each pauses one of A's.
		const b = await take("ws_b", "vid_b");
		const c = await take("ws_c", "vid_c");
		expect([(await holdOf(a1)).paused, (await holdOf(a2)).paused]).toEqual([true, true]);
		expect([slots.pausedJobs, slots.queued]).toEqual([2, 1]);
		// A job of A's never pauses B's or C's (A used more: its burst counts two minutes a video).
		let a3Started = false;
		void a3.then(() => (a3Started = true));
		// A freed slot continues a paused job before a new one of the same workspace.
		b();
		await new Promise((r) => setTimeout(r, 10));
		expect([(await holdOf(a1)).paused, (await holdOf(a2)).paused, a3Started]).toEqual([false, true, false]);
		c();
		a1();
		await new Promise((r) => setTimeout(r, 10));
		expect([(await holdOf(a2)).paused, a3Started]).toEqual([false, true]);
		a2();
		(await a3)();
	});

	it("a video stops counting among its workspace's videos in progress once it is forgotten (its cleanup), or a moment after its last job", async () => {
		let clock = 0;
		const slots = new Slots(1, () => clock);
		const take = (workspace: string, video: string) => slots.acquire(undefined, { workspace, video });
		const started: string[] = [];
		const note = (label: string) => (release: SlotRelease) => (started.push(label), release);
		// A's first video ends; its second starts a second later: for now A has two in progress, so B pauses A's job.
		(await take("ws_a", "vid_a1"))();
		clock = 1_000;
		const a2 = await take("ws_a", "vid_a2");
		const b1 = await take("ws_b", "vid_b1").then(note("b1"));
		expect([started, slots.pausedJobs]).toEqual([["b1"], 1]);
		b1();
		// The first video forgotten, A has one: C (nothing used) waits for A's job, which used under half a minute.
		slots.forget("vid_a1");
		clock = 2_000;
		const c1 = take("ws_c", "vid_c1").then(note("c1"));
		await new Promise((r) => setTimeout(r, 10));
		expect([started, slots.pausedJobs]).toEqual([["b1"], 0]);
		a2();
		(await c1)();
		// Without the cleanup, the same goes ten seconds after the video's last job.
		(await take("ws_a", "vid_a3"))();
		clock = 13_000;
		const a4 = await take("ws_a", "vid_a4");
		const d1 = take("ws_d", "vid_d1").then(note("d1"));
		await new Promise((r) => setTimeout(r, 10));
		expect(started).toEqual(["b1", "c1"]);
		a4();
		(await d1)();
	});

	it("between workspaces with one video each, a new one pauses another's job only once that one used half a minute more; the least used goes next", async () => {
		let clock = 0;
		const slots = new Slots(1, () => clock);
		const order: string[] = [];
		const take = (workspace: string, label: string) =>
			slots.acquire(undefined, { workspace, video: label }).then((release) => {
				order.push(label);
				return release;
			});
		const a1 = await take("ws_a", "a1");
		// A has run 20 s: B waits its turn.
		clock = 20_000;
		const b1 = take("ws_b", "b1");
		await new Promise((r) => setTimeout(r, 10));
		expect(order).toEqual(["a1"]);
		// At 31 s, C does not: A's job is paused for it.
		clock = 31_000;
		const c1 = await take("ws_c", "c1");
		expect(order).toEqual(["a1", "c1"]);
		expect(slots.pausedJobs).toBe(1);
		// C's job ends: B has used nothing, A 31 s, so B goes before A's paused job.
		clock = 32_000;
		c1();
		await new Promise((r) => setTimeout(r, 10));
		expect(order).toEqual(["a1", "c1", "b1"]);
		clock = 33_000;
		(await b1)();
		expect(slots.pausedJobs).toBe(0);
		a1();
	});

	it("a job paused for a minute in all is not paused again, and goes first for the next free slot", async () => {
		let clock = 0;
		const slots = new Slots(1, () => clock);
		const take = (workspace: string, video: string) => slots.acquire(undefined, { workspace, video });
		const holdOf = (release: SlotRelease) => release.within(async () => currentCpuHold()!);
		// A bursts two videos; B pauses A's running job.
		const a1 = await take("ws_a", "vid_a1");
		const a2 = take("ws_a", "vid_a2");
		const b = await take("ws_b", "vid_b");
		// A minute on, C (nothing used) pauses B's job, which ran that minute.
		clock = 61_000;
		const c = await take("ws_c", "vid_c");
		expect(slots.pausedJobs).toBe(2);
		// A's job, paused a minute, goes before B's (paused a moment) and before A's waiting one.
		clock = 62_000;
		c();
		await new Promise((r) => setTimeout(r, 10));
		expect((await holdOf(a1)).paused).toBe(false);
		expect((await holdOf(b)).paused).toBe(true);
		// D has used nothing, but A's job is not paused again: D waits.
		let dStarted = false;
		const d = take("ws_d", "vid_d").then((release) => ((dStarted = true), release));
		await new Promise((r) => setTimeout(r, 10));
		expect(dStarted).toBe(false);
		// When it ends, D (nothing used) goes before A's other video and B's paused job.
		a1();
		(await d)();
		b();
		(await a2)();
	});

	it("pausing stops the job's process where it is, and its timeout counts only the time it ran", async () => {
		const slots = new Slots(1);
		const a = await slots.acquire(undefined, { workspace: "ws_a", video: "vid_a1" });
		const a2 = slots.acquire(undefined, { workspace: "ws_a", video: "vid_a2" });
		const started = Date.now();
		// A 0.6 s process with a 1 s timeout, paused for 1.5 s after 0.1 s.
		const run = a.within(() => runProcess("sleep", ["0.6"], { timeoutMs: 1_000 }));
		await new Promise((r) => setTimeout(r, 100));
		const b = await slots.acquire(undefined, { workspace: "ws_b", video: "vid_b" });
		await new Promise((r) => setTimeout(r, 100));
		expect(childStates("sleep")).toEqual(["T"]);
		await new Promise((r) => setTimeout(r, 1_400));
		b();
		await new Promise((r) => setTimeout(r, 100));
		expect(childStates("sleep")).not.toContain("T");
		await expect(run).resolves.toBeDefined();
		expect(Date.now() - started).toBeGreaterThan(1_500);
		a();
		(await a2)();
		// Without a pause the same timeout kills it.
		await expect(runProcess("sleep", ["2"], { timeoutMs: 300 })).rejects.toMatchObject({ reason: "timeout" });
	});
});

/** The state letters (ps STAT's first) of this process's children named `command`. */
function childStates(command: string): string[] {
	const lines = execFileSync("ps", ["-o", "stat=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
	return lines
		.split("\n")
		.map((line) => line.trim().split(/\s+/))
		.filter(([, comm]) => comm === command)
		.map(([stat]) => stat![0]!);
}
