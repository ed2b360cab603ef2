/** A video's life: the seed's statuses in their order, and the processing stages among them. */
export const VIDEO_STATUSES = [
	"pending_config",
	"downloading",
	"uploading",
	"transcribing",
	"analyzing",
	"generating_clips",
	"completed",
	"failed",
] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/** The statuses of a video being processed, in order (a workflow moves it through them). */
export const PROCESSING_STAGES = ["downloading", "uploading", "transcribing", "analyzing", "generating_clips"] as const satisfies readonly VideoStatus[];
export type ProcessingStage = (typeof PROCESSING_STAGES)[number];

/** Finished: nothing changes a video in one of these again. */
export const TERMINAL_STATUSES = ["completed", "failed"] as const satisfies readonly VideoStatus[];

/** Position in the seed's order; a status only ever moves forward in it. */
export const statusOrder = (status: VideoStatus): number => VIDEO_STATUSES.indexOf(status);
