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
});
