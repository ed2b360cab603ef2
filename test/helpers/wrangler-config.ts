/** wrangler.toml read the simple way its tests need: a table's text, a string var of it. */
import wranglerToml from "../../wrangler.toml?raw";

/** The lines of table `[name]` (or `[[name]]`, the first one), up to the next table. */
export function tableOf(name: string): string {
	const header = new RegExp(`^\\[{1,2}${name.replace(/\./g, "\\.")}\\]{1,2}\\s*$`, "m").exec(wranglerToml);
	if (!header) throw new Error(`wrangler.toml has no [${name}]`);
	const rest = wranglerToml.slice(header.index + header[0].length);
	const next = /^\[/m.exec(rest);
	return next ? rest.slice(0, next.index) : rest;
}

/** `key = "value"` (or a bare number) in table `[name]`. */
export function valueIn(table: string, key: string): string | undefined {
	const match = new RegExp(`^${key}\\s*=\\s*(?:"([^"]*)"|([^\\s#]+))`, "m").exec(tableOf(table));
	return match ? (match[1] ?? match[2]) : undefined;
}
