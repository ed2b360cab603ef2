/** How clips and templates read on a terminal. */
import type { Clip, ClipDetail } from "../node-client.ts";

/** 1:02.5 */
export const minutesSeconds = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;

/** `01-the-title`: a clip's file name without extension. */
export function fileStem(clip: Pick<Clip, "title">, n: number): string {
	const slug =
		clip.title
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, "-")
			.replace(/^-|-$/g, "")
			.slice(0, 40) || "clip";
	return `${String(n + 1).padStart(2, "0")}-${slug}`;
}

export function clipText(clip: ClipDetail, words = false): string {
	const times = `${minutesSeconds(clip.startTime)}-${minutesSeconds(clip.endTime)} (${clip.duration.toFixed(1)} s)`;
	const lines = [
		`${clip.id}  ${clip.status}${clip.favorited ? "  ★" : ""}  score ${clip.score}  ${times}  "${clip.title}"`,
		`     ${clip.viralityReason}`,
		`     video ${clip.videoId}, ${clip.edits} edit(s)${clip.captionStyle ? `, captions: ${clip.captionStyle}` : ""}`,
	];
	if (clip.editError) lines.push(`     last edit failed: ${clip.editError}`);
	lines.push(`     ${clip.downloadUrl}`);
	if (words)
		lines.push(
			clip.words
				.map((w) => `${String(w.index).padStart(4)}  ${w.start.toFixed(2).padStart(7)}  ${w.word.trim()}`)
				.join("\n"),
		);
	return lines.join("\n");
}

/** The clips, one block each; `note` (the video's rankingNote: why there are fewer, or none) first. */
export function clipsText(clips: Clip[], files: string[], note: string | null = null): string {
	if (clips.length === 0) return note ?? "No clips.";
	const list = clips
		.map((c, i) => {
			const lines = [
				`${String(c.score).padStart(3)}  ${minutesSeconds(c.startTime)}-${minutesSeconds(c.endTime)}  ${c.title}`,
				`     ${c.viralityReason}`,
			];
			if (files[i]) lines.push(`     ${files[i]}`);
			return lines.join("\n");
		})
		.join("\n");
	return note ? `${note}\n${list}` : list;
}
