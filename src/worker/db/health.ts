/**
 * The smoke check's read of D1 (services/smoke/checks.ts): how many of the core tables the schema
 * holds, and how many workspaces there are. Both are reads a fresh, migrated database answers.
 */
import { and, count, eq, getTableName, inArray } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { clips, plans, videos, workspaces } from "./schema";

/** SQLite's own catalogue of the database's tables and indexes. */
const sqliteMaster = sqliteTable("sqlite_master", { type: text("type"), name: text("name") });

/** The tables every request needs: a database without them was never migrated. */
export const CORE_TABLES = [workspaces, videos, clips, plans].map(getTableName);

export async function schemaHealth(db: Db): Promise<{ coreTables: number; workspaces: number }> {
	const [tables] = await db
		.select({ n: count() })
		.from(sqliteMaster)
		.where(and(eq(sqliteMaster.type, "table"), inArray(sqliteMaster.name, CORE_TABLES)));
	const [rows] = await db.select({ n: count() }).from(workspaces);
	return { coreTables: tables?.n ?? 0, workspaces: rows?.n ?? 0 };
}
