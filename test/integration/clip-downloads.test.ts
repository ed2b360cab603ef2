import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { BASE, call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { signClipUrl, signInternalObjectUrl } from "../../src/worker/services/signing";

const fake = useFakeRenderTier({ introspect: false });

const pathOf = (url: string) => {
	const u = new URL(url);
	return u.pathname + u.search;
};

async function completedClip() {
	const { apiKey } = await createWorkspace();
	const hostedUrl = fake().addSource(`https://videos.example.com/d/${crypto.randomUUID()}`, { duration: 60 });
	const videoId = await submitAndProcess(apiKey, hostedUrl, { clipDurationMin: 10, clipDurationMax: 25 });
	const clips = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
	return { apiKey, videoId, clip: clips.body.clips[0] };
}

describe("signed clip URLs", () => {
	it("serve the file and thumbnail without credentials, with Range support", async () => {
		const { clip } = await completedClip();
		expect(clip.downloadUrl.startsWith(`${BASE}/api/clips/${clip.id}/download?token=`)).toBe(true);
		const full = await call("GET", pathOf(clip.downloadUrl));
		expect(full.status).toBe(200);
		expect(full.response.headers.get("accept-ranges")).toBe("bytes");
		const size = Number(full.response.headers.get("content-length"));
		const part = await call("GET", pathOf(clip.downloadUrl), { headers: { range: "bytes=0-9" } });
		expect(part.status).toBe(206);
		expect(part.response.headers.get("content-range")).toBe(`bytes 0-9/${size}`);
		expect(part.response.headers.get("content-length")).toBe("10");
		const thumb = await call("GET", pathOf(clip.thumbnailUrl));
		expect(thumb.status).toBe(200);
		expect(thumb.response.headers.get("content-type")).toBe("image/jpeg");
	});

	it("each listing issues fresh URLs valid for one hour", async () => {
		const { apiKey, videoId, clip } = await completedClip();
		const exp = Number(new URL(clip.downloadUrl).searchParams.get("token")!.split(".")[0]);
		expect(exp * 1000 - Date.now()).toBeGreaterThan(3590_000);
		expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(3600_000);
		const again = await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey });
		expect(again.body.clips[0].downloadUrl).toBeTruthy();
	});

	it("a tampered token → 403 forbidden; an expired one → 403 url_expired", async () => {
		const { clip } = await completedClip();
		const flip = (url: string, index: number) =>
			url.slice(0, index) + (url[index] === "A" ? "B" : "A") + url.slice(index + 1);
		// A character in the middle of the signature, and the last one (whose spare bits must not be ignored).
		for (const tampered of [
			flip(clip.downloadUrl, clip.downloadUrl.length - 10),
			flip(clip.downloadUrl, clip.downloadUrl.length - 1),
		]) {
			const bad = await call("GET", pathOf(tampered));
			expect(bad.status).toBe(403);
			expect(bad.body.error.code).toBe("forbidden");
		}
		// A thumbnail token does not open the video, and no token opens nothing.
		const swapped = await call("GET", pathOf(clip.thumbnailUrl.replace("/thumbnail?", "/download?")));
		expect(swapped.status).toBe(403);
		expect((await call("GET", `/api/clips/${clip.id}/download`)).status).toBe(403);

		const key = (await env.DB.prepare("SELECT video_key AS k FROM clips WHERE id = ?")
			.bind(clip.id)
			.first<string>("k"))!;
		const old = await signClipUrl(env, BASE, clip.id, "download", key, Date.now() - 2 * 3600_000);
		const expired = await call("GET", pathOf(old));
		expect(expired.status).toBe(403);
		expect(expired.body.error.code).toBe("url_expired");
	});
});

describe("internal object URLs", () => {
	it("refuse a wrong method, a tampered signature and a key the signature was not made for", async () => {
		const getUrl = await signInternalObjectUrl(env, "sources/x/source.mp4", "GET");
		const put = await call("PUT", pathOf(getUrl).replace("method=GET", "method=PUT"), { rawBody: "x" });
		expect(put.status).toBe(403);
		const other = await call("GET", pathOf(getUrl).replace("sources/x/", "sources/y/"));
		expect(other.status).toBe(403);
		// A shared cache key: a video's keys are accepted only while its rows expect them (test/workflows/orphans.test.ts).
		const putUrl = await signInternalObjectUrl(env, "caption-previews/t.png", "PUT");
		const ok = await call("PUT", pathOf(putUrl), { rawBody: "hello", headers: { "content-type": "image/png" } });
		expect(ok.status).toBe(201);
		expect(await (await env.MEDIA.get("caption-previews/t.png"))!.text()).toBe("hello");
	});
});
