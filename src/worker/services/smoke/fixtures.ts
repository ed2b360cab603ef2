/** What the smoke checks send through the bindings: a short tone as WAV, a small PNG. */
/** Standard base64 → bytes. */
const base64Decode = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

/**
 * `seconds` of 16 kHz mono 16-bit PCM as WAV: a 440 Hz tone fading in and out (Whisper hears no
 * words in it; the check is that the call is accepted and answered in the documented shape).
 */
export function toneWav(seconds = 2, sampleRate = 16_000): Uint8Array {
	const samples = Math.round(seconds * sampleRate);
	const bytes = new Uint8Array(44 + samples * 2);
	const view = new DataView(bytes.buffer);
	const text = (at: number, value: string) => [...value].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
	text(0, "RIFF");
	view.setUint32(4, 36 + samples * 2, true);
	text(8, "WAVE");
	text(12, "fmt ");
	view.setUint32(16, 16, true);
	view.setUint16(20, 1, true); // PCM
	view.setUint16(22, 1, true); // mono
	view.setUint32(24, sampleRate, true);
	view.setUint32(28, sampleRate * 2, true);
	view.setUint16(32, 2, true);
	view.setUint16(34, 16, true);
	text(36, "data");
	view.setUint32(40, samples * 2, true);
	for (let n = 0; n < samples; n++) {
		const envelope = Math.min(1, n / 1600, (samples - n) / 1600);
		view.setInt16(44 + n * 2, Math.round(8000 * envelope * Math.sin((2 * Math.PI * 440 * n) / sampleRate)), true);
	}
	return bytes;
}

/** A 16x16 red PNG (82 bytes), for the render tier to fetch and convert as a watermark. */
export const SMALL_PNG = base64Decode(
	"iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGUlEQVR4nGM4oaHxnxLMMGrAqAGjBgwXAwCpMhcf2uFd6gAAAABJRU5ErkJggg==",
);
