/**
 * The JSON Schema sent with a JSON-mode request, in the plain subset constrained decoders are
 * known to take: objects, arrays, strings, numbers, integers and booleans with `required`, `enum`
 * and modest bounds. Workers AI does not document which part of JSON Schema its engines accept,
 * so nothing else is sent: no `$schema`, no `$ref`/`$defs`, no `anyOf`/`oneOf`/`allOf` (zod writes
 * nullable fields as `anyOf [X, null]`), no `pattern`/`format`, and no bound as large as the
 * `maximum: 9007199254740991` zod writes for every `.int()`. Answers are still validated with
 * the zod schema they came from, which may be looser than the wire (a nullable field is sent as
 * its non-null type and the prompt says what "none" looks like).
 */
import { z } from "zod";

/** The keywords a plain schema may use (the test stubs of Workers AI refuse any other). */
export const PLAIN_SCHEMA_KEYWORDS = [
	"type",
	"properties",
	"required",
	"additionalProperties",
	"items",
	"enum",
	"description",
	"minimum",
	"maximum",
	"minLength",
	"maxLength",
	"minItems",
	"maxItems",
] as const;

/** Larger bounds than this are dropped or refused: decoders unroll bounded repetitions. */
export const MAX_PLAIN_BOUND = 10_000;

const PLAIN = new Set<string>(PLAIN_SCHEMA_KEYWORDS);
const BOUNDS = new Set(["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"]);
type Node = Record<string, unknown>;

/**
 * The zod schema as a plain JSON Schema: nullable unions become their non-null branch, zod's
 * safe-integer bounds are dropped, `$schema` goes; anything else outside the subset throws (at
 * module load, so such a schema can never be sent).
 * @example plainJsonSchema(z.object({ n: z.number().int().nonnegative() })) // { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"], additionalProperties: false }
 */
export function plainJsonSchema(schema: z.ZodType): Node {
	const plain = simplify(z.toJSONSchema(schema) as Node);
	const problems = plainSchemaProblems(plain);
	if (problems.length > 0)
		throw new Error(`This schema is not in the plain subset JSON mode is sent: ${problems.join("; ")}.`);
	return plain;
}

function simplify(node: Node): Node {
	const nonNull = Array.isArray(node.anyOf)
		? (node.anyOf as Node[]).filter((branch) => branch.type !== "null")
		: null;
	if (nonNull && nonNull.length === 1 && nonNull.length < (node.anyOf as Node[]).length) {
		const { anyOf: _anyOf, ...rest } = node;
		return simplify({ ...rest, ...nonNull[0] });
	}
	const out: Node = {};
	for (const [key, value] of Object.entries(node)) {
		if (key === "$schema") continue;
		if (BOUNDS.has(key) && typeof value === "number" && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
		if (key === "properties" && value && typeof value === "object") {
			out[key] = Object.fromEntries(
				Object.entries(value as Record<string, Node>).map(([name, child]) => [name, simplify(child)]),
			);
		} else if (key === "items" && value && typeof value === "object" && !Array.isArray(value)) {
			out[key] = simplify(value as Node);
		} else {
			out[key] = value;
		}
	}
	return out;
}

/** What in `schema` is outside the plain subset, as `path: problem` lines (empty when plain). */
export function plainSchemaProblems(schema: unknown, path = "#"): string[] {
	if (!schema || typeof schema !== "object" || Array.isArray(schema)) return [`${path}: not a schema object`];
	const problems: string[] = [];
	for (const [key, value] of Object.entries(schema as Node)) {
		if (!PLAIN.has(key)) problems.push(`${path}: "${key}" is not in the plain subset`);
		else if (BOUNDS.has(key) && (typeof value !== "number" || Math.abs(value) > MAX_PLAIN_BOUND))
			problems.push(`${path}: ${key} ${String(value)} is not a bound under ${MAX_PLAIN_BOUND}`);
		else if (key === "type" && typeof value !== "string")
			problems.push(`${path}: type must be one name, not ${JSON.stringify(value)}`);
		else if (key === "properties") {
			for (const [name, child] of Object.entries(value as Record<string, unknown>))
				problems.push(...plainSchemaProblems(child, `${path}/properties/${name}`));
		} else if (key === "items") problems.push(...plainSchemaProblems(value, `${path}/items`));
	}
	return problems;
}
