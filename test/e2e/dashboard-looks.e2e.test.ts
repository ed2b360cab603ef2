/**
 * Caption looks in the dashboard, in Debian's Chromium (playwright-core) on the real local stack:
 * the looks page shows every preset with the preview the render tier drew (real PNGs), the brand
 * kit editor creates and changes a workspace look (its preview drawn in its font and colours), the
 * new-video form's picker offers it with its preview, and a video submitted with it and "Remove
 * silences" comes out with that look and its pauses cut (the clip is shorter than its span in the
 * source, and the file is as long as the API says). Screenshots in test-artifacts/.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { signIn, useChromium } from "./browser.ts";
import { describe, expect, it } from "vitest";
import { CAPTION_PRESETS } from "@clipforge/contract/words";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");
const media = useServedMedia("clipforge-e2e-looks-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 30 }),
);

const browser = useChromium(ARTIFACTS);

/** Every preview image in `scope` has loaded a real picture (the tier's PNG, 9:16). */
async function loadedPreviews(page: Page, selector: string): Promise<{ width: number; height: number }[]> {
	return page.$$eval(selector, async (imgs) =>
		Promise.all(
			(imgs as HTMLImageElement[]).map(async (img) => {
				if (!img.complete) await new Promise((r) => img.addEventListener("load", r, { once: true }));
				return { width: img.naturalWidth, height: img.naturalHeight };
			}),
		),
	);
}

describe("caption looks in the dashboard", () => {
	it("shows the presets' previews, edits a brand look, picks it for a video with silences removed", async () => {
		const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
		// The 401 before signing in and the refused duplicate name's 409 are logged by the browser as failed resources; anything else is a problem.
		page.on(
			"console",
			(m) => m.type() === "error" && !/\b(401|409)\b/.test(m.text()) && problems.push(`console: ${m.text()}`),
		);
		await signIn(page, "/app");

		// The looks page: every preset with its drawn preview.
		await page.getByRole("navigation").getByRole("link", { name: "Caption looks" }).click();
		await page.getByRole("heading", { name: "Caption looks" }).waitFor();
		const presets = page.locator('[aria-label="Preset caption looks"] .look');
		await expect.poll(() => presets.count(), { timeout: 30_000 }).toBe(CAPTION_PRESETS.length);
		expect(await presets.locator(".look-name").allTextContents()).toEqual(CAPTION_PRESETS.map((p) => p.name));
		const sizes = await loadedPreviews(page, '[aria-label="Preset caption looks"] img.look-preview');
		expect(sizes).toHaveLength(CAPTION_PRESETS.length);
		for (const size of sizes) expect(size).toEqual({ width: 360, height: 640 });

		// The brand kit: a look from "Boxed" in Bebas Neue, pink on top; a bad name is refused with the API's message.
		await page.getByLabel("Name").fill("Brand");
		await page.getByLabel("Start from").selectOption({ label: "Boxed" });
		await page.getByLabel("Font").selectOption({ label: "Bebas Neue" });
		await page.getByLabel("Text colour").fill("#ff3366");
		await page.getByLabel("Position").selectOption("top");
		await page.getByRole("button", { name: "Save look" }).click();
		const mine = page.locator('[aria-label="Your caption looks"] .look');
		// Saving waits for the tier to draw the new look's preview (a second or two on a busy machine).
		await expect
			.poll(
				async () => [
					...(await mine.locator(".look-name").allTextContents()),
					await page.getByRole("alert").textContent(),
				],
				{ timeout: 30_000 },
			)
			.toEqual(["Brand", ""]);
		const [brandPreview] = await loadedPreviews(page, '[aria-label="Your caption looks"] img.look-preview');
		expect(brandPreview).toEqual({ width: 360, height: 640 });

		await page.getByLabel("Name").fill("brand");
		await page.getByRole("button", { name: "Save look" }).click();
		await expect
			.poll(() => page.getByRole("alert").textContent(), { timeout: 10_000 })
			.toContain("already has a caption template named");

		// Edit: the form fills with the look; the change shows in the API.
		await page.getByRole("button", { name: "Edit Brand" }).click();
		expect(await page.getByLabel("Font").inputValue()).toBe("bebas-neue");
		await page.getByLabel("Highlight colour").fill("#00ccff");
		await page.getByRole("button", { name: "Save Brand" }).click();
		await expect
			.poll(
				async () =>
					(await api("GET", "/api/caption-templates")).body.templates.find(
						(t: { name: string }) => t.name === "Brand",
					)?.highlightColor,
				{ timeout: 30_000 },
			)
			.toBe("#00CCFF");
		const brand = (await api("GET", "/api/caption-templates")).body.templates.find(
			(t: { name: string }) => t.name === "Brand",
		);
		expect(brand).toMatchObject({
			kind: "custom",
			presetId: "boxed",
			font: "bebas-neue",
			textColor: "#FF3366",
			highlightColor: "#00CCFF",
			position: "top",
		});
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-looks-1-brand-kit.png"), fullPage: true });

		// The new-video form offers it with its preview; pick it and remove silences.
		await page.getByRole("navigation").getByRole("link", { name: "Videos", exact: true }).click();
		await page.getByRole("heading", { name: "New video" }).waitFor();
		const picker = page.getByRole("radiogroup", { name: "Caption style" });
		expect(await picker.getByRole("radio").count()).toBe(CAPTION_PRESETS.length + 1);
		expect(await picker.getByRole("radio", { name: "Karaoke" }).isChecked()).toBe(true);
		const unlabeled = await page.$$eval("input, select, textarea", (els) =>
			els.filter((el) => !(el as HTMLInputElement).labels?.length).map((el) => el.id),
		);
		expect(unlabeled).toEqual([]);
		await picker.locator("label.look", { hasText: "Brand" }).click();
		expect(await picker.getByRole("radio", { name: "Brand" }).isChecked()).toBe(true);
		expect((await loadedPreviews(page, "fieldset.looks img.look-preview")).every((s) => s.width === 360)).toBe(
			true,
		);
		await page.getByLabel("Video URL").fill(`${media.url()}/talk.mp4`);
		await page.getByLabel("Shortest clip (s)").fill("8");
		await page.getByLabel("Longest clip (s)").fill("20");
		await page.getByLabel("Remove silences (jump cuts)").check();
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-looks-2-picker.png"), fullPage: true });
		await page.getByRole("button", { name: "Make clips" }).click();
		await page.getByRole("progressbar", { name: "Progress" }).waitFor();
		const videoId = /#\/videos\/([\w-]+)/.exec(page.url())![1]!;

		const final = await waitForStatus(videoId, { intervalMs: 1000 });
		expect(final.video.status).toBe("completed");
		const detail = (await api("GET", `/api/videos/${videoId}`)).body;
		expect(detail.config).toMatchObject({
			enableCaptions: true,
			captionTemplateId: brand.id,
			removeSilences: true,
			silenceThresholdSeconds: 0.6,
		});
		const { clips } = (await api("GET", `/api/videos/${videoId}/clips`)).body as {
			clips: { startTime: number; endTime: number; duration: number; downloadUrl: string }[];
		};
		expect(clips.length).toBeGreaterThan(0);
		// The talk pauses 0.8 s between sentences: every clip of 8 s or more spans a pause, and loses it.
		for (const clip of clips) {
			expect(clip.duration).toBeLessThan(clip.endTime - clip.startTime - 0.3);
			const file = join(media.dir(), `clip-${clips.indexOf(clip)}.mp4`);
			writeFileSync(file, Buffer.from(await (await fetch(clip.downloadUrl)).arrayBuffer()));
			const seconds = Number(
				execFileSync("ffprobe", [
					"-v",
					"error",
					"-show_entries",
					"format=duration",
					"-of",
					"csv=p=0",
					file,
				]).toString(),
			);
			expect(seconds).toBeCloseTo(clip.duration, 1);
		}
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-looks-3-clips.png"), fullPage: true });

		// Delete the look: gone from the picker; the video keeps its config.
		await page.getByRole("navigation").getByRole("link", { name: "Caption looks" }).click();
		page.once("dialog", (d) => d.accept());
		await page.getByRole("button", { name: "Delete Brand" }).click();
		await expect.poll(() => mine.count(), { timeout: 10_000 }).toBe(0);
		expect((await api("GET", `/api/videos/${videoId}`)).body.config.captionTemplateId).toBe(brand.id);

		// Phone width: the looks page does not overflow sideways.
		await page.setViewportSize({ width: 375, height: 812 });
		expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
			1,
		);
		expect(problems).toEqual([]);
		await context.close();
	});
});
