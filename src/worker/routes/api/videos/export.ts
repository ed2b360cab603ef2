/**
 * GET /api/videos/{id}/export?format=fcpxml|premiere|zip: the video's clips (the list's filters
 * apply) as an editor timeline on the source, or as one ZIP of the rendered MP4s, streamed.
 */
import { EXPORT_FORMATS } from "@clipforge/domain";
import { createRoute, z } from "@hono/zod-openapi";
import { listClips } from "../../../db/clips";
import { getDb } from "../../../db/client";
import type { ClipRow } from "../../../db/clips";
import type { VideoRow } from "../../../db/videos";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { readChapters, type ChaptersView } from "../../../services/chapters/stored-chapters";
import { toFcpxml, toXmeml, type Timeline } from "../../../services/exports/timeline";
import { ZIP_MAX_BYTES, zipLength, zipStream, type ZipEntry } from "../../../services/exports/zip";
import { BEARER_OR_SESSION, errorResponses } from "../../openapi";
import { ClipFilterQuery, clipFilterOf } from "./clips";
import { VideoId } from "./schemas";
import { clipBasics, requireVideo } from "./views";

const MAX_CLIPS = 500;

const exportRoute = createRoute({
	method: "get",
	path: "/videos/{id}/export",
	tags: ["clips"],
	summary:
		"The clips as an editor timeline (FCPXML for Final Cut Pro / DaVinci Resolve, Premiere XML) or a ZIP of the MP4s",
	description:
		"`fcpxml` (FCPXML 1.9) and `premiere` (Final Cut 7 XML, xmeml 4) put the clips one after another on a 30 fps 1080p timeline, each an in/out range of the source: " +
		"the editor relinks the source (`mediaUrl` says where your copy is, e.g. `file:///Users/me/talk.mp4`; by default the URL it was submitted from, or `file:///<title>` for an uploaded file). " +
		"`zip` streams the rendered MP4s (stored, not compressed) with a `clips.json` of their details and a `chapters.txt` of the whole video's show notes (its summary and chapter lines). Timelines mark the whole video's chapters that start inside a clip. The list's filters and order apply (e.g. `favorited=true`). 409 until the video has clips.",
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: VideoId }),
		query: ClipFilterQuery.extend({
			format: z.enum(EXPORT_FORMATS),
			mediaUrl: z
				.string()
				.min(1)
				.max(2048)
				.optional()
				.openapi({ description: "Where the editor finds the source (timelines only)." }),
		}),
	},
	responses: {
		200: {
			content: {
				"application/xml": { schema: z.string() },
				"application/zip": { schema: z.string().openapi({ format: "binary" }) },
			},
			description: "The timeline or the archive (as a download).",
		},
		...errorResponses(400, 401, 404, 409),
	},
});

/** File names safe on every system: `01-the-title.mp4`. */
export function fileNameOf(clip: Pick<ClipRow, "title">, n: number, ext: string): string {
	const slug =
		clip.title
			.normalize("NFKD")
			.replace(/[^\w\s-]/g, "")
			.trim()
			.toLowerCase()
			.replace(/[\s_-]+/g, "-")
			.slice(0, 60) || "clip";
	return `${String(n + 1).padStart(2, "0")}-${slug}.${ext}`;
}

export const registerExport = (api: Api) =>
	api.openapi(exportRoute, async (c) => {
		const { id } = c.req.valid("param");
		const query = c.req.valid("query");
		const db = getDb(c.env);
		const video = await requireVideo(db, id, c.get("principal").workspaceIds);
		const listed = video.status === "completed" || video.status === "failed";
		const rows = listed ? await listClips(db, id, clipFilterOf(query), { limit: MAX_CLIPS, offset: 0 }) : [];
		if (rows.length === 0) {
			throw new ApiError(
				"conflict",
				listed
					? "No clips match these filters."
					: `The video is ${video.status}; its clips can be exported once it has completed.`,
				{ status: video.status },
			);
		}
		const base = `${video.id}-clips`;
		const chapters = await readChapters(c.env.MEDIA, video);
		if (query.format === "zip") return zipResponse(c.env.MEDIA, video, rows, `${base}.zip`, chapters);
		const timeline: Timeline = {
			name: video.title || video.id,
			videoId: video.id,
			mediaUrl: query.mediaUrl ?? defaultMediaUrl(video),
			sourceDuration: video.duration,
			clips: rows.map((r) => ({ id: r.id, title: r.title, start: r.startTime, end: r.endTime, score: r.score })),
			chapters: chapters?.chapters ?? [],
		};
		const [body, name] =
			query.format === "fcpxml" ? [toFcpxml(timeline), `${base}.fcpxml`] : [toXmeml(timeline), `${base}.xml`];
		return c.body(body, 200, {
			"content-type": "application/xml; charset=utf-8",
			"content-disposition": `attachment; filename="${name}"`,
		});
	});

/** The submitted URL; for an uploaded file (`upload://…`, nothing an editor opens) a file URL of its name, to relink. */
function defaultMediaUrl(video: VideoRow): string {
	if (!video.sourceUrl.startsWith("upload://")) return video.sourceUrl;
	const name = (video.title || video.id).replace(/[/\\]/g, "_");
	return `file:///${encodeURIComponent(/\.\w{2,4}$/.test(name) ? name : `${name}.mp4`)}`;
}

async function zipResponse(
	bucket: R2Bucket,
	video: VideoRow,
	rows: ClipRow[],
	name: string,
	chapters: ChaptersView | null,
): Promise<Response> {
	const { entries, details } = await clipEntries(bucket, rows);
	const manifest = { videoId: video.id, title: video.title, sourceUrl: video.sourceUrl, clips: details };
	entries.push(textEntry("clips.json", `${JSON.stringify(manifest, null, 2)}\n`));
	// The long video's show notes, ready to paste: its summary and chapter lines.
	if (chapters) entries.push(textEntry("chapters.txt", `${chapters.description}\n`));
	const length = zipLength(entries);
	if (length > ZIP_MAX_BYTES)
		throw new ApiError(
			"conflict",
			"These clips are too large for one ZIP (4 GiB); filter them (e.g. favorited=true) or download them one by one.",
		);
	const fixed = new FixedLengthStream(length);
	void zipStream(entries)
		.pipeTo(fixed.writable)
		.catch(() => undefined);
	return new Response(fixed.readable, {
		status: 200,
		headers: {
			"content-type": "application/zip",
			"content-length": String(length),
			"content-disposition": `attachment; filename="${name}"`,
			"cache-control": "no-store",
		},
	});
}

/** Each rendered clip's file (streamed from R2 when the ZIP is written) and its line in clips.json. */
async function clipEntries(bucket: R2Bucket, rows: ClipRow[]): Promise<{ entries: ZipEntry[]; details: unknown[] }> {
	const heads = await Promise.all(rows.map((r) => (r.videoKey ? bucket.head(r.videoKey) : Promise.resolve(null))));
	const entries: ZipEntry[] = [];
	const details: unknown[] = [];
	rows.forEach((row, n) => {
		const head = heads[n];
		const key = row.videoKey;
		if (!head || !key) return;
		const file = fileNameOf(row, n, "mp4");
		entries.push({
			name: file,
			size: head.size,
			modified: new Date(row.updatedAt ?? row.createdAt),
			open: async () => {
				const object = await bucket.get(key);
				if (!object) throw new Error(`${key} disappeared`);
				return object.body;
			},
		});
		const { favorited, description, transcript } = row;
		details.push({ file, ...clipBasics(row), favorited, description, transcript });
	});
	return { entries, details };
}

function textEntry(name: string, text: string): ZipEntry {
	const bytes = new TextEncoder().encode(text);
	return { name, size: bytes.byteLength, modified: new Date(), open: async () => new Blob([bytes]).stream() };
}
