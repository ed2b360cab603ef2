/**
 * A clip set as an editor's timeline: the clips one after another on one track, each pointing at
 * the source with its in and out points, so an editor opens the cuts on the original footage and
 * refines them. FCPXML 1.9 (Final Cut Pro, DaVinci Resolve) and Final Cut 7 XML, "xmeml" version 4
 * (Premiere Pro, also Resolve). Times are whole frames of a 30 fps, 1920×1080 timeline (the source's
 * own rate and size are not probed); editors conform the source when it is relinked.
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

export function escapeXml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!,
	);
}

const time = (f: number) => (f === 0 ? "0s" : `${f}/${TIMELINE_FPS}s`);

export function toFcpxml(timeline: Timeline): string {
	const cuts = cutList(timeline);
	const total = cuts.reduce((n, c) => n + c.out - c.in, 0);
	const name = escapeXml(timeline.name);
	const clips = cuts.map(
		(c) =>
			`            <asset-clip ref="r2" name="${escapeXml(c.clip.title)}" offset="${time(c.offset)}" start="${time(c.in)}" duration="${time(c.out - c.in)}" format="r1" tcFormat="NDF">\n` +
			`              <note>${escapeXml(`clipforge ${c.clip.id}, score ${c.clip.score}`)}</note>\n` +
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
	const rate = `<rate><timebase>${TIMELINE_FPS}</timebase><ntsc>FALSE</ntsc></rate>`;
	const sourceFrames = frames(timeline.sourceDuration);
	const file = (first: boolean) =>
		first
			? `<file id="file-1"><name>${escapeXml(timeline.name)}</name><pathurl>${escapeXml(timeline.mediaUrl)}</pathurl>${rate}<duration>${sourceFrames}</duration>` +
				`<media><video><samplecharacteristics><width>${WIDTH}</width><height>${HEIGHT}</height></samplecharacteristics></video><audio><channelcount>2</channelcount></audio></media></file>`
			: `<file id="file-1"/>`;
	const item = (kind: "video" | "audio", c: (typeof cuts)[number], n: number) =>
		`          <clipitem id="${kind === "video" ? "clipitem" : "audioitem"}-${n + 1}">` +
		`<name>${escapeXml(c.clip.title)}</name><enabled>TRUE</enabled><duration>${sourceFrames}</duration>${rate}` +
		`<start>${c.offset}</start><end>${c.offset + c.out - c.in}</end><in>${c.in}</in><out>${c.out}</out>` +
		file(kind === "video" && n === 0) +
		(kind === "audio" ? `<sourcetrack><mediatype>audio</mediatype><trackindex>1</trackindex></sourcetrack>` : "") +
		`<comments><mastercomment1>${escapeXml(`clipforge ${c.clip.id}, score ${c.clip.score}`)}</mastercomment1></comments>` +
		`</clipitem>`;
	return [
		`<?xml version="1.0" encoding="UTF-8"?>`,
		`<!DOCTYPE xmeml>`,
		`<xmeml version="4">`,
		`  <sequence id="sequence-1">`,
		`    <name>${escapeXml(`${timeline.name} (clipforge clips)`)}</name>`,
		`    <duration>${total}</duration>`,
		`    ${rate}`,
		`    <media>`,
		`      <video>`,
		`        <format><samplecharacteristics>${rate}<width>${WIDTH}</width><height>${HEIGHT}</height><pixelaspectratio>square</pixelaspectratio></samplecharacteristics></format>`,
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
