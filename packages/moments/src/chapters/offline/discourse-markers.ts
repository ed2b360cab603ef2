/**
 * Discourse markers: how a sentence that opens a new topic often begins ("moving on", "next",
 * "let's talk about", and weakly "okay", "so"), and the phrases anywhere in a sentence that hand the
 * floor to the next topic ("we'll move on now to…", "we've got some questions now on … from …",
 * "how about you?"). Read by the segmentation: the topic cues when choosing the split, the markers
 * (and the cues) to place a chapter's start among the sentences around a change of vocabulary.
 */

/** Openers that announce a new topic, strong and weak. */
const STRONG_MARKER =
	/^(?:(?:so|and|okay|ok|alright|all right|right|now|well)[,\s]+)*(?:moving on|next|let's (?:talk|move|turn|look|go|start|get)|let us|turning to|on to|the next (?:thing|point|item|topic|question|step)|another (?:thing|topic|question|point|issue)|anyway|finally|first of all|to start|last(?:ly)?|the (?:other|last) (?:thing|point|item|topic))\b/i;
const WEAK_MARKER = /^(?:okay|ok|alright|all right|right|so|now|well)\b/i;

export function markerStrength(text: string): number {
	const opening = text.replace(/^[^\p{L}]+/u, "");
	if (STRONG_MARKER.test(opening)) return 1;
	return WEAK_MARKER.test(opening) ? 0.35 : 0;
}

/**
 * Phrases that hand over to the next topic, anywhere in a sentence, and how strongly (0..1). Chosen
 * by how much more often they are said within 30 s of a topic change than elsewhere in QMSum train's
 * dev meetings (4-8 times for the strongest; "okay, so" and "next" alone barely 1.5, "agenda" and
 * "anything else" less than chance, so they are not here).
 */
export const TOPIC_CUES: readonly [RegExp, number][] = [
	[/\bmov(?:e|ing) (?:on|along)\b/i, 1],
	[/\bquestions? now\b/i, 1],
	[/\bnext (?:set of )?questions?\b/i, 1],
	[/\bquestions? (?:from|on)\b/i, 0.8],
	[/\b(?:how|what) about you\b/i, 0.7],
	[/\b(?:my|your) turn\b/i, 0.7],
	[/\bwhat'?s new\b/i, 0.7],
	[/^(?:okay|ok|right),? thank(?:s| you)\b/i, 0.5],
	[/\bpresentation\b/i, 0.5],
	[/\b(?:the )?last thing\b/i, 0.5],
	[/\blet'?s (?:talk|discuss|move|turn|look at)\b/i, 0.5],
];

export function topicCueStrength(text: string): number {
	const sentence = text.trim();
	let best = 0;
	for (const [cue, strength] of TOPIC_CUES) if (strength > best && cue.test(sentence)) best = strength;
	return best;
}
