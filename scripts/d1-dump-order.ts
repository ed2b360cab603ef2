/**
 * D1's export writes each table's CREATE then its rows, tables in the order they were made; with
 * foreign keys on (D1 always enforces them), a row whose parent table comes later fails with "no
 * such table" even under `PRAGMA defer_foreign_keys`, which defers missing rows, not missing
 * tables. So a backup's SQL is reordered: pragmas, every table, every row, then the rest (indexes
 * last, which also makes the load faster). Parent rows missing at an INSERT are still deferred.
 */

/**
 * The export's statements: each starts at a line beginning with an SQL verb. A value spanning lines
 * stays with its statement unless one of its lines itself starts with such a verb.
 */
export function statementsOf(sql: string): string[] {
	const statements: string[] = [];
	for (const line of sql.split("\n")) {
		if (/^(PRAGMA|CREATE|INSERT|DELETE|UPDATE|ALTER|DROP)\b/.test(line) || statements.length === 0)
			statements.push(line);
		else statements[statements.length - 1] += `\n${line}`;
	}
	return statements.filter((s) => s.trim() !== "");
}

const rank = (statement: string): number =>
	statement.startsWith("PRAGMA")
		? 0
		: /^CREATE TABLE/.test(statement)
			? 1
			: // Rows, and the sequence table's reset between them and its own rows, in their order.
				/^(INSERT|DELETE)/.test(statement)
				? 2
				: 3;

/** The same statements, tables before rows before indexes; within each kind, the export's order. */
export function tablesBeforeRows(sql: string): string {
	const statements = statementsOf(sql);
	return statements
		.map((statement, at) => ({ statement, at }))
		.sort((a, b) => rank(a.statement) - rank(b.statement) || a.at - b.at)
		.map((s) => s.statement)
		.join("\n");
}
