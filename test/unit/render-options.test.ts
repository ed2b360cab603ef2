/**
 * The render options' table (the contract's RENDER_OPTIONS): each row is a config option (in the
 * config table), a field of the render request, and copied from one to the other by
 * renderRequestFor; a row renderRequestFor leaves out fails here.
 */
import { describe, expect, it } from "vitest";
import { RENDER_OPTION_NAMES, RENDER_OPTIONS, RenderClipRequest } from "@clipforge/contract";
import { CONFIG_OPTIONS } from "@clipforge/domain";
import { renderOptionsOf } from "../../src/worker/domain/render-options";
import { VideoConfigInput } from "../../src/worker/domain/video-config";
import { renderRequestFor } from "../../src/workflows/steps/render-clip";

const clip = {
	videoId: "vid_1",
	workspaceId: "ws_1",
	clipId: "clp_1",
	start: 0,
	end: 10,
	hookTitle: null,
	words: [],
	language: null,
	sourceUrl: "https://tier.example/source",
	sourceStart: 0,
	videoPutUrl: "https://tier.example/video",
	thumbnailPutUrl: "https://tier.example/thumbnail",
};
const look = { watermark: null, background: null, captions: null };

/** A value of the option other than its default, so a field left to the request's default shows. */
function notDefault(name: (typeof RENDER_OPTION_NAMES)[number]): unknown {
	const option = RENDER_OPTIONS[name].option as { type: string; default: unknown; choices?: readonly string[] };
	if (option.type === "boolean") return !option.default;
	return option.choices!.find((c) => c !== option.default && c !== RENDER_OPTIONS[name].requestDefault);
}

describe("render options", () => {
	it("are config options and fields of the render request", () => {
		for (const name of RENDER_OPTION_NAMES) {
			expect(CONFIG_OPTIONS).toHaveProperty(RENDER_OPTIONS[name].config);
			expect(RenderClipRequest.shape).toHaveProperty(name);
		}
	});

	it("reach the render request from the config as they are", () => {
		const changed = Object.fromEntries(RENDER_OPTION_NAMES.map((n) => [RENDER_OPTIONS[n].config, notDefault(n)]));
		for (const config of [VideoConfigInput.parse({}), VideoConfigInput.parse(changed)]) {
			const request = RenderClipRequest.parse(renderRequestFor(config, clip, look));
			expect(request).toMatchObject(renderOptionsOf(config));
		}
	});
});
