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

/**
 * Where a video's words come from: `transcription` (speech recognition), `captions` the user
 * supplied with the submission, or the source's own `subtitles`.
 */
export const TRANSCRIPT_SOURCES = ["transcription", "captions", "subtitles"] as const;
export type TranscriptSource = (typeof TRANSCRIPT_SOURCES)[number];

/** The statuses of a video being processed, in order (a workflow moves it through them). */
export const PROCESSING_STAGES = [
	"downloading",
	"uploading",
	"transcribing",
	"analyzing",
	"generating_clips",
] as const satisfies readonly VideoStatus[];
export type ProcessingStage = (typeof PROCESSING_STAGES)[number];

/** Finished: nothing changes a video in one of these again. */
export const TERMINAL_STATUSES = ["completed", "failed"] as const satisfies readonly VideoStatus[];

/** Position in the seed's order; a status only ever moves forward in it. */
export const statusOrder = (status: VideoStatus): number => VIDEO_STATUSES.indexOf(status);

/**
 * A clip as stored: `queued` until rendered; `generating` is also a finished clip being rendered
 * again after an edit (PATCH /api/clips/:id), its previous file served meanwhile.
 */
export const CLIP_STATUSES = ["queued", "generating", "completed", "failed"] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];

/** A clip's status as the API shows it: the stored one, with `queued` called `detected`. */
export const CLIP_API_STATUSES = ["detected", "generating", "completed", "failed"] as const;
export type ClipApiStatus = (typeof CLIP_API_STATUSES)[number];
export const CLIP_STORED_STATUS: Record<ClipApiStatus, ClipStatus> = {
	detected: "queued",
	generating: "generating",
	completed: "completed",
	failed: "failed",
};
export const clipApiStatusOf = (status: ClipStatus): ClipApiStatus => (status === "queued" ? "detected" : status);

/** A reprocess (POST /api/videos/:id/reprocess): at most one of a video is `processing`. */
export const REPROCESS_STATUSES = ["processing", "completed", "failed"] as const;
export type ReprocessStatus = (typeof REPROCESS_STATUSES)[number];

/** An upload only moves forward: `uploading` → `completed` (every part stored) → `used` (made into a video). */
export const UPLOAD_STATUSES = ["uploading", "completed", "used", "deleting"] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];
/** Statuses that hold storage and count against a workspace's uploads in flight. */
export const OPEN_UPLOAD_STATUSES = ["uploading", "completed"] as const satisfies readonly UploadStatus[];

/** A member of a workspace: owners and admins manage it (API keys, webhook, brand kit); a member uses it. */
export const MEMBERSHIP_ROLES = ["owner", "admin", "member"] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];
/**
 * Roles that manage a workspace: mint and revoke its API keys, set its webhook and rotate its secret,
 * set the watermark, write caption templates, delete backgrounds (the matrix: SECURITY.md, Roles).
 */
export const MANAGER_ROLES = ["owner", "admin"] as const satisfies readonly MembershipRole[];

/** What a row of the minutes ledger records. */
export const LEDGER_KINDS = ["grant", "charge", "refund"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
