/** What leaves the API as files: a clip's captions, a video's clips as a timeline or a ZIP. */
import type { CaptionFormat, ClipFilters, ExportFormat } from "../client-types.ts";
import { body, filterQuery, pathId, type CallContext } from "./context.ts";

export function exportCalls({ api }: CallContext) {
	return {
		/** GET /api/clips/:id/captions: the clip's captions as SRT or WebVTT text. */
		clipCaptions(clipId: string, format: CaptionFormat = "srt"): Promise<string> {
			return body(
				api.GET("/api/clips/{id}/captions", {
					params: { ...pathId(clipId), query: { format } },
					parseAs: "text",
				}),
			) as Promise<string>;
		},
		/**
		 * GET /api/videos/:id/export: the clips as an FCPXML or Premiere XML timeline on the source
		 * (`mediaUrl`: where your copy of the source is), or a ZIP of the MP4s, as a stream.
		 */
		exportClips(
			videoId: string,
			format: ExportFormat,
			query: ClipFilters & { mediaUrl?: string } = {},
			signal?: AbortSignal,
		): Promise<ReadableStream<Uint8Array>> {
			const params = { ...pathId(videoId), query: { ...filterQuery(query), format } };
			return body(api.GET("/api/videos/{id}/export", { params, parseAs: "stream", signal })) as Promise<
				ReadableStream<Uint8Array>
			>;
		},
	};
}
