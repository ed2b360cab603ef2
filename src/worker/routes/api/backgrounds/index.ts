/** /api/backgrounds and /api/backgrounds/{id}: the split-screen library, built-ins by category plus a workspace's own uploads. One file per operation. */
import type { Api } from "../../../env";
import { registerCreateBackground } from "./create";
import { registerDeleteBackground } from "./delete";
import { registerListBackgrounds } from "./list";

export function registerBackgrounds(api: Api): void {
	for (const register of [registerListBackgrounds, registerCreateBackground, registerDeleteBackground]) register(api);
}
