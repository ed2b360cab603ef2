/**
 * Whether the new code can read the results the deployed build's steps stored (step-shapes.ts makes
 * both snapshots). A running instance replays each finished step from its stored result, so the new
 * code meets the old shape: a field removed or retyped, or a new field the old results lack, breaks
 * it; a new optional field, a wider type (`string` to `string | null`) or a field made optional do not.
 */
import type { Shape } from "./step-shapes.ts";

const SITE = / \(in [\w$]+\)$/;

/**
 * Deployed steps the code still makes whose result this check no longer finds: a step that moved
 * behind a wrapper the shape reader does not know would otherwise pass unchecked.
 */
export function unreadResults(
	deployed: Record<string, Shape>,
	current: Record<string, Shape>,
	made: Set<string>,
): string[] {
	const found = new Set(Object.keys(current).map((key) => key.replace(SITE, "")));
	return [...new Set(Object.keys(deployed).map((key) => key.replace(SITE, "")))]
		.filter((name) => made.has(name) && !found.has(name))
		.map(
			(name) =>
				`step "${name}" result: its shape can no longer be read from the code (step-shapes.ts reads step.do and the video's step runner; teach it the new call)`,
		);
}

/** Each way a deployed step's stored result no longer fits the type the code now gives it. */
export function shapeProblems(deployed: Record<string, Shape>, current: Record<string, Shape>): string[] {
	const problems: string[] = [];
	for (const [key, old] of Object.entries(deployed)) {
		// A name now made at one site where it was made at two, or the other way round, is the same step.
		const base = key.replace(SITE, "");
		const matches = Object.keys(current).filter(
			(now) => now === key || (now.replace(SITE, "") === base && (!SITE.test(now) || !SITE.test(key))),
		);
		// A step no longer made at all is the step-name check's finding, not this one's.
		for (const now of matches)
			for (const change of changes(old, current[now]!, ""))
				problems.push(
					`step "${now}" result: ${change}: an instance that finished it before the deploy replays the result the old code stored (add optional fields only; or wait until no such instance runs, then npm run check:workflows -- --update)`,
				);
	}
	return problems;
}

function members(shape: Shape): Shape[] {
	if (typeof shape === "string") return shape.split(" | ");
	if ("union" in shape) return shape.union.flatMap(members);
	return [shape];
}

const show = (shape: Shape) => (typeof shape === "string" ? shape : JSON.stringify(shape).slice(0, 80));
const at = (path: string) => (path === "" ? "the result" : `field ${path}`);

/** How `now` fails to read what `old` stored, at `path`; empty when every old value still fits. */
function changes(old: Shape, now: Shape, path: string): string[] {
	if (JSON.stringify(old) === JSON.stringify(now)) return [];
	const oldMembers = members(old);
	const nowMembers = members(now);
	if (oldMembers.length > 1 || nowMembers.length > 1) {
		const lost = oldMembers.filter((member) => !nowMembers.some((n) => changes(member, n, path).length === 0));
		return lost.length === 0 ? [] : [`${at(path)} was retyped from ${show(old)} to ${show(now)}`];
	}
	if (typeof old === "object" && typeof now === "object" && "fields" in old && "fields" in now)
		return fieldChanges(old.fields, now.fields, path);
	if (typeof old === "object" && typeof now === "object" && "array" in old && "array" in now)
		return changes(old.array, now.array, `${path}[]`);
	return [`${at(path)} was retyped from ${show(old)} to ${show(now)}`];
}

function fieldChanges(
	old: Record<string, { type: Shape; optional?: true }>,
	now: Record<string, { type: Shape; optional?: true }>,
	path: string,
): string[] {
	const problems: string[] = [];
	const prefix = path === "" ? "" : `${path}.`;
	for (const [name, field] of Object.entries(old)) {
		const next = now[name];
		if (!next) problems.push(`field ${prefix}${name} was removed`);
		else if (field.optional && !next.optional)
			problems.push(`field ${prefix}${name} became required, and old results may lack it`);
		else problems.push(...changes(field.type, next.type, `${prefix}${name}`));
	}
	for (const [name, field] of Object.entries(now))
		if (!old[name] && !field.optional)
			problems.push(`field ${prefix}${name} was added as required, and old results lack it (make it optional)`);
	return problems;
}
