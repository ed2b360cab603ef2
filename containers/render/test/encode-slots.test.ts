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
		const take = (owner: string, label: string) =>
			slots.acquire(undefined, owner).then((release) => {
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
});
