import { createApp } from "./app";

const app = createApp();

// biome-ignore lint/style/noDefaultExport: Wrangler needs the default export.
export default app;
export { ProcessVideoWorkflow } from "../workflows/process-video";
export { RenderContainer } from "./render-container";
