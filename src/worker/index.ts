export default { fetch() { return new Response("ok"); } };
export class ProcessVideoWorkflow {}
export class RenderContainer {}
