/**
 * The dashboard's "Two-person layout" select in a real browser (Debian's Chromium through
 * playwright-core) on the local stack: it offers the domain's layouts with `auto` chosen, and the
 * choice reaches the video's config and the regenerate form. What each layout draws is checked
 * on frames in containers/render/test/speaker-layouts.test.ts.
 */
import { join } from "node:path";
import { signIn, useChromium } from "./browser.ts";
import { describe, expect, it } from "vitest";
import { LAYOUTS } from "@clipforge/domain";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const media = useServedMedia("clipforge-e2e-layout-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 20 }),
);

const browser = useChromium();

describe("dashboard: two-person layout", () => {
	it("offers the layouts with auto chosen, submits the chosen one, and shows it when regenerating", async () => {
		const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
		await signIn(page);

		const select = page.getByLabel("Two-person layout");
		expect(await select.inputValue()).toBe("auto");
		expect(await select.locator("option").allTextContents()).toEqual([...LAYOUTS]);
		await page.getByLabel("Video URL").fill(`${media.url()}/talk.mp4`);
		await page.getByLabel("Shortest clip (s)").fill("8");
		await page.getByLabel("Longest clip (s)").fill("15");
		await select.selectOption("follow-speaker");
		await page.getByRole("button", { name: "Make clips" }).click();
		await page.waitForURL(/#\/videos\/vid_/);
		const id = /#\/videos\/(vid_[^/?]+)/.exec(page.url())![1]!;

		expect((await api("GET", `/api/videos/${id}`)).body.config.layout).toBe("follow-speaker");
		expect((await waitForStatus(id)).video.status).toBe("completed");
		await page.reload();
		await page.locator("li.clip").first().waitFor();
		await page.getByText("Regenerate clips with other settings").click();
		expect(await page.getByLabel("Two-person layout").inputValue()).toBe("follow-speaker");
		expect(problems).toEqual([]);
		await context.close();
	});
});
