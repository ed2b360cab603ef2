/**
 * The result shape of every named workflow step, read with the TypeScript compiler: the type each
 * `step.do(name, …, callback)` call resolves to (its callback's return type), or each call of the
 * video's step runner (`staged.one(key, …)`, `staged.each(key, n, total, …)`, staged-steps.ts:
 * named `VIDEO_STEP_NAMES[key]`) resolves to, written field by field as plain JSON. `npm run check:workflows` compares it with the deployed build's
 * (step-shape-compat.ts), because a running instance replays a finished step from the result the
 * old code stored, and the new code reads that result.
 */
import ts from "typescript";

/** A type as stored: a leaf's text, an object's fields, an array's element, or a union's members. */
export type Shape = string | { fields: Record<string, Field> } | { array: Shape } | { union: Shape[] };
export interface Field {
	type: Shape;
	optional?: true;
}

// Deep enough for every step's result (a loaded video's config is the deepest, at 3); beyond, the type's text.
const MAX_DEPTH = 6;

/** The shape of each step the file's `step.do` calls name, keyed by the step's name (`{}` for `${…}`). */
export function stepShapesIn(program: ts.Program, fileName: string): Record<string, Shape> {
	const checker = program.getTypeChecker();
	const file = program.getSourceFile(fileName);
	if (!file) throw new Error(`check:workflows: ${fileName} is not in the program`);
	const sites: { name: string; where: string; shape: Shape }[] = [];
	const names = stepNamesTable(program);
	const visit = (node: ts.Node) => {
		const name = isStepDo(node)
			? stepName(node.arguments[0]!, checker)
			: isStagedCall(node, checker)
				? tableEntry(names, (node.arguments[0] as ts.StringLiteral).text)
				: null;
		if (name !== null) {
			const result = checker.getAwaitedType(checker.getTypeAtLocation(node)) ?? checker.getTypeAtLocation(node);
			sites.push({ name, where: enclosingFunction(node), shape: shapeOf(checker, program, result, 0) });
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return keyed(sites);
}

/**
 * One entry per name; a name made at several call sites whose results differ (a reprocess's
 * "rank moments" beside a first run's) gets one entry per site, `name (in function)`.
 */
function keyed(sites: { name: string; where: string; shape: Shape }[]): Record<string, Shape> {
	const out: Record<string, Shape> = {};
	for (const site of sites) {
		const same = sites.filter((s) => s.name === site.name);
		const differ = same.some((s) => JSON.stringify(s.shape) !== JSON.stringify(site.shape));
		out[differ ? `${site.name} (in ${site.where})` : site.name] = site.shape;
	}
	return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function isStepDo(node: ts.Node): node is ts.CallExpression {
	return (
		ts.isCallExpression(node) &&
		ts.isPropertyAccessExpression(node.expression) &&
		node.expression.name.text === "do" &&
		node.arguments.length >= 2
	);
}

/** `staged.one("key", …)` or `staged.each("key", n, total, …)` on the video's step runner (a `StagedSteps`). */
function isStagedCall(node: ts.Node, checker: ts.TypeChecker): node is ts.CallExpression {
	if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return false;
	const method = node.expression.name.text;
	if ((method !== "one" && method !== "each") || !node.arguments[0] || !ts.isStringLiteral(node.arguments[0]))
		return false;
	return checker.typeToString(checker.getTypeAtLocation(node.expression.expression)) === "StagedSteps";
}

/** The declaration of VIDEO_STEP_NAMES (video-plan.ts), where the step runner's keys are named. */
function stepNamesTable(program: ts.Program): ts.Declaration | undefined {
	for (const file of program.getSourceFiles()) {
		if (!file.fileName.endsWith("src/workflows/video-plan.ts")) continue;
		for (const statement of file.statements)
			if (ts.isVariableStatement(statement))
				for (const declaration of statement.declarationList.declarations)
					if (declaration.name.getText() === "VIDEO_STEP_NAMES") return declaration;
	}
	return undefined;
}

function enclosingFunction(node: ts.Node): string {
	for (let at: ts.Node | undefined = node.parent; at; at = at.parent)
		if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name) return at.name.getText();
	return "top level";
}

/** `{}` for each `${…}` of a template: the name's fixed part, as deployed-steps.json writes names. */
function templateText(node: ts.Expression): string | null {
	if (ts.isStringLiteralLike(node)) return node.text;
	if (ts.isTemplateExpression(node))
		return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join("");
	return null;
}

/** `…_STEP_NAMES = { key: "name" | (…) => \`name\` }`: the name under `key`, for names written through such a table. */
function tableEntry(declaration: ts.Declaration | undefined, key: string): string | null {
	if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.name.getText().endsWith("_STEP_NAMES"))
		return null;
	let init = declaration.initializer;
	if (init && ts.isAsExpression(init)) init = init.expression;
	if (!init || !ts.isObjectLiteralExpression(init)) return null;
	for (const property of init.properties) {
		if (!ts.isPropertyAssignment(property) || property.name.getText() !== key) continue;
		const value = ts.isArrowFunction(property.initializer) ? property.initializer.body : property.initializer;
		return ts.isExpression(value) ? templateText(value) : null;
	}
	return null;
}

/** A step's name from its first argument, or null when it is computed (a variable's value). */
function stepName(node: ts.Expression, checker: ts.TypeChecker): string | null {
	const fixed = templateText(node);
	if (fixed !== null) return fixed;
	const access = ts.isCallExpression(node) ? node.expression : node;
	if (!ts.isPropertyAccessExpression(access)) return null;
	let table = checker.getSymbolAtLocation(access.expression);
	if (table && table.flags & ts.SymbolFlags.Alias) table = checker.getAliasedSymbol(table);
	return tableEntry(table?.valueDeclaration, access.name.text);
}

/** A type, field by field; what the compiler itself declares (Date, Map) and functions stay text. */
export function shapeOf(checker: ts.TypeChecker, program: ts.Program, type: ts.Type, depth: number): Shape {
	const text = checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
	if (depth >= MAX_DEPTH) return text;
	if (type.isUnion()) {
		const members = type.types.map((member) => shapeOf(checker, program, member, depth));
		if (members.every((member) => typeof member === "string")) return leafUnion(members as string[]);
		return { union: members.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) };
	}
	if (checker.isArrayType(type) || checker.isTupleType(type)) {
		const element = checker.getTypeArguments(type as ts.TypeReference)[0];
		return checker.isArrayType(type) && element ? { array: shapeOf(checker, program, element, depth + 1) } : text;
	}
	if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return text;
	const declared = type.getSymbol()?.declarations?.[0]?.getSourceFile();
	if (declared && program.isSourceFileDefaultLibrary(declared)) return text;
	const fields: Record<string, Field> = {};
	for (const property of checker.getPropertiesOfType(type)) {
		const shape = shapeOf(checker, program, checker.getTypeOfSymbol(property), depth + 1);
		// An optional field's `| undefined` is what `?` already says.
		fields[property.name] =
			(property.flags & ts.SymbolFlags.Optional) !== 0
				? { type: withoutUndefined(shape), optional: true }
				: { type: shape };
	}
	return { fields };
}

/** A union of leaves as one text, sorted; `false | true` written `boolean`, as it was declared. */
function leafUnion(members: string[]): string {
	const both = members.includes("false") && members.includes("true");
	const merged = both ? [...members.filter((m) => m !== "false" && m !== "true"), "boolean"] : members;
	return merged.sort().join(" | ");
}

function withoutUndefined(shape: Shape): Shape {
	if (typeof shape === "string")
		return shape
			.split(" | ")
			.filter((member) => member !== "undefined")
			.join(" | ");
	if ("union" in shape) {
		const members = shape.union.filter((member) => member !== "undefined");
		return members.length === 1 ? members[0]! : { union: members };
	}
	return shape;
}

/** The program the Worker's own tsconfig makes of the workflow's files (their imports followed). */
export function projectProgram(root: string, files: string[]): ts.Program {
	const configPath = `${root}/tsconfig.json`;
	const config = ts.getParsedCommandLineOfConfigFile(
		configPath,
		{},
		{
			...ts.sys,
			onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
				throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
			},
		},
	);
	if (!config) throw new Error(`check:workflows: cannot read ${configPath}`);
	const typeFiles = config.fileNames.filter((f) => f.endsWith(".d.ts"));
	return ts.createProgram([...typeFiles, ...files.map((f) => `${root}/${f}`)], config.options);
}
