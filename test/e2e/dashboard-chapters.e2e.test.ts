/**
 * A video's chapters on its dashboard page in a real browser (Debian's Chromium through
 * playwright-core) on the local stack: a generated talk on three topics is transcribed (the local
 * engine), its chapters are listed with their times, titles and summaries, and clicking the second
 * one seeks the player of the stored source to its start. A video too short for chapters shows why.
 * Screenshots go to test-artifacts/.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { signIn, useChromium } from "./browser.ts";
import { describe, expect, it } from "vitest";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");

/** Three topics in turn, each opened as a speaker would: about a minute of flite speech. */
const THREE_TOPICS = [
	"Welcome everyone, today we start with the vegetable garden.",
	"The tomato plants need compost and rich soil in the garden beds.",
	"Water the seedlings every morning and spread mulch around the roots.",
	"Good compost makes the soil dark and the tomato plants strong.",
	"Pull the weeds from the garden beds before the seedlings grow.",
	"Okay, moving on, let's talk about the household budget.",
	"Put part of your salary into a savings account every month.",
	"Pay the debt with the highest interest rate on the loan first.",
	"A budget shows where your spending goes and what the bank charges.",
	"Check the mortgage and the pension plan once a year.",
	"Next, let's talk about the night sky and the telescope.",
	"Point the telescope at Jupiter and count its moons.",
	"The planets move across the stars along their orbit.",
	"A comet shows a long tail when it comes near the sun.",
	"Use a wide eyepiece to see the galaxy on a dark night.",
];
const media = useServedMedia("clipforge-e2e-chapters-", (dir) => {
	cachedTalkVideo({ out: join(dir, "topics.mp4"), seconds: 65, script: THREE_TOPICS });
	cachedTalkVideo({ out: join(dir, "short.mp4"), seconds: 20 });
});

const browser = useChromium(ARTIFACTS);

/** Submits a served file as transcribe-only (chapters need no clips) and waits for it to complete. */
async function transcribed(file: string): Promise<string> {
	const submitted = await api("POST", "/api/videos/hosted", {
		hostedUrl: `${media.url()}/${file}`,
		config: { skipClipping: true },
	});
	const id = submitted.body.video.id as string;
	expect((await waitForStatus(id)).video.status).toBe("completed");
	return id;
}

async function signedInPage(problems: string[]): Promise<Page> {
	const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
	const page = await context.newPage();
	page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
	page.on("console", (m) => m.type() === "error" && !m.text().includes("401") && problems.push(m.text()));
	await signIn(page);
	return page;
}

const mmss = (seconds: number) =>
	`${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

describe("dashboard: chapters", () => {
	it("lists the chapters, and clicking the second one seeks the source player to its start", async () => {
		const id = await transcribed("topics.mp4");
		const { chapters } = (await api("GET", `/api/videos/${id}/chapters`)).body as {
			chapters: { start: number; title: string; summary: string }[];
		};
		expect(chapters.length).toBeGreaterThanOrEqual(3);

		const problems: string[] = [];
		const page = await signedInPage(problems);
		await page.goto(`${stackUrl()}/app#/videos/${id}`);
		const list = page.getByRole("list", { name: "Chapters" });
		await list.waitFor();
		const buttons = list.getByRole("button");
		expect(await buttons.count()).toBe(chapters.length);
		for (const [i, chapter] of chapters.entries()) {
			expect(await buttons.nth(i).textContent()).toBe(`${mmss(chapter.start)} ${chapter.title}`);
			expect(await list.locator(".chapter-summary").nth(i).textContent()).toBe(chapter.summary);
		}

		const second = chapters[1]!;
		await buttons.nth(1).click();
		const player = page.getByLabel("Source video");
		// Playing moves on from the start: the time is read as soon as the seek has landed.
		await expect
			.poll(() => player.evaluate((v: HTMLVideoElement) => (v.seeking ? -1 : v.currentTime)), { timeout: 20_000 })
			.toBeGreaterThanOrEqual(second.start - 0.25);
		const at = await player.evaluate((v: HTMLVideoElement) => v.currentTime);
		expect(at).toBeLessThan(second.start + 2);
		await expect.poll(() => buttons.nth(1).getAttribute("aria-current")).toBe("true");
		await player.evaluate((v: HTMLVideoElement) => v.pause());
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-10-chapters.png"), fullPage: true });
		expect(problems).toEqual([]);
		await page.context().close();
	});

	it("says why a video too short for chapters has none", async () => {
		const id = await transcribed("short.mp4");
		const answer = (await api("GET", `/api/videos/${id}/chapters`)).body as { chapters: unknown[]; note: string };
		expect(answer.chapters).toEqual([]);

		const problems: string[] = [];
		const page = await signedInPage(problems);
		await page.goto(`${stackUrl()}/app#/videos/${id}`);
		await page.getByRole("heading", { name: "Chapters" }).waitFor();
		await expect.poll(() => page.locator(".chapters-note").textContent()).toBe(answer.note);
		expect(answer.note).toMatch(
			/^No chapters: YouTube shows chapters only when a video has at least 3 of them, each at least 10 seconds long/,
		);
		expect(await page.getByRole("list", { name: "Chapters" }).count()).toBe(0);
		expect(await page.getByLabel("Source video").count()).toBe(0);
		expect(problems).toEqual([]);
		await page.context().close();
	});
});
