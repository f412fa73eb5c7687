import Ajv2020 from 'ajv/dist/2020';

/** One REST response as the server sent it (recorded by startTestServer's onSend hook). */
export interface RecordedResponse {
  method: string;
  /** Fastify's route template (`/api/v1/users/:userId/profile`). */
  route: string;
  status: number;
  contentType: string;
  body: string;
}

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

/** Routes the OpenAPI document covers: the REST paths (not the document itself). */
export const isRestRoute = (route: string) =>
  (route.startsWith('/api/') || route.startsWith('/.well-known/')) && route !== '/api/v1/openapi.json';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/**
 * Checks recorded responses against the OpenAPI document: the path and method are documented,
 * the status (or `default`) is, the media type is, and a JSON body validates against its schema
 * (ajv, JSON Schema 2020-12 as OpenAPI 3.1). Returns one line per violation.
 */
export function contractViolations(doc: Doc, recorded: readonly RecordedResponse[]): string[] {
  const problems: string[] = [];
  for (const r of recorded) {
    const path = r.route.replace(/:(\w+)/g, '{$1}');
    const where = `${r.method} ${path} → ${r.status}`;
    const op = doc.paths[path]?.[r.method.toLowerCase()];
    if (!op) {
      problems.push(`${where}: not in the document`);
      continue;
    }
    const response = op.responses[String(r.status)] ?? op.responses.default;
    if (!response) {
      problems.push(`${where}: status not documented`);
      continue;
    }
    const media = r.contentType.split(';')[0].trim();
    if (!r.body) continue; // redirects and empty bodies
    const content = response.content?.[media];
    if (!content) {
      problems.push(
        `${where}: ${media || 'no content type'} not documented (${Object.keys(response.content ?? {}).join(', ') || 'no body'})`,
      );
      continue;
    }
    if (media !== 'application/json') continue;
    let validate = compiled.get(content.schema);
    if (!validate) compiled.set(content.schema, (validate = ajv.compile(content.schema)));
    if (!validate(JSON.parse(r.body)))
      problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${r.body.slice(0, 300)}`);
  }
  return problems;
}
