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
});
