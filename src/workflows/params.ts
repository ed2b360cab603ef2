/** What one ProcessVideoWorkflow instance runs, said explicitly: a video's first run, a reprocess of it, or a clip edit. */

export interface ClipEditParams {
	clipId: string;
	/** The clip's edit number (its `edits` when the edit started). */
	number: number;
}

export type ProcessVideoParams =
	/** Instance id = the video's id. */
	| { kind: "process"; videoId: string }
	/** POST /api/videos/:id/reprocess: its id, which is also the instance's (`<videoId>-r<n>`). */
	| { kind: "reprocess"; videoId: string; reprocessId: string }
	/** PATCH /api/clips/:id: the clip and its edit number; the instance is `<clipId>-e<number>`. */
	| { kind: "clipEdit"; videoId: string; clipEdit: ClipEditParams }
	/** The operator's smoke check (services/smoke/checks.ts): one step, nothing touched; `videoId` is `smoke-<runId>`. */
	| { kind: "smoke"; videoId: string };

/** Instances started before `kind` existed carry only their ids: what they run follows from which ids. */
type StoredParams =
	| ProcessVideoParams
	| { kind?: undefined; videoId: string; reprocessId?: string; clipEdit?: ClipEditParams; smoke?: boolean };

export function paramsOf(stored: StoredParams): ProcessVideoParams {
	if (stored.kind) return stored;
	if (stored.smoke) return { kind: "smoke", videoId: stored.videoId };
	if (stored.reprocessId) return { kind: "reprocess", videoId: stored.videoId, reprocessId: stored.reprocessId };
	if (stored.clipEdit) return { kind: "clipEdit", videoId: stored.videoId, clipEdit: stored.clipEdit };
	return { kind: "process", videoId: stored.videoId };
}
