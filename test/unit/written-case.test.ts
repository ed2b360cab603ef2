import { describe, expect, it } from "vitest";
import { asWritten, writtenForm } from "../../src/worker/services/ranking/text/written-case";

describe("words as a person writes them (the local engine writes lower case)", () => {
	it("capitalises the words a dictionary knows only with a capital, and I", () => {
		expect(asWritten("ten years ago i worked at a bakery in chicago for walter")).toBe(
			"ten years ago I worked at a bakery in Chicago for Walter",
		);
		expect(asWritten("i'm moving to london on monday, i've heard nasa is hiring")).toBe(
			"I'm moving to London on Monday, I've heard NASA is hiring",
		);
	});

	it("leaves words that are also common words, and anything already written with capitals", () => {
		expect(asWritten("mark the bill in march, grace will amazon it")).toBe(
			"mark the bill in march, grace will amazon it",
		);
		expect(writtenForm("McDonald")).toBe("McDonald");
		expect(writtenForm("iPhone")).toBe("iPhone");
		expect(asWritten("Chicago and NYC")).toBe("Chicago and NYC");
	});
});
