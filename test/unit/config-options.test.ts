/**
 * The config table is the one place an option is written: a dummy row added to it in a fixture
 * appears on every surface built from the table, with its type, bounds, default, label, help and
 * flag: the API's schema (and its OpenAPI document), the MCP tools' input, the CLI's flags and
 * what they set, and the dashboard's form.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { CONFIG_OPTIONS, defaultsOf, type ConfigOption } from "@clipforge/domain";
import { describe, expect, it } from "vitest";
import { configFlagSpecs, configFromFlags } from "../../packages/sdk/src/cli/config-flags.ts";
import { mcpConfigShapeOf } from "../../packages/sdk/src/mcp/config-shape.ts";
import { formFieldsOf } from "../../src/dashboard/config-fields";
import { configShapeOf, VideoConfigInput } from "../../src/worker/domain/video-config";

const DUMMY = {
	dummyLevel: {
		type: "number",
		min: 1,
		max: 9,
		default: 3,
		label: "Dummy level",
		help: "How dummy the clips are.",
		cli: [{ flag: "--dummy-level <level>" }],
		form: { group: "clips" },
	},
	dummyMode: {
		type: "enum",
		choices: ["soft", "loud"],
		default: "soft",
		label: "Dummy mode",
		help: "Which dummy sound.",
		cli: [{ flag: "--dummy-mode <mode>" }],
		form: { group: "look", submitOnly: true },
	},
} as const satisfies Record<string, ConfigOption>;
const TABLE = { ...CONFIG_OPTIONS, ...DUMMY };

/** The OpenAPI document of one route taking a config of `shape`, as the API's app builds it. */
function documentOf(shape: ReturnType<typeof configShapeOf<typeof TABLE>>) {
	const app = new OpenAPIHono();
	const body = z.strictObject(shape).openapi("FixtureConfig");
	const route = createRoute({
		method: "post",
		path: "/x",
		request: { body: { content: { "application/json": { schema: body } } } },
		responses: { 204: { description: "ok" } },
	});
	app.openapi(route, (c) => c.body(null, 204));
	return app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "fixture", version: "1" } });
}

describe("a new row of the config table", () => {
	it("is a field of the API's schema, with its default, bounds and help in the OpenAPI document", () => {
		const schema = z.strictObject(configShapeOf(TABLE));
		expect(schema.parse({})).toMatchObject({ dummyLevel: 3, dummyMode: "soft", aspectRatio: "9:16" });
		expect(schema.safeParse({ dummyLevel: 10 }).success).toBe(false);
		expect(schema.safeParse({ dummyMode: "LOUD" }).success).toBe(false);
		const property = (
			documentOf(configShapeOf(TABLE)).components!.schemas!.FixtureConfig as {
				properties: Record<string, unknown>;
			}
		).properties;
		expect(property.dummyLevel).toEqual({
			type: "number",
			minimum: 1,
			maximum: 9,
			default: 3,
			description: "How dummy the clips are.",
		});
		expect(property.dummyMode).toMatchObject({ type: "string", enum: ["soft", "loud"], default: "soft" });
		expect(defaultsOf(TABLE)).toMatchObject({ dummyLevel: 3, dummyMode: "soft" });
	});

	it("is an input of the MCP tools, described with its bounds and default", () => {
		const input = z.toJSONSchema(z.object(mcpConfigShapeOf(TABLE))) as {
			properties: Record<string, { description?: string; enum?: string[] }>;
		};
		expect(input.properties.dummyLevel!.description).toBe("How dummy the clips are. (1-9) Default 3.");
		expect(input.properties.dummyMode!.enum).toEqual(["soft", "loud"]);
	});

	it("is a CLI flag that sets it", () => {
		const specs = configFlagSpecs(TABLE);
		expect(specs.find((s) => s.flags === "--dummy-level <level>")).toMatchObject({
			help: "dummy level (1-9, default 3)",
			submitOnly: false,
		});
		expect(specs.find((s) => s.flags === "--dummy-mode <mode>")!.choices).toEqual(["soft", "loud"]);
		expect(specs.find((s) => s.flags === "--dummy-level <level>")!.parse!("7")).toBe(7);
		expect(() => specs.find((s) => s.flags === "--dummy-level <level>")!.parse!("seven")).toThrow(
			/must be a number/,
		);
		expect(configFromFlags({ dummyLevel: 7, dummyMode: "loud", aspect: "1:1" }, TABLE)).toEqual({
			dummyLevel: 7,
			dummyMode: "loud",
			aspectRatio: "1:1",
		});
	});

	it("is a field of the dashboard's forms, where it belongs", () => {
		const level = formFieldsOf(TABLE).find((f) => f.key === "dummyLevel");
		expect(level).toMatchObject({
			label: "Dummy level",
			group: "clips",
			input: { kind: "number", min: 1, max: 9, step: 1 },
		});
		expect(formFieldsOf(TABLE).find((f) => f.key === "dummyMode")).toMatchObject({
			group: "look",
			input: { kind: "select", choices: ["soft", "loud"] },
		});
		expect(formFieldsOf(TABLE, { reprocess: true }).map((f) => f.key)).not.toContain("dummyMode");
	});
});

describe("the config table", () => {
	it("is what the API's schema is made of, in its order", () => {
		expect(Object.keys(VideoConfigInput.shape)).toEqual(Object.keys(CONFIG_OPTIONS));
	});

	it("gives the CLI's composite flags their meaning: a look turns captions on, a category is a category, a negation wins", () => {
		expect(configFromFlags({ captions: "boxed", split: "satisfying", hook: false, transcribeOnly: true })).toEqual({
			captionTemplateId: "boxed",
			enableCaptions: true,
			splitScreenBgCategoryId: "satisfying",
			enableSplitScreen: true,
			enableIntroTitle: false,
			skipClipping: true,
		});
		expect(configFromFlags({ captions: false, split: "bg_123", captionTemplate: "custom:ct_abc" })).toEqual({
			enableCaptions: false,
			captionTemplateId: "custom:ct_abc",
			splitScreenBgVideoId: "bg_123",
			enableSplitScreen: true,
		});
		expect(configFromFlags({ split: false, smartCrop: true })).toEqual({
			enableSplitScreen: false,
			enableSmartCrop: true,
		});
	});
});
