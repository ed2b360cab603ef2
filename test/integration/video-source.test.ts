/**
 * A video's stored source for a player (the dashboard's chapter list seeks it): GET
 * …/source-url hands out a signed link valid one hour, for the video's own workspace only; the link
 * serves the file without credentials, with Range support, and only as a type a player reads.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { BASE, call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { signSourceUrl } from "../../src/worker/services/signing";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;
const pathOf = (link: string) => {
	const u = new URL(link);
	return u.pathname + u.search;
};

async function processedVideo() {
	const { apiKey } = await createWorkspace({ minutes: 100 });
	const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 60 }), {
		skipClipping: true,
	});
	const sourceKey = `sources/${videoId}/source.mp4`;
	return { apiKey, videoId, sourceKey };
}

describe("a video's source for a player", () => {
	it("is a signed link, valid one hour, that serves the file without credentials and lets a player seek", async () => {
		const { apiKey, videoId, sourceKey } = await processedVideo();
		const answer = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
		expect(answer.status).toBe(200);
		expect(answer.body.url.startsWith(`${BASE}/api/videos/${videoId}/source?token=`)).toBe(true);
		const ttl = Date.parse(answer.body.expiresAt) - Date.now();
		expect(ttl).toBeGreaterThan(3590_000);
		expect(ttl).toBeLessThanOrEqual(3600_000);

		const whole = await call("GET", pathOf(answer.body.url), { key: null });
		expect(whole.status).toBe(200);
		expect(whole.response.headers.get("accept-ranges")).toBe("bytes");
		expect(whole.response.headers.get("content-type")).toBe("video/mp4");
		expect(whole.response.headers.get("x-content-type-options")).toBe("nosniff");
		const size = (await env.MEDIA.head(sourceKey))!.size;
		expect(Number(whole.response.headers.get("content-length"))).toBe(size);
		const part = await call("GET", pathOf(answer.body.url), { key: null, headers: { range: "bytes=2-5" } });
		expect(part.status).toBe(206);
		expect(part.response.headers.get("content-range")).toBe(`bytes 2-5/${size}`);
	});

	it("is 404 for another workspace's video, and its link opens no other video", async () => {
		const mine = await processedVideo();
		const theirs = await processedVideo();
		const refused = await call("GET", `/api/videos/${theirs.videoId}/source-url`, { key: mine.apiKey });
		expect(refused.status).toBe(404);
		expect(refused.body.error.code).toBe("not_found");
		expect(JSON.stringify(refused.body)).not.toContain("source?token");
		// My link's token on their video's path.
		const { url: link } = (await call("GET", `/api/videos/${mine.videoId}/source-url`, { key: mine.apiKey })).body;
		const swapped = await call("GET", pathOf(link.replace(mine.videoId, theirs.videoId)), { key: null });
		expect(swapped.status).toBe(403);
		expect(swapped.body.error.code).toBe("forbidden");
	});

	it("refuses a tampered, missing or expired token (403 forbidden, url_expired)", async () => {
		const { apiKey, videoId, sourceKey } = await processedVideo();
		const { url: link } = (await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey })).body;
		const flipped = link.slice(0, -3) + (link.at(-3) === "A" ? "B" : "A") + link.slice(-2);
		expect((await call("GET", pathOf(flipped), { key: null })).body.error.code).toBe("forbidden");
		expect((await call("GET", `/api/videos/${videoId}/source`, { key: null })).status).toBe(403);
		const old = await signSourceUrl(env, BASE, videoId, sourceKey, Date.now() - 2 * 3600_000);
		const expired = await call("GET", pathOf(old.url), { key: null });
		expect(expired.status).toBe(403);
		expect(expired.body.error.code).toBe("url_expired");
	});

	it("never serves a stored file as a type a browser would render as a page", async () => {
		const { apiKey, videoId, sourceKey } = await processedVideo();
		// An upload keeps the type its uploader declared; this one is allowed in as video/*, but is XML to a browser.
		await env.MEDIA.put(sourceKey, "<svg xmlns='http://www.w3.org/2000/svg'/>", {
			httpMetadata: { contentType: "video/svg+xml" },
		});
		const { url: link } = (await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey })).body;
		const served = await call("GET", pathOf(link), { key: null });
		expect(served.status).toBe(200);
		expect(served.response.headers.get("content-type")).toBe("application/octet-stream");
		expect(served.response.headers.get("x-content-type-options")).toBe("nosniff");
	});

	it("is 409 before the source is stored, 410 source_deleted once it is gone", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const submitted = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: fake().addSource(url("waiting"), { duration: 60 }) },
		});
		const early = await call("GET", `/api/videos/${submitted.body.video.id}/source-url`, { key: apiKey });
		expect(early.status).toBe(409);
		expect(early.body.error).toMatchObject({ code: "conflict", details: { status: "pending_config" } });

		const gone = await processedVideo();
		await env.MEDIA.delete(gone.sourceKey);
		const deleted = await call("GET", `/api/videos/${gone.videoId}/source-url`, { key: gone.apiKey });
		expect(deleted.status).toBe(410);
		expect(deleted.body.error.code).toBe("source_deleted");
	});
});
