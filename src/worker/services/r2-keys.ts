/** Every R2 key the service writes, in one place. Fixed keys make workflow steps idempotent. */
export const r2Keys = {
	source: (videoId: string) => `sources/${videoId}/source.mp4`,
	/** An upload's time frame copied out of it (the upload itself, at `source`, is then deleted). */
	framedSource: (videoId: string) => `sources/${videoId}/frame.mp4`,
	audioChunk: (videoId: string, index: number) => `audio/${videoId}/chunk-${index}.mp3`,
	transcriptChunk: (videoId: string, index: number) => `transcripts/${videoId}/chunk-${index}.json`,
	transcript: (videoId: string) => `transcripts/${videoId}.json`,
	/** Captions supplied with the submission, read into cues (services/supplied-captions.ts). */
	suppliedCaptions: (videoId: string) => `transcripts/${videoId}/supplied-captions.json`,
	/** The source's own subtitle track, as the tier stored it (WebVTT). */
	sourceSubtitles: (videoId: string) => `transcripts/${videoId}/source-subtitles.vtt`,
	signals: (videoId: string) => `signals/${videoId}.json`,
	/** The whole video's chapters and summary (@clipforge/domain chapters.ts `VideoChapters`). */
	chapters: (videoId: string) => `chapters/${videoId}.json`,
	clipVideo: (videoId: string, clipId: string) => `clips/${videoId}/${clipId}.mp4`,
	clipThumbnail: (videoId: string, clipId: string) => `clips/${videoId}/${clipId}.jpg`,
	/** An edited clip's files: one pair per edit, so the previous version stays served until the new one is complete. */
	clipEditVideo: (videoId: string, clipId: string, edit: number) => `clips/${videoId}/${clipId}.e${edit}.mp4`,
	clipEditThumbnail: (videoId: string, clipId: string, edit: number) => `clips/${videoId}/${clipId}.e${edit}.jpg`,
	/** The workspace's mark image as it was when the video rendered (kept and deleted with its clips). */
	clipWatermark: (videoId: string) => `clips/${videoId}/watermark.png`,
	/** Drawn by the render tier on first use, then shared by every workspace. */
	builtinBackground: (backgroundId: string) => `backgrounds/builtin/${backgroundId}.mp4`,
	workspaceBackground: (workspaceId: string, backgroundId: string) =>
		`backgrounds/${workspaceId}/${backgroundId}.mp4`,
	watermarkImage: (workspaceId: string, markId: string) => `watermarks/${workspaceId}/${markId}.png`,
	/** A caption look's preview PNG, named by the hash of the look (so each look is drawn once, for everyone). */
	captionPreview: (lookHash: string) => `caption-previews/${lookHash}.png`,
	/** Prefixes holding a video's objects (for cleanup). */
	videoPrefixes: (videoId: string) => [
		`sources/${videoId}/`,
		`audio/${videoId}/`,
		`transcripts/${videoId}/`,
		`transcripts/${videoId}.json`,
		`signals/${videoId}.json`,
		`chapters/${videoId}.json`,
		`clips/${videoId}/`,
	],
};
