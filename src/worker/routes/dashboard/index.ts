/** The site's pages outside /api: `/` (root.ts) and the dashboard's page `/app` (page.ts). */
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { registerDashboardPage } from "./page";
import { registerRoot } from "./root";

export const dashboardRoutes = new Hono<AppEnv>();
registerRoot(dashboardRoutes);
registerDashboardPage(dashboardRoutes);
