import { describe, expect, it } from "vitest";
import type { LlmClient } from "@clipforge/moments/llm";
import { LlmUnavailableError } from "@clipforge/moments/llm";
import { findChapters } from "@clipforge/moments";
import { threeTopicTalk } from "../helpers/three-topics";

const { transcript } = threeTopicTalk();
const failing = (message: string): LlmClient => ({ name: "stub", complete: () => Promise.reject(new Error(message)) });

describe("chapters: the LLM first, the offline segmentation when it cannot", () => {
	it("a capacity error on every call is thrown while the step has attempts left, so the step is retried", async () => {
		await expect(
			findChapters(transcript, failing("3040: Capacity temporarily exceeded"), { finalAttempt: false }),
		).rejects.toBeInstanceOf(LlmUnavailableError);
	});

	it("on the last attempt the offline chapters are kept, and the reason is recorded", async () => {
		const found = await findChapters(transcript, failing("3040: Capacity temporarily exceeded"), {
			finalAttempt: true,
		});
		expect(found.madeBy).toBe("offline");
		expect(found.chapters).toHaveLength(3);
		expect(found.madeByDetail).toMatch(/^offline \(fallback, stub failed: all 1 transcript parts failed/);
	});

	it("proposals that break YouTube's rules (two chapters 3 s apart) leave the offline chapters", async () => {
		const llm: LlmClient = {
			name: "stub",
			complete: async (messages) =>
				messages[0]!.content.includes("chapters for YouTube")
					? { chapters: [0, 1].map((n) => ({ firstSentence: n, title: `T${n}`, summary: "S." })) }
					: { summary: [{ text: "A summary." }] },
		};
		const found = await findChapters(transcript, llm);
		expect(found.madeBy).toBe("offline");
		expect(found.madeByDetail).toBe("offline (stub proposed fewer than three chapters that fit)");
	});

	it("usable proposals become the chapters, each keeping the title and summary of the one it starts with", async () => {
		const llm: LlmClient = {
			name: "stub",
			complete: async (messages) =>
				messages[0]!.content.includes("chapters for YouTube")
					? {
							chapters: [0, 31, 62].map((n) => ({
								firstSentence: n,
								title: `Topic ${n}`,
								summary: `From S${n}.`,
							})),
						}
					: { summary: [{ text: "Three topics." }] },
		};
		const found = await findChapters(transcript, llm);
		expect(found.madeBy).toBe("llm");
		expect(found.chapters.map((c) => [c.title, c.summary])).toEqual([
			["Topic 0", "From S0."],
			["Topic 31", "From S31."],
			["Topic 62", "From S62."],
		]);
		expect(found.chapters[0]!.start).toBe(0);
		expect(found.summary).toBe("Three topics.");
	});
});
