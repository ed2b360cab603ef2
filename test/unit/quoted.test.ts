import { describe, expect, it } from "vitest";
import { quoted } from "@clipforge/moments/text";

describe("a spoken sentence as a quote", () => {
	it("drops fillers, a word said twice in a row and the words that only hand over at its start", () => {
		expect(quoted("um so the the remote control is is, is broken")).toBe("The remote control is broken");
		expect(quoted("Yeah, OK, so, we're interested in methods for far mike speech")).toBe(
			"We're interested in methods for far mike speech",
		);
		expect(quoted("and then i moved to chicago")).toBe("I moved to Chicago");
		expect(quoted("I almost, I almost switched to business")).toBe("I almost switched to business");
	});

	it("drops a word broken off and said again whole, and a comma it ends on", () => {
		expect(quoted("Tha that's why I was saying you could check")).toBe("That's why I was saying you could check");
		expect(quoted("using narrow band information for ph phonetic features,")).toBe(
			"Using narrow band information for phonetic features",
		);
		expect(quoted("we went to today's meeting in inside sales")).toBe("We went to today's meeting in inside sales");
		expect(quoted("from nine eighty to eight eighty, then the thesis")).toBe(
			"From nine eighty to eight eighty, then the thesis",
		);
	});

	it("keeps a sentence that is all lead-in, and words that only look alike", () => {
		expect(quoted("okay so")).toBe("Okay so");
		expect(quoted("the thesis and the theses")).toBe("The thesis and the theses");
	});
});
