/**
 * The clip tools of a video's page in a real browser (Debian's Chromium through playwright-core) on
 * the local stack with the real render tier: favourites and the favourites filter, the order, the
 * export links, and the clip editor (a trim previewed in the clip's player, then saved and rendered
 * again by ffmpeg; a corrected caption word). Screenshots go to test-artifacts/.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signIn, useChromium } from "./browser.ts";
import { describe, expect, inject, it } from "vitest";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");
const media = useServedMedia("clipforge-e2e-clips-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 40 }),
);

const browser = useChromium(ARTIFACTS);

async function untilClip(id: string, done: (clip: any) => boolean) {
	for (let i = 0; i < 240; i++) {
		const clip = (await api("GET", `/api/clips/${id}`)).body;
		if (done(clip)) return clip;
		await new Promise((r) => setTimeout(r, 500));
	}
	throw new Error(`clip ${id} never got there`);
}

describe("dashboard: clips", () => {
	it("favourites, filters, orders, exports, and edits a clip (trim previewed, saved and rendered again; a caption word corrected)", async () => {
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: { clipDurationMin: 8, clipDurationMax: 20, enableCaptions: true },
		});
		const id = submitted.body.video.id as string;
		expect((await waitForStatus(id)).video.status).toBe("completed");
		const listed = (await api("GET", `/api/videos/${id}/clips`)).body.clips as {
			id: string;
			startTime: number;
			endTime: number;
			duration: number;
		}[];
		expect(listed.length).toBeGreaterThan(0);

		const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
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
		const cards = page.locator("li.clip");
		expect(await cards.count()).toBe(listed.length);

		// Favourite the best clip; the favourites filter then shows it alone.
		const first = cards.first();
		await first.getByRole("button", { name: /Favorite/ }).click();
		await expect
			.poll(() => first.getByRole("button", { name: /Favorite/ }).getAttribute("aria-pressed"))
			.toBe("true");
		expect((await api("GET", `/api/clips/${listed[0]!.id}`)).body.favorited).toBe(true);
		await page.getByLabel("Favorites only").check();
		await expect.poll(() => cards.count()).toBe(1);
		expect(await cards.first().getAttribute("data-clip-id")).toBe(listed[0]!.id);
		await page.getByLabel("Favorites only").uncheck();
		await expect.poll(() => cards.count()).toBe(listed.length);

		// Time order, earliest first.
		await page.getByLabel("Sort by").selectOption("startTime");
		await page.getByLabel("Order").selectOption("asc");
		const byTime = [...listed].sort((a, b) => a.startTime - b.startTime).map((c) => c.id);
		await expect
			.poll(async () => cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-clip-id"))))
			.toEqual(byTime);

		// The export links answer with the session: a timeline that parses, a ZIP that unzips.
		const fcpxml = await page.request.get(
			`${stackUrl()}${await page.getByRole("link", { name: /FCPXML/ }).getAttribute("href")}`,
		);
		expect(fcpxml.status()).toBe(200);
		expect(await fcpxml.text()).toContain(`<fcpxml version="1.9">`);
		const zipDownload = page.waitForEvent("download");
		await page.getByRole("link", { name: /ZIP/ }).click();
		const zipPath = join(mkdtempSync(join(tmpdir(), "clipforge-zip-")), "clips.zip");
		await (await zipDownload).saveAs(zipPath);
		const tested = execFileSync("unzip", ["-t", zipPath], { encoding: "utf8" });
		expect(tested).toMatch(/No errors detected/);
		expect(tested.match(/\.mp4 +OK/g)).toHaveLength(listed.length);

		// Edit the earliest clip: a trim 2 s shorter at the end, previewed in its own player.
		const target = listed.find((c) => c.id === byTime[0])!;
		const card = page.locator(`li.clip[data-clip-id="${target.id}"]`);
		await card.getByText("Edit clip").click();
		const end = card.getByLabel("End (s in the video)");
		await end.waitFor();
		expect(Number(await end.inputValue())).toBeCloseTo(target.endTime, 2);
		await end.fill((target.endTime - 2).toFixed(2));
		await card.getByRole("button", { name: "Preview trim" }).click();
		const video = card.locator("video");
		expect(Number(await video.getAttribute("data-preview-to"))).toBeCloseTo(target.duration - 2, 1);
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-8-clip-editor.png"), fullPage: true });
		await card.getByRole("button", { name: "Save" }).click();
		const trimmed = await untilClip(target.id, (c) => c.status === "completed" && c.edits === 1);
		expect(trimmed.editError).toBeNull();
		expect(trimmed.endTime).toBeLessThan(target.endTime - 1);
		// The page reloads the list with the re-rendered clip: its player has the new length.
		const newCard = page.locator(`li.clip[data-clip-id="${target.id}"]`);
		await expect
			.poll(
				async () =>
					newCard.locator("video").evaluate(async (el: HTMLVideoElement) => {
						if (el.readyState < 1)
							await new Promise((r) => el.addEventListener("loadedmetadata", r, { once: true }));
						return Math.round(el.duration);
					}),
				{ timeout: 30_000 },
			)
			.toBe(Math.round(trimmed.duration));

		// Correct the first caption word.
		await newCard.getByText("Edit clip").click();
		const words = newCard.getByLabel(/Caption words/);
		await words.waitFor();
		const original = (await words.inputValue()).split(" ");
		await words.fill(["Clipforge", ...original.slice(1)].join(" "));
		await newCard.getByRole("button", { name: "Save" }).click();
		const corrected = await untilClip(target.id, (c) => c.status === "completed" && c.edits === 2);
		expect(corrected.words[0].word).toBe("Clipforge");
		const srt = await (
			await fetch(`${stackUrl()}/api/clips/${target.id}/captions?format=srt`, {
				headers: { authorization: `Bearer ${inject("clipforgeApiKey")}` },
			})
		).text();
		expect(srt.split("\n")[2]!.startsWith("Clipforge")).toBe(true);
		await page.screenshot({ path: join(ARTIFACTS, "dashboard-9-clip-edited.png"), fullPage: true });
		writeFileSync(join(ARTIFACTS, "dashboard-clips.srt"), srt);
		expect(problems).toEqual([]);
		await context.close();
	});
});
