import { describe, expect, it } from "vitest";
import { Slots } from "../src/encode-slots.ts";

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

	it("shares the cores between workspaces first: one workspace's videos together get no more than another workspace's one", async () => {
		const slots = new Slots(2);
		const order: string[] = [];
		const take = (workspace: string, video: string, label: string) =>
			slots.acquire(undefined, { workspace, video }).then((release) => {
				order.push(label);
				return release;
			});
		// Workspace A bursts two videos that hold both cores and queue more; B's one video and C's come last.
		const a1 = await take("ws_a", "vid_a1", "a1");
		const a2 = await take("ws_a", "vid_a2", "a2");
		const queued = [
			take("ws_a", "vid_a3", "a3"),
			take("ws_a", "vid_a1", "a1'"),
			take("ws_b", "vid_b", "b"),
			take("ws_c", "vid_c", "c"),
		];
		await new Promise((r) => setTimeout(r, 10));
		a1();
		await new Promise((r) => setTimeout(r, 10));
		// Per video, A's new third video (holding none) would tie with B and go first; per workspace, A holds one and B none.
		expect(order.slice(2)).toEqual(["b"]);
		(await queued[2]!)();
		await new Promise((r) => setTimeout(r, 10));
		// A still holds one (a2), C none: C's job goes before A's two, which came earlier.
		expect(order.slice(2)).toEqual(["b", "c"]);
		a2();
		await new Promise((r) => setTimeout(r, 10));
		expect(order.slice(2)).toEqual(["b", "c", "a3"]);
	});

	it("between workspaces holding none, the one that used the cores least lately goes first, not the oldest waiter; forgotten in minutes", async () => {
		let clock = 0;
		const slots = new Slots(1, () => clock);
		const order: string[] = [];
		const take = (workspace: string, label: string) =>
			slots.acquire(undefined, { workspace, video: label }).then((release) => {
				order.push(label);
				return release;
			});
		// A encodes for 20 s while its next job and then B's first wait.
		const a1 = await take("ws_a", "a1");
		const a2 = take("ws_a", "a2");
		const b1 = take("ws_b", "b1");
		clock = 20_000;
		a1();
		await new Promise((r) => setTimeout(r, 10));
		// Both hold none now; B has had nothing, A 20 s: B goes first although A's job came first.
		expect(order).toEqual(["a1", "b1"]);
		// B encodes for 1 s; A (20 s, decaying) still used more, so its job goes next, as the only waiter.
		clock = 21_000;
		(await b1)();
		await new Promise((r) => setTimeout(r, 10));
		expect(order).toEqual(["a1", "b1", "a2"]);
		(await a2)();
		// Twenty minutes on, both pasts are forgotten: first come, first served again.
		clock = 21_000 + 20 * 60_000;
		const c1 = await take("ws_c", "c1");
		const a3 = take("ws_a", "a3");
		const b2 = take("ws_b", "b2");
		clock += 1_000;
		c1();
		await new Promise((r) => setTimeout(r, 10));
		expect(order.slice(3)).toEqual(["c1", "a3"]);
		(await a3)();
		(await b2)();
	});
});
