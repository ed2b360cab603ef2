/**
 * "Regenerate clips with these settings" in the dashboard, in a real browser (Debian's Chromium
 * through playwright-core) on the local stack: a finished video's page offers its settings, says
 * what the regeneration costs, follows the reprocess like a new video, and plays the new clips.
 * Screenshots go to test-artifacts/.
 */
import { join } from "node:path";
import { signIn, useChromium } from "./browser.ts";
import { describe, expect, it } from "vitest";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");
const media = useServedMedia("clipforge-e2e-regenerate-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 30 }),
);

const browser = useChromium(ARTIFACTS);

describe("dashboard: regenerate clips", () => {
	it("regenerates a finished video's clips with changed settings, free the first time, then says what the next costs", async () => {
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: { clipDurationMin: 8, clipDurationMax: 20, enableCaptions: true },
		});
		const id = submitted.body.video.id as string;
		expect((await waitForStatus(id)).video.status).toBe("completed");
		const minutesBefore = (await api("GET", "/api/workspaces")).body[0].minutesBalance as number;

		const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
		page.on(
			"console",
			(m) => m.type() === "error" && !m.text().includes("401") && problems.push(`console: ${m.text()}`),
		);
		await signIn(page);
		await page.goto(`${stackUrl()}/app#/videos/${id}`);
		await page.locator("li.clip").first().waitFor();

		await page.getByText("Regenerate clips with other settings").click();
		// The form holds the video's own settings, and says it is free.
		expect(await page.getByLabel("Aspect ratio").inputValue()).toBe("9:16");
		expect(await page.getByLabel("Shortest clip (s)").inputValue()).toBe("8");
		expect(await page.getByLabel("Captions").isChecked()).toBe(true);
		expect(await page.locator("#regenerate-cost").textContent()).toMatch(/^This one is free\./);
		const unlabeled = await page.$$eval("form input, form select, form textarea", (els) =>
			els.filter((el) => !(el as HTMLInputElement).labels?.length).map((el) => el.id),
		);
		expect(unlabeled).toEqual([]);
		await page.getByLabel("Aspect ratio").selectOption("1:1");
		await page.getByLabel("Captions").uncheck();
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-6-regenerate.png"), fullPage: true });
		await page.getByRole("button", { name: "Regenerate clips with these settings" }).click();

		// Followed like a new video: the stage moves from analyzing, then the new clips play.
		const stage = page.locator(".stage");
		await expect
			.poll(async () => (await stage.textContent()) ?? "", { timeout: 10_000 })
			.toMatch(/^(analyzing|generating clips)/);
		await expect
			.poll(async () => (await stage.textContent()) ?? "", { timeout: 4 * 60_000, interval: 500 })
			.toMatch(/^completed · 100%/);
		const clip = page.locator("li.clip").first();
		await clip.waitFor();
		const size = await clip.locator("video").evaluate(async (el: HTMLVideoElement) => {
			if (el.readyState < 1) await new Promise((r) => el.addEventListener("loadedmetadata", r, { once: true }));
			return [el.videoWidth, el.videoHeight];
		});
		expect(size).toEqual([1080, 1080]);
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-7-regenerated.png"), fullPage: true });
		expect((await api("GET", "/api/workspaces")).body[0].minutesBalance).toBe(minutesBefore);
		const clips = (await api("GET", `/api/videos/${id}/clips`)).body.clips as { aspectRatio: string }[];
		expect(clips.every((c) => c.aspectRatio === "1:1")).toBe(true);

		// The next one is not free any more, and the form now holds the new settings.
		await page.getByText("Regenerate clips with other settings").click();
		expect(await page.locator("#regenerate-cost").textContent()).toMatch(/^This one costs 1 minute\./);
		expect(await page.getByLabel("Aspect ratio").inputValue()).toBe("1:1");
		expect(await page.getByLabel("Captions").isChecked()).toBe(false);

		// Phone width: nothing overflows sideways.
		await page.setViewportSize({ width: 375, height: 812 });
		expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
			1,
		);
		expect(problems).toEqual([]);
		await context.close();
	});
});
