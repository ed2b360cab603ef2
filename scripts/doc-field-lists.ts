/**
 * The field lists docs/api.md shows for a schema of the API, written from its OpenAPI document
 * instead of by hand: a span `<!-- fields: CaptionTemplate -->`{…}`<!-- /fields -->` is given the
 * properties of that component schema, in the document's order, an optional one marked `?`
 * (`{name, presetId, font?, …}`). `npm run sdk:types` writes them beside the SDK's files, and its
 * `--check` (in `make checks`) fails when one is out of date: a new field of a table (a caption
 * template's, a config option) reaches the doc without a line written by hand.
 */

interface ObjectSchema {
	properties?: Record<string, unknown>;
	required?: string[];
}

export interface OpenApiComponents {
	components?: { schemas?: Record<string, ObjectSchema> };
}

const SPAN = /<!-- fields: (\w+) -->`[^`\n]*`<!-- \/fields -->/g;

/** `{a, b?}`: the schema's properties, optional ones marked. */
export function fieldList(schema: ObjectSchema): string {
	const required = new Set(schema.required ?? []);
	const names = Object.keys(schema.properties ?? {}).map((name) => (required.has(name) ? name : `${name}?`));
	return `{${names.join(", ")}}`;
}

/** `markdown` with every marked span written from `document`; a span naming no schema of it throws. */
export function withFieldLists(markdown: string, document: OpenApiComponents): string {
	return markdown.replace(SPAN, (_span, name: string) => {
		const schema = document.components?.schemas?.[name];
		if (!schema?.properties) throw new Error(`docs: <!-- fields: ${name} --> names no object schema of the API`);
		return `<!-- fields: ${name} -->\`${fieldList(schema)}\`<!-- /fields -->`;
	});
}
