/**
 * The dashboard tests' browser: Debian's Chromium driven by playwright-core, headless, with nothing
 * that reaches the internet on its own, and allowed to play a clip without a click. And signing
 * in with the stack's account, as a person does on the login form.
 */
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, inject } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { stackUrl } from "./client.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			"--autoplay-policy=no-user-gesture-required",
		],
	});
}

/**
 * The test file's browser: launched before its tests (after making `artifacts`, the folder its
 * screenshots and downloads go to), closed after them. Returns a getter, read inside the tests.
 */
export function useChromium(artifacts?: string): () => Browser {
	let browser: Browser | undefined;
	beforeAll(async () => {
		if (artifacts) mkdirSync(artifacts, { recursive: true });
		browser = await launchChromium();
	});
	afterAll(async () => {
		await browser?.close();
	});
	return () => {
		if (!browser) throw new Error("The browser is not launched yet: read it inside a test.");
		return browser;
	};
}

/** Fills the login form at `path` (the login route, or any page, which sends a signed-out visitor there) and waits for the dashboard. */
export async function signIn(page: Page, path = "/app#/login"): Promise<void> {
	await page.goto(`${stackUrl()}${path}`);
	await page.getByLabel("Email").fill(inject("clipforgeEmail"));
	await page.getByLabel("Password").fill(inject("clipforgePassword"));
	await page.getByRole("button", { name: "Sign in" }).click();
	await page.getByRole("heading", { name: "New video" }).waitFor();
}
