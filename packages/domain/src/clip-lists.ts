/** How a video's clips are listed and exported: the orders and the file formats the API and the CLI offer. */
export const CLIP_SORT_FIELDS = ["score", "duration", "startTime", "createdAt"] as const;
export type ClipSortField = (typeof CLIP_SORT_FIELDS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;

/** A clip's captions (GET /api/clips/:id/captions). */
export const CAPTION_FORMATS = ["srt", "vtt"] as const;
export type CaptionFormat = (typeof CAPTION_FORMATS)[number];

/** A video's clips as one file (GET /api/videos/:id/export): an editor timeline, or a ZIP of the MP4s. */
export const EXPORT_FORMATS = ["fcpxml", "premiere", "zip"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
