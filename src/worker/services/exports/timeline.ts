/**
 * A clip set as an editor's timeline: the clips one after another on one track, each pointing at
 * the source with its in and out points, so an editor opens the cuts on the original footage and
 * refines them. FCPXML 1.9 (Final Cut Pro, DaVinci Resolve) and Final Cut 7 XML, "xmeml" version 4
 * (Premiere Pro, also Resolve). Times are whole frames of a 30 fps, 1920×1080 timeline (the source's
 * own rate and size are not probed); editors conform the source when it is relinked. The whole
 * video's chapters that start inside a clip are markers there (FCPXML chapter markers on the clip,
 * xmeml sequence markers).
 */

export interface TimelineClip {
	id: string;
	title: string;
	/** Seconds in the source. */
	start: number;
	end: number;
	score: number;
}

export interface Timeline {
	name: string;
	videoId: string;
	/** Where the editor finds the source: the user's copy (file:///…) or its URL. */
	mediaUrl: string;
	sourceDuration: number;
	clips: readonly TimelineClip[];
	/** The whole video's chapters (source seconds): each start inside a clip becomes a marker there. */
	chapters?: readonly { start: number; title: string }[];
}

export const TIMELINE_FPS = 30;
const WIDTH = 1920;
const HEIGHT = 1080;

/** Seconds → whole frames of the timeline. */
export const frames = (seconds: number) => Math.round(seconds * TIMELINE_FPS);

/** Each clip's in/out in source frames and its place on the timeline. */
export function cutList(timeline: Timeline): { clip: TimelineClip; in: number; out: number; offset: number }[] {
	let offset = 0;
	return timeline.clips.map((clip) => {
		const cut = { clip, in: frames(clip.start), out: frames(clip.end), offset };
		offset += cut.out - cut.in;
		return cut;
	});
}

/**
 * Text as XML 1.0 character data or an attribute value: the five markup characters as entities,
 * and the characters XML 1.0 cannot hold at all (C0 controls but tab, newline and return; U+FFFE,
 * U+FFFF; lone surrogates), which a title may carry, left out, so the file stays well-formed.
 */
export function escapeXml(text: string): string {
	return text
		.replace(NOT_XML_CHARACTERS, "")
		.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!);
}

const NOT_XML_CHARACTERS =
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
	/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const time = (f: number) => (f === 0 ? "0s" : `${f}/${TIMELINE_FPS}s`);

/**
 * The chapters each cut marks, at their source frame: the cut a chapter starts inside, or the cut
 * that starts within a second after it (a chapter starts in the pause before its first words,
 * which a clip's padding may leave out), marked at the cut's first frame then.
 */
function chapterMarks(timeline: Timeline, cuts: { in: number; out: number }[]): { frame: number; title: string }[][] {
	const marks = cuts.map(() => [] as { frame: number; title: string }[]);
	for (const chapter of timeline.chapters ?? []) {
		const frame = frames(chapter.start);
		let n = cuts.findIndex((c) => frame >= c.in && frame < c.out);
		if (n < 0) n = cuts.findIndex((c) => c.in > frame && c.in - frame <= TIMELINE_FPS);
		if (n >= 0) marks[n]!.push({ frame: Math.max(frame, cuts[n]!.in), title: chapter.title });
	}
	return marks;
}

export function toFcpxml(timeline: Timeline): string {
	const cuts = cutList(timeline);
	const total = cuts.reduce((n, c) => n + c.out - c.in, 0);
	const name = escapeXml(timeline.name);
	const marks = chapterMarks(timeline, cuts);
	const clips = cuts.map(
		(c, n) =>
			`            <asset-clip ref="r2" name="${escapeXml(c.clip.title)}" offset="${time(c.offset)}" start="${time(c.in)}" duration="${time(c.out - c.in)}" format="r1" tcFormat="NDF">\n` +
			`              <note>${escapeXml(`clipforge ${c.clip.id}, score ${c.clip.score}`)}</note>\n` +
			marks[n]!.map(
				(m) =>
					`              <chapter-marker start="${time(m.frame)}" duration="1/${TIMELINE_FPS}s" value="${escapeXml(m.title)}" posterOffset="0s"/>\n`,
			).join("") +
			`            </asset-clip>`,
	);
	return [
		`<?xml version="1.0" encoding="UTF-8"?>`,
		`<!DOCTYPE fcpxml>`,
		`<fcpxml version="1.9">`,
		`  <resources>`,
		`    <format id="r1" name="FFVideoFormat1080p30" frameDuration="1/${TIMELINE_FPS}s" width="${WIDTH}" height="${HEIGHT}"/>`,
		`    <asset id="r2" name="${name}" uid="${escapeXml(timeline.videoId)}" start="0s" duration="${time(frames(timeline.sourceDuration))}" hasVideo="1" hasAudio="1" format="r1" audioSources="1" audioChannels="2" audioRate="48000">`,
		`      <media-rep kind="original-media" src="${escapeXml(timeline.mediaUrl)}"/>`,
		`    </asset>`,
		`  </resources>`,
		`  <library>`,
		`    <event name="${name}">`,
		`      <project name="${escapeXml(`${timeline.name} (clipforge clips)`)}">`,
		`        <sequence format="r1" duration="${time(total)}" tcStart="0s" tcFormat="NDF" audioLayout="stereo" audioRate="48k">`,
		`          <spine>`,
		...clips,
		`          </spine>`,
		`        </sequence>`,
		`      </project>`,
		`    </event>`,
		`  </library>`,
		`</fcpxml>`,
		``,
	].join("\n");
}

export function toXmeml(timeline: Timeline): string {
	const cuts = cutList(timeline);
	const total = cuts.reduce((n, c) => n + c.out - c.in, 0);
	const item = xmemlClipItem(timeline);
	return [
		`<?xml version="1.0" encoding="UTF-8"?>`,
		`<!DOCTYPE xmeml>`,
		`<xmeml version="4">`,
		`  <sequence id="sequence-1">`,
		`    <name>${escapeXml(`${timeline.name} (clipforge clips)`)}</name>`,
		`    <duration>${total}</duration>`,
		`    ${XMEML_RATE}`,
		...xmemlMarkers(timeline, cuts),
		`    <media>`,
		`      <video>`,
		`        <format><samplecharacteristics>${XMEML_RATE}<width>${WIDTH}</width><height>${HEIGHT}</height><pixelaspectratio>square</pixelaspectratio></samplecharacteristics></format>`,
		`        <track>`,
		...cuts.map((c, n) => item("video", c, n)),
		`        </track>`,
		`      </video>`,
		`      <audio>`,
		`        <track>`,
		...cuts.map((c, n) => item("audio", c, n)),
		`        </track>`,
		`      </audio>`,
		`    </media>`,
		`  </sequence>`,
		`</xmeml>`,
		``,
	].join("\n");
}

const XMEML_RATE = `<rate><timebase>${TIMELINE_FPS}</timebase><ntsc>FALSE</ntsc></rate>`;
type Cut = ReturnType<typeof cutList>[number];

/** One cut as a video or audio clip item; the first video item describes the source file, the others point at it. */
function xmemlClipItem(timeline: Timeline) {
	const sourceFrames = frames(timeline.sourceDuration);
	const file = (first: boolean) =>
		first
			? `<file id="file-1"><name>${escapeXml(timeline.name)}</name><pathurl>${escapeXml(timeline.mediaUrl)}</pathurl>${XMEML_RATE}<duration>${sourceFrames}</duration>` +
				`<media><video><samplecharacteristics><width>${WIDTH}</width><height>${HEIGHT}</height></samplecharacteristics></video><audio><channelcount>2</channelcount></audio></media></file>`
			: `<file id="file-1"/>`;
	return (kind: "video" | "audio", c: Cut, n: number) =>
		`          <clipitem id="${kind === "video" ? "clipitem" : "audioitem"}-${n + 1}">` +
		`<name>${escapeXml(c.clip.title)}</name><enabled>TRUE</enabled><duration>${sourceFrames}</duration>${XMEML_RATE}` +
		`<start>${c.offset}</start><end>${c.offset + c.out - c.in}</end><in>${c.in}</in><out>${c.out}</out>` +
		file(kind === "video" && n === 0) +
		(kind === "audio" ? `<sourcetrack><mediatype>audio</mediatype><trackindex>1</trackindex></sourcetrack>` : "") +
		`<comments><mastercomment1>${escapeXml(`clipforge ${c.clip.id}, score ${c.clip.score}`)}</mastercomment1></comments>` +
		`</clipitem>`;
}

/** Chapter starts as sequence markers, at their place on the timeline. */
function xmemlMarkers(timeline: Timeline, cuts: Cut[]): string[] {
	const marks = chapterMarks(timeline, cuts);
	return cuts.flatMap((c, n) =>
		marks[n]!.map((m) => {
			const at = c.offset + m.frame - c.in;
			return `    <marker><name>${escapeXml(m.title)}</name><comment>chapter</comment><in>${at}</in><out>-1</out></marker>`;
		}),
	);
}
