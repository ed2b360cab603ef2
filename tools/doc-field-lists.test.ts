/**
 * docs/api.md's field lists come from the API's OpenAPI document (scripts/doc-field-lists.ts,
 * written by `npm run sdk:types`): the doc in the tree matches the saved document, a new field of
 * a schema shows up in its list, and a span naming no schema fails instead of going stale.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { withFieldLists, type OpenApiComponents } from "../scripts/doc-field-lists.ts";

const ROOT = join(import.meta.dirname, "..");
const doc = readFileSync(join(ROOT, "docs/api.md"), "utf8");
const document = JSON.parse(readFileSync(join(ROOT, "packages/sdk/openapi.json"), "utf8")) as OpenApiComponents;

it("docs/api.md's field lists are the saved OpenAPI document's", () => {
	expect(doc).toMatch(/<!-- fields: CreateCaptionTemplate -->`\{name, presetId, [^`]*\}`/);
	expect(withFieldLists(doc, document)).toBe(doc);
});

it("a field added to a schema appears in its list, optional ones marked", () => {
	const schemas = document.components!.schemas!;
	const create = schemas.CreateCaptionTemplate!;
	const withNewField: OpenApiComponents = {
		components: {
			schemas: {
				...schemas,
				CreateCaptionTemplate: {
					...create,
					properties: { ...create.properties, outlineColor: { type: "string" } },
				},
			},
		},
	};
	const written = withFieldLists(doc, withNewField);
	expect(written).not.toBe(doc);
	expect(written).toMatch(/<!-- fields: CreateCaptionTemplate -->`\{name, presetId, [^`]*, outlineColor\?\}`/);
});

it("a span naming no schema of the API fails", () => {
	expect(() => withFieldLists("see <!-- fields: NoSuchSchema -->`{}`<!-- /fields -->", document)).toThrow(
		/names no object schema/,
	);
});
