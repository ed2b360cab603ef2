/**
 * The web dashboard in a real browser (Debian's Chromium driven by playwright-core, headless) on
 * the local stack: sign in, submit a generated talk video with the form, watch it reach completed,
 * play a clip (the <video> reports a duration), download it, manage API keys; at desktop and phone
 * width. Screenshots are kept in test-artifacts/ for review.
 */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { signIn, useChromium } from "./browser.ts";
import { describe, expect, inject, it } from "vitest";
import { stackUrl, useServedMedia } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");
const media = useServedMedia("clipforge-e2e-browser-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 30 }),
);

const browser = useChromium(ARTIFACTS);

describe("dashboard in Chromium", () => {
	it("signs in, submits a video, shows progress to completed, plays and downloads a clip", async () => {
		const context = await browser().newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
		page.on(
			"console",
			(m) => m.type() === "error" && !m.text().includes("401") && problems.push(`console: ${m.text()}`),
		);

		await page.goto(`${stackUrl()}/`);
		await page.getByRole("heading", { name: "Sign in" }).waitFor();
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-1-sign-in.png") });
		// A wrong password is refused with a message, not a crash.
		await page.getByLabel("Email").fill(inject("clipforgeEmail"));
		await page.getByLabel("Password").fill("not-the-password");
		await page.getByRole("button", { name: "Sign in" }).click();
		await expect.poll(() => page.getByRole("alert").textContent()).toContain("Wrong email or password");
		await signIn(page, "/app");

		// Every form control has a label (screen readers, and a click on the label focuses it).
		const unlabeled = await page.$$eval("input, select, textarea", (els) =>
			els.filter((el) => !(el as HTMLInputElement).labels?.length).map((el) => el.id),
		);
		expect(unlabeled).toEqual([]);

		await page.getByLabel("Video URL").fill(`${media.url()}/talk.mp4`);
		await page.getByLabel("Shortest clip (s)").fill("8");
		await page.getByLabel("Longest clip (s)").fill("20");
		await page
			.getByRole("radiogroup", { name: "Caption style" })
			.locator("label.look", { hasText: "Word by word" })
			.click();
		expect(await page.getByRole("radio", { name: "Word by word" }).isChecked()).toBe(true);
		await page.getByLabel("Hook title").check();
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-2-submit.png"), fullPage: true });
		await page.getByRole("button", { name: "Make clips" }).click();

		const progress = page.getByRole("progressbar", { name: "Progress" });
		await progress.waitFor();
		const seen = new Set<number>();
		const deadline = Date.now() + 4 * 60_000;
		while (Date.now() < deadline) {
			seen.add(Number(await progress.getAttribute("value")));
			if ((await page.locator(".stage").textContent())?.startsWith("completed")) break;
			if ((await page.locator(".stage").textContent())?.startsWith("failed"))
				throw new Error((await page.getByRole("alert").first().textContent()) ?? "failed");
			await page.waitForTimeout(500);
		}
		expect(await page.locator(".stage").textContent()).toMatch(/^completed · 100%/);
		expect(seen.size).toBeGreaterThan(2); // progress moved while we watched

		const firstClip = page.locator("li.clip").first();
		await firstClip.waitFor();
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-3-clips.png"), fullPage: true });
		const video = firstClip.locator("video");
		const duration = await video.evaluate(async (el: HTMLVideoElement) => {
			if (el.readyState < 1) await new Promise((r) => el.addEventListener("loadedmetadata", r, { once: true }));
			return el.duration;
		});
		expect(duration).toBeGreaterThan(5);
		const played = await video.evaluate(async (el: HTMLVideoElement) => {
			el.muted = true;
			await el.play();
			await new Promise((r) => setTimeout(r, 1200));
			el.pause();
			return el.currentTime;
		});
		expect(played).toBeGreaterThan(0.3);
		await expect.poll(() => firstClip.locator(".score").textContent()).toMatch(/^\d+$/);
		expect((await firstClip.locator("h3").textContent())?.length).toBeGreaterThan(5);

		const [download] = await Promise.all([
			page.waitForEvent("download"),
			firstClip.getByRole("link", { name: "Download MP4" }).click(),
		]);
		const saved = join(media.dir(), "downloaded.mp4");
		await download.saveAs(saved);
		expect(statSync(saved).size).toBeGreaterThan(10_000);
		expect(
			execFileSync("ffprobe", [
				"-v",
				"error",
				"-show_entries",
				"stream=codec_name",
				"-of",
				"csv=p=0",
				saved,
			]).toString(),
		).toContain("h264");

		// Phone width: nothing overflows sideways.
		await page.setViewportSize({ width: 375, height: 812 });
		const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
		expect(overflow).toBeLessThanOrEqual(1);
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-4-phone.png"), fullPage: true });

		// Back on the videos page, the newest entry is this video, finished, with when it was submitted.
		await page.getByRole("link", { name: "Videos", exact: true }).click();
		const newest = page.getByRole("list", { name: "Your videos" }).getByRole("listitem").first();
		await expect.poll(() => newest.textContent()).toMatch(/^talk completed · \S/);
		expect(problems).toEqual([]);
		await context.close();
	});

	it("creates an API key shown once that works with the API, then revokes it", async () => {
		const context = await browser().newContext({ viewport: { width: 1024, height: 800 } });
		const page = await context.newPage();
		await signIn(page, "/app");
		await page.getByRole("link", { name: "API keys" }).click();
		await page.getByLabel("Name").fill("browser test");
		await page.getByRole("button", { name: "Create key" }).click();
		const key = (await page.locator("#new-key").textContent())!;
		expect(key).toMatch(/^cf_live_/);
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-5-keys.png"), fullPage: true });
		const works = await fetch(`${stackUrl()}/api/workspaces`, { headers: { authorization: `Bearer ${key}` } });
		expect(works.status).toBe(200);

		page.once("dialog", (d) => d.accept());
		await page.getByRole("button", { name: "Revoke browser test" }).click();
		await expect
			.poll(
				async () =>
					(await fetch(`${stackUrl()}/api/workspaces`, { headers: { authorization: `Bearer ${key}` } }))
						.status,
			)
			.toBe(401);
		await context.close();
	});

	it("can be used with the keyboard alone: tab to the fields, submit with Enter", async () => {
		const context = await browser().newContext();
		const page = await context.newPage();
		await page.goto(`${stackUrl()}/app#/login`);
		await page.getByRole("heading", { name: "Sign in" }).waitFor();
		await page.keyboard.type(inject("clipforgeEmail")); // the email field has focus on arrival
		await page.keyboard.press("Tab");
		await page.keyboard.type(inject("clipforgePassword"));
		await page.keyboard.press("Enter");
		await page.getByRole("heading", { name: "New video" }).waitFor();
		await context.close();
	});
});
