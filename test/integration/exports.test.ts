/**
 * Exports as a user opens them: a clip's captions as SRT and WebVTT (exact timing formats, times
 * from the clip's start), the clip set as FCPXML and Premiere XML (parsed here; each clip's in/out
 * points on the source checked in frames), and a ZIP of the rendered clips (unpacked here with
 * another implementation, every CRC and byte checked against the clips' own downloads).
 */
import { gzipSync, unzipSync } from "fflate";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { fakeVideoFile, useFakeRenderTier } from "../helpers/fake-render-tier";
import { env, exports } from "cloudflare:workers";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;
const path = (signed: string) => new URL(signed).pathname + new URL(signed).search;

async function processed(config: Record<string, unknown> = {}) {
	const { apiKey } = await createWorkspace({ minutes: 100 });
	const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk"), { duration: 240 }), {
		clipDurationMin: 15,
		clipDurationMax: 30,
		...config,
	});
	const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as Array<
		Record<string, any>
	>;
	expect(clips.length).toBeGreaterThan(1);
	return { apiKey, videoId, clips };
}

const SRT_TIME = /^(\d{2}):(\d{2}):(\d{2}),(\d{3})$/;
const VTT_TIME = /^(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/;
const seconds = (m: RegExpMatchArray) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
const stamp = (t: number, sep: string) => {
	const ms = Math.round(t * 1000);
	const p = (n: number, w = 2) => String(n).padStart(w, "0");
	return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}${sep}${p(ms % 1000, 3)}`;
};

describe("a clip's captions", () => {
	it("SRT: numbered cues, HH:MM:SS,mmm --> HH:MM:SS,mmm, times from the clip's start, every word once", async () => {
		const { apiKey, clips } = await processed();
		const clip = (await call("GET", `/api/clips/${clips[0]!.id}`, { key: apiKey })).body;
		const { status, body, response } = await call("GET", `/api/clips/${clip.id}/captions?format=srt`, {
			key: apiKey,
		});
		expect(status).toBe(200);
		expect(response.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
		expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${clip.id}.srt"`);
		const blocks = (body as string).trimEnd().split("\n\n");
		let last = 0;
		blocks.forEach((block, i) => {
			const [n, times, ...text] = block.split("\n");
			expect(n).toBe(String(i + 1));
			const [from, arrow, to] = times!.split(" ");
			expect(arrow).toBe("-->");
			const start = seconds(from!.match(SRT_TIME)!);
			const end = seconds(to!.match(SRT_TIME)!);
			expect(start).toBeGreaterThanOrEqual(last);
			expect(end).toBeGreaterThan(start);
			expect(end).toBeLessThanOrEqual(clip.duration + 0.001);
			expect(text.length).toBeGreaterThan(0);
			last = end;
		});
		expect(blocks[0]!.split("\n")[1]).toBe(
			`${stamp(clip.words[0].start, ",")} --> ${blocks[0]!.split("\n")[1]!.split(" ")[2]}`,
		);
		const spoken = blocks.flatMap((b) => b.split("\n").slice(2).join(" ").split(" "));
		expect(spoken).toEqual(clip.words.map((w: { word: string }) => w.word.trim()));
	});

	it("WebVTT: the header, then cues with HH:MM:SS.mmm; the default format is SRT", async () => {
		const { apiKey, clips } = await processed();
		const { body, response } = await call("GET", `/api/clips/${clips[1]!.id}/captions?format=vtt`, { key: apiKey });
		expect(response.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
		const text = body as string;
		expect(text.startsWith("WEBVTT\n\n")).toBe(true);
		const cues = text.slice("WEBVTT\n\n".length).trimEnd().split("\n\n");
		expect(cues.length).toBeGreaterThan(0);
		for (const cue of cues) {
			const [times, ...lines] = cue.split("\n");
			const [from, arrow, to] = times!.split(" ");
			expect(arrow).toBe("-->");
			expect(seconds(to!.match(VTT_TIME)!)).toBeGreaterThan(seconds(from!.match(VTT_TIME)!));
			expect(lines.join(" ")).not.toContain("-->");
		}
		const srt = await call("GET", `/api/clips/${clips[1]!.id}/captions`, { key: apiKey });
		expect(srt.response.headers.get("content-type")).toContain("application/x-subrip");
		expect((await call("GET", `/api/clips/${clips[1]!.id}/captions?format=ass`, { key: apiKey })).status).toBe(400);
		// Without the stored transcript there are no captions to make.
		await env.MEDIA.delete(`transcripts/${clips[1]!.videoId}.json`);
		const gone = await call("GET", `/api/clips/${clips[1]!.id}/captions`, { key: apiKey });
		expect(gone.status).toBe(410);
		expect(gone.body.error.code).toBe("source_deleted");
	});
});

describe("the clip set as an editor timeline", () => {
	it("FCPXML 1.9: one asset on the source, each clip its in/out in frames, one after another", async () => {
		const { apiKey, videoId, clips } = await processed();
		const media = "file:///Users/me/Movies/talk & friends.mp4";
		const { status, body, response } = await call(
			"GET",
			`/api/videos/${videoId}/export?format=fcpxml&mediaUrl=${encodeURIComponent(media)}`,
			{ key: apiKey },
		);
		expect(status).toBe(200);
		expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
		expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${videoId}-clips.fcpxml"`);
		expect(XMLValidator.validate(body)).toBe(true);
		const doc = new XMLParser({
			ignoreAttributes: false,
			attributeNamePrefix: "",
			isArray: (name) => name === "asset-clip",
		}).parse(body);
		expect(doc.fcpxml.version).toBe("1.9");
		const { format, asset } = doc.fcpxml.resources;
		expect(format).toMatchObject({ id: "r1", frameDuration: "1/30s" });
		expect(asset).toMatchObject({
			id: "r2",
			format: "r1",
			duration: `${240 * 30}/30s`,
			"media-rep": { src: media, kind: "original-media" },
		});
		const sequence = doc.fcpxml.library.event.project.sequence;
		const items = sequence.spine["asset-clip"] as Array<Record<string, string>>;
		expect(items).toHaveLength(clips.length);
		const frames = (t: string) => (t === "0s" ? 0 : Number(t.match(/^(\d+)\/30s$/)![1]));
		let offset = 0;
		items.forEach((item, i) => {
			const clip = clips[i]!;
			expect(item).toMatchObject({ ref: "r2", name: clip.title });
			expect(frames(item.start!)).toBe(Math.round(clip.startTime * 30));
			expect(frames(item.duration!)).toBe(Math.round(clip.endTime * 30) - Math.round(clip.startTime * 30));
			expect(frames(item.offset!)).toBe(offset);
			offset += frames(item.duration!);
		});
		expect(frames(sequence.duration)).toBe(offset);
	});

	it("Premiere XML (xmeml 4): a video and an audio track, each clipitem's in/out on the source and its place on the timeline", async () => {
		const { apiKey, videoId, clips } = await processed();
		await call("PATCH", `/api/clips/${clips[1]!.id}`, { key: apiKey, body: { favorited: true } });
		const { status, body } = await call("GET", `/api/videos/${videoId}/export?format=premiere`, { key: apiKey });
		expect(status).toBe(200);
		expect(XMLValidator.validate(body)).toBe(true);
		const doc = new XMLParser({
			ignoreAttributes: false,
			attributeNamePrefix: "",
			isArray: (name) => name === "clipitem",
		}).parse(body);
		expect(doc.xmeml.version).toBe("4");
		const { sequence } = doc.xmeml;
		expect(sequence.rate).toEqual({ timebase: 30, ntsc: "FALSE" });
		const video = sequence.media.video.track.clipitem as Array<Record<string, any>>;
		const audio = sequence.media.audio.track.clipitem as Array<Record<string, any>>;
		expect(video).toHaveLength(clips.length);
		expect(audio).toHaveLength(clips.length);
		// The source is defined once (with where it is: the submitted URL by default) and referred to after.
		expect(video[0]!.file).toMatchObject({
			id: "file-1",
			pathurl: clips.length && (await call("GET", `/api/videos/${videoId}`, { key: apiKey })).body.sourceUrl,
			duration: 240 * 30,
		});
		expect(video[1]!.file).toEqual({ id: "file-1" });
		let at = 0;
		clips.forEach((clip, i) => {
			const inFrame = Math.round(clip.startTime * 30);
			const outFrame = Math.round(clip.endTime * 30);
			for (const item of [video[i]!, audio[i]!]) {
				expect(item).toMatchObject({
					name: clip.title,
					in: inFrame,
					out: outFrame,
					start: at,
					end: at + outFrame - inFrame,
				});
			}
			at += outFrame - inFrame;
		});
		expect(sequence.duration).toBe(at);

		// The list's filters apply: only the favorite.
		const favorites = (
			await call("GET", `/api/videos/${videoId}/export?format=premiere&favorited=true`, { key: apiKey })
		).body;
		const only = new XMLParser({ isArray: (name) => name === "clipitem" }).parse(favorites).xmeml.sequence.media
			.video.track.clipitem;
		expect(only.map((c: { name: string }) => c.name)).toEqual([clips[1]!.title]);
		expect(
			(await call("GET", `/api/videos/${videoId}/export?format=fcpxml&minScore=101`, { key: apiKey })).status,
		).toBe(400);
		const none = await call("GET", `/api/videos/${videoId}/export?format=fcpxml&status=failed`, { key: apiKey });
		expect(none.status).toBe(409);
		expect((await call("GET", `/api/videos/${videoId}/export?format=edl`, { key: apiKey })).status).toBe(400);
	});

	it("a title with control characters (a member's edit) still gives well-formed FCPXML and Premiere XML, the characters left out", async () => {
		const { apiKey, videoId, clips } = await processed();
		const title = "Bell\u0007 and\u0001 escape\u001b[31m red\u000b";
		expect((await call("PATCH", `/api/clips/${clips[0]!.id}`, { key: apiKey, body: { title } })).status).toBe(200);
		for (const format of ["fcpxml", "premiere"]) {
			const xml = (await call("GET", `/api/videos/${videoId}/export?format=${format}`, { key: apiKey }))
				.body as string;
			expect(XMLValidator.validate(xml), format).toBe(true);
			expect(xml).toContain("Bell and escape[31m red");
			// eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot hold
			expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(xml)).toBe(false);
		}
	});
});

describe("an uploaded video's clips", () => {
	it("point the timeline at a file named after the upload, and can be edited from the stored file", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const file = fakeVideoFile({ duration: 180 }, 4096);
		const created = await call("POST", "/api/uploads", {
			key: apiKey,
			body: { fileName: "My talk.mp4", size: file.length, contentType: "video/mp4" },
		});
		expect(created.status, JSON.stringify(created.body)).toBe(201);
		const part = await exports.default.fetch(created.body.partUrlTemplate.replace("{partNumber}", "1"), {
			method: "PUT",
			body: file,
			headers: { "content-type": "application/octet-stream" },
		});
		expect(part.status).toBe(200);
		expect((await call("POST", `/api/uploads/${created.body.id}/complete`, { key: apiKey })).status).toBe(200);
		await using introspector = await introspectVideoRuns();
		const submitted = await call("POST", "/api/videos/upload", {
			key: apiKey,
			body: { uploadId: created.body.id, config: { clipDurationMin: 15, clipDurationMax: 30 } },
		});
		expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		const videoId = submitted.body.video.id as string;
		const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as Array<
			Record<string, any>
		>;
		expect(clips.length).toBeGreaterThan(0);

		const xml = (await call("GET", `/api/videos/${videoId}/export?format=fcpxml`, { key: apiKey })).body as string;
		const asset = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml).fcpxml.resources
			.asset;
		expect(asset["media-rep"].src).toBe("file:///My%20talk.mp4");

		const edit = await call("PATCH", `/api/clips/${clips[0]!.id}`, {
			key: apiKey,
			body: { endTime: clips[0]!.endTime - 2 },
		});
		expect(edit.status, JSON.stringify(edit.body)).toBe(202);
		for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		expect((await call("GET", `/api/clips/${clips[0]!.id}`, { key: apiKey })).body).toMatchObject({
			status: "completed",
			edits: 1,
			editError: null,
		});
	});
});

describe("a ZIP of the clips", () => {
	it("streams every rendered clip (stored, CRC-checked), a clips.json and the video's chapters.txt, with its exact length announced", async () => {
		const { apiKey, videoId, clips } = await processed();
		const response = await exports.default.fetch(`http://clipforge.test/api/videos/${videoId}/export?format=zip`, {
			headers: { authorization: `Bearer ${apiKey}` },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toBe("application/zip");
		expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${videoId}-clips.zip"`);
		const bytes = new Uint8Array(await response.arrayBuffer());
		expect(Number(response.headers.get("content-length"))).toBe(bytes.length);

		const files = unzipSync(bytes);
		const names = Object.keys(files);
		expect(names).toHaveLength(clips.length + 2);
		expect(names.slice(-2)).toEqual(["clips.json", "chapters.txt"]);
		// The long video's show notes, as GET …/chapters gives them.
		const chapters = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body;
		expect(new TextDecoder().decode(files["chapters.txt"])).toBe(`${chapters.description}\n`);
		expect(chapters.description).toMatch(/\n\n00:00 .+\n\d\d:\d\d .+\n\d\d:\d\d .+$/);
		const manifest = JSON.parse(new TextDecoder().decode(files["clips.json"]));
		expect(manifest.clips.map((c: { id: string }) => c.id)).toEqual(clips.map((c) => c.id));
		for (const [i, clip] of clips.entries()) {
			const name = manifest.clips[i].file as string;
			expect(name).toMatch(new RegExp(`^${String(i + 1).padStart(2, "0")}-[a-z0-9-]+\\.mp4$`));
			const download = await exports.default.fetch(`http://clipforge.test${path(clip.downloadUrl)}`);
			const expected = new Uint8Array(await download.arrayBuffer());
			expect(files[name]).toEqual(expected);
		}
		// Every CRC-32 in the central directory is the bytes' (gzip's trailer is an independent CRC-32).
		const view = new DataView(bytes.buffer);
		let at = bytes.length - 22;
		expect(view.getUint32(at, true)).toBe(0x06054b50);
		const entries = view.getUint16(at + 10, true);
		at = view.getUint32(at + 16, true);
		for (let n = 0; n < entries; n++) {
			expect(view.getUint32(at, true)).toBe(0x02014b50);
			expect(view.getUint16(at + 10, true)).toBe(0); // stored
			const crc = view.getUint32(at + 16, true);
			const nameLength = view.getUint16(at + 28, true);
			const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
			const gz = gzipSync(files[name]!, { level: 0 });
			expect(crc, name).toBe(
				new DataView(gz.buffer, gz.byteOffset, gz.byteLength).getUint32(gz.byteLength - 8, true),
			);
			at += 46 + nameLength;
		}
	});

	it("mark the whole video's chapters that start inside a clip: FCPXML chapter markers on the clip, xmeml sequence markers", async () => {
		const { apiKey, videoId } = await processed({
			clipType: "split-clips",
			clipDurationMin: 20,
			clipDurationMax: 60,
		});
		const { chapters } = (await call("GET", `/api/videos/${videoId}/chapters`, { key: apiKey })).body as {
			chapters: { start: number; title: string }[];
		};
		expect(chapters.length).toBeGreaterThanOrEqual(3);
		const get = async (format: string) =>
			(await call("GET", `/api/videos/${videoId}/export?format=${format}&sort=time`, { key: apiKey }))
				.body as string;
		const parse = (xml: string) =>
			new XMLParser({
				ignoreAttributes: false,
				attributeNamePrefix: "",
				isArray: (name) => ["asset-clip", "chapter-marker", "marker", "clipitem"].includes(name),
			}).parse(xml);
		const fcp = parse(await get("fcpxml")).fcpxml.library.event.project.sequence.spine["asset-clip"] as Array<{
			start: string;
			"chapter-marker"?: { start: string; value: string }[];
		}>;
		const marked = fcp.flatMap((clip) => clip["chapter-marker"] ?? []);
		// Split-clips covers the whole video: every chapter start lies in some part (the first at 0 in the first part).
		expect(marked.map((m) => m.value)).toEqual(chapters.map((c) => c.title));
		// Each at the chapter's start, or at the first frame of the part that starts just after it (padding).
		const frameOf = (t: string) => (t === "0s" ? 0 : Number(t.replace("/30s", "")));
		for (const [i, m] of marked.entries()) {
			const frame = Math.round(chapters[i]!.start * 30);
			expect(frameOf(m.start) - frame).toBeGreaterThanOrEqual(0);
			expect(frameOf(m.start) - frame).toBeLessThanOrEqual(30);
		}
		const xmeml = parse(await get("premiere")).xmeml.sequence;
		const items = xmeml.media.video.track.clipitem as { in: number; start: number; end: number; out: number }[];
		const markers = xmeml.marker as { name: string; in: number }[];
		expect(markers.map((m) => m.name)).toEqual(chapters.map((c) => c.title));
		for (const [i, m] of markers.entries()) {
			const frame = frameOf(marked[i]!.start);
			const item = items.find((it) => frame >= it.in && frame < it.out)!;
			expect(m.in).toBe(item.start + frame - item.in);
		}
	});

	it("is 409 before the video has clips, 404 for another workspace's video", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const submitted = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: fake().addSource(url("talk"), { duration: 120 }) },
		});
		expect(submitted.status).toBe(201);
		const videoId = submitted.body.video.id;
		const early = await call("GET", `/api/videos/${videoId}/export?format=zip`, { key: apiKey });
		expect(early.status).toBe(409);
		expect(early.body.error).toMatchObject({ code: "conflict", details: { status: "pending_config" } });
		const other = await createWorkspace();
		expect((await call("GET", `/api/videos/${videoId}/export?format=zip`, { key: other.apiKey })).status).toBe(404);
		expect((await call("GET", `/api/videos/${videoId}/export?format=zip`, { key: null })).status).toBe(401);
	});
});
