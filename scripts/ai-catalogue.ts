/**
 * The Workers AI catalogue as the generated types describe it (worker-configuration.d.ts, read
 * with the TypeScript compiler): every model id, and for each model whose input declares JSON
 * mode, the request shape it takes. The test stubs of the AI binding answer from this, so a model
 * outside the catalogue, or a JSON-mode request to a model without it, fails in the tests as it
 * would on Workers AI.
 */
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "./stack.ts";

export interface AiCatalogue {
	/** Every model id of `AiModels`. */
	models: string[];
	/** JSON-mode models → `workers-ai` or `chat-completions` (workers-ai-catalogue.ts, JsonModeApi). */
	jsonMode: Record<string, "workers-ai" | "chat-completions">;
}

const PROBE = join(ROOT, "__ai-catalogue-probe__.ts");
const PROBE_TEXT = `
import type { CatalogueModel, JsonModeApi, JsonModeModel } from "./src/worker/services/llm/workers-ai-catalogue";
export declare const models: { [M in CatalogueModel]: M };
export declare const jsonMode: { [M in JsonModeModel]: JsonModeApi<M> };
`;

export function readAiCatalogue(): AiCatalogue {
	const options: ts.CompilerOptions = {
		strict: true,
		noEmit: true,
		lib: ["lib.esnext.d.ts"],
		types: [],
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		allowImportingTsExtensions: true,
		skipLibCheck: true,
	};
	const host = ts.createCompilerHost(options);
	const readFile = host.readFile.bind(host);
	const getSourceFile = host.getSourceFile.bind(host);
	host.fileExists = (
		(exists) => (file: string) =>
			file === PROBE || exists(file)
	)(host.fileExists.bind(host));
	host.readFile = (file) => (file === PROBE ? PROBE_TEXT : readFile(file));
	host.getSourceFile = (file, language) =>
		file === PROBE ? ts.createSourceFile(file, PROBE_TEXT, language) : getSourceFile(file, language);
	const program = ts.createProgram([join(ROOT, "worker-configuration.d.ts"), PROBE], options, host);
	const checker = program.getTypeChecker();
	const probe = program.getSourceFile(PROBE)!;
	const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(probe)!);
	const declared = (name: string) => {
		const symbol = exported.find((s) => s.name === name);
		if (!symbol) throw new Error(`ai-catalogue: ${name} not found`);
		return checker.getTypeOfSymbol(symbol);
	};
	const literal = (type: ts.Type) => (type.isStringLiteral() ? type.value : null);
	const models = declared("models")
		.getProperties()
		.map((p) => p.name);
	const jsonMode: AiCatalogue["jsonMode"] = {};
	for (const property of declared("jsonMode").getProperties()) {
		const api = literal(checker.getTypeOfSymbol(property));
		if (api === "workers-ai" || api === "chat-completions") jsonMode[property.name] = api;
	}
	if (models.length === 0 || Object.keys(jsonMode).length === 0)
		throw new Error("ai-catalogue: the generated AiModels type was not found (npm run cf-typegen)");
	return { models, jsonMode };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(readAiCatalogue(), null, 2));
