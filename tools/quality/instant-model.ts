/**
 * An instant stand-in for the ranking's LLM: it proposes each chunk's (ClipBasic) or window's
 * (ClipPro) first sentences at once, a chapter every minute and a summary (the chapters' prompts),
 * and records the prompts, so what a measurement sees is the
 * ranking code's own work, not a model's. Plain TypeScript with no Node import: `bench:rank-step`
 * runs it in Node, `npm run limits:report` inside workerd (test/workerd/rank-step-worker.ts).
 */
import type { ChatMessage, LlmClient } from "@clipforge/moments/llm";

/** An instant model that proposes each chunk's or window's first sentences, and records the prompts. */
export function instantModel(): LlmClient & { calls: number; promptChars: number; answerChars: number } {
	const model = {
		name: "instant",
		calls: 0,
		promptChars: 0,
		/** The answers' JSON characters: what a model writes in each schema's shape (bench:cost's output tokens). */
		answerChars: 0,
		async complete(messages: ChatMessage[]) {
			model.calls++;
			model.promptChars += messages.reduce((n, m) => n + m.content.length, 0);
			const answer = answerTo(messages[0]!.content, messages.at(-1)!.content);
			model.answerChars += JSON.stringify(answer).length;
			return answer;
		},
	};
	return model;
}

/** What the instant model answers a prompt of the ranking or the chapters. */
function answerTo(system: string, user: string): unknown {
	// The chapters' two prompts (packages/moments/src/chapters/llm): a chapter every 60 s of the sentences shown, then a summary.
	if (system.includes("summary of a video for its YouTube description"))
		return { summary: [{ text: "What the video covers, in order." }] };
	if (system.includes("into chapters for YouTube")) return chaptersOf(user);
	if (system.includes("Score each window")) {
		const ids = [...user.matchAll(/### Window (\d+)/g)].map((m) => Number(m[1]));
		return {
			windows: ids.map((window, n) => ({
				window,
				hook: 9 - (n % 5),
				completeness: 8,
				payoff: 9 - (n % 4),
				relevance: 0,
			})),
		};
	}
	return clipsOf(user);
}

/** A chapter every 60 s of the sentences shown. */
function chaptersOf(user: string) {
	const shown = [...user.matchAll(/^S(\d+) \[(\d+(?:\.\d+)?)\]/gm)].map((m) => ({
		id: Number(m[1]),
		start: Number(m[2]),
	}));
	const chapters: { firstSentence: number; title: string; summary: string; at: number }[] = [];
	for (const s of shown)
		if (chapters.length === 0 || s.start - chapters.at(-1)!.at >= 60)
			chapters.push({ at: s.start, firstSentence: s.id, title: "A chapter", summary: "What is said there." });
	return { chapters: chapters.map(({ at: _at, ...c }) => c) };
}

/** Three clips of nine sentences each, at the start, 30 % and 60 % of the sentences shown. */
function clipsOf(user: string) {
	const ids = [...user.matchAll(/^S(\d+) /gm)].map((m) => Number(m[1]));
	const clips = [0, 0.3, 0.6]
		.map((at) => Math.floor(at * ids.length))
		.filter((k) => k + 8 < ids.length)
		.map((k) => ({
			firstSentence: ids[k],
			lastSentence: ids[k + 8],
			title: "A moment",
			hookTitle: "A headline",
			score: 70,
			reason: "It lands.",
			hooks: { question: "", statement: "" },
			emotions: ["curiosity"],
			description: "A caption. #tag",
		}));
	return { clips };
}
