/**
 * Moved to ffmpeg/ (clip-args.ts, source-args.ts). This old path stays only for the
 * importers outside the tier (scripts/sample-video.ts, tools/bench-render.ts,
 * tools/bench/floor.ts, tools/plan/measure.ts, tools/quality/asr-corpus.ts) until they import
 * the new one; nothing in the tier imports it.
 */
export { escapeFilterValue, renderClipArgs, type RenderClipArgs } from "./ffmpeg/clip-args.ts";
export { extractAudioChunkArgs, loudnessArgs, toPocketsphinxWavArgs } from "./ffmpeg/source-args.ts";
