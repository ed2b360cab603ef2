/** /api/projects: named groups of a workspace's videos, one file per operation, in the document's order. */
import type { Api } from "../../../env";
import { registerCreateProject } from "./create";
import { registerListProjects } from "./list";

export function registerProjects(api: Api) {
	registerCreateProject(api);
	registerListProjects(api);
}
