import { describe, expect, it } from "vitest";
import { paramsOf } from "../../src/workflows/params";

describe("what a workflow instance runs", () => {
	it("is its kind", () => {
		expect(paramsOf({ kind: "reprocess", videoId: "vid_1", reprocessId: "vid_1-r2" })).toEqual({
			kind: "reprocess",
			videoId: "vid_1",
			reprocessId: "vid_1-r2",
		});
	});

	it("follows from the ids of an instance started before kinds existed", () => {
		expect(paramsOf({ videoId: "vid_1" })).toEqual({ kind: "process", videoId: "vid_1" });
		expect(paramsOf({ videoId: "vid_1", reprocessId: "vid_1-r1" })).toEqual({
			kind: "reprocess",
			videoId: "vid_1",
			reprocessId: "vid_1-r1",
		});
		expect(paramsOf({ videoId: "vid_1", clipEdit: { clipId: "clp_1", number: 3 } })).toEqual({
			kind: "clipEdit",
			videoId: "vid_1",
			clipEdit: { clipId: "clp_1", number: 3 },
		});
	});
});
