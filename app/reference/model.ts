import type { OpenApiDocument } from '../portalContext.js';
import { operationAnchor, tagAnchor } from './anchors.js';
import { type JsonSchema, componentSchemas, resolveSchema } from './schema.js';

export interface ReferenceParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  deprecated: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface ReferenceBody {
  mediaType: string;
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface ReferenceResponse {
  status: string;
  description: string;
  mediaType: string | null;
  schema: JsonSchema | null;
  example?: unknown;
  headers: string[];
}

export interface ReferenceOperation {
  anchor: string;
  tag: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  deprecated: boolean;
  security: string[];
  parameters: ReferenceParameter[];
  body: ReferenceBody | null;
  responses: ReferenceResponse[];
}

export interface ReferenceTag {
  name: string;
  anchor: string;
  description: string;
  operations: ReferenceOperation[];
}

export interface ReferenceGroup {
  name: string;
  tags: ReferenceTag[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface RawParameter {
  $ref?: string;
  name: string;
  in: ReferenceParameter['in'];
  required?: boolean;
  description?: string;
  deprecated?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

interface RawMedia {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface RawOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, RawMedia> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, RawMedia>; headers?: Record<string, unknown> }
  >;
}

function firstMedia(content: Record<string, RawMedia> | undefined): [string, RawMedia] | null {
  const entries = Object.entries(content ?? {});
  return entries.find(([type]) => type.includes('json')) ?? entries[0] ?? null;
}

function mediaExample(media: RawMedia): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first?.value;
}

function operationOf(
  document: OpenApiDocument,
  path: string,
  method: string,
  raw: RawOperation,
  itemParameters: RawParameter[],
): ReferenceOperation {
  const tag = raw.tags?.[0] ?? 'Other';
  const schemas = componentSchemas(document);
  const parameters = [...itemParameters, ...(raw.parameters ?? [])]
    .map((parameter) =>
      parameter.$ref
        ? ((document.components as Record<string, Record<string, RawParameter>> | undefined)?.parameters?.[
            parameter.$ref.split('/').pop()!
          ] ?? parameter)
        : parameter,
    )
    .map((parameter) => {
      const schema = parameter.schema ?? {};
      const resolved = resolveSchema(schema, schemas).schema;
      return {
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true || parameter.in === 'path',
        description: parameter.description ?? resolved.description ?? '',
        deprecated: parameter.deprecated === true || resolved.deprecated === true,
        schema,
        ...(parameter.example !== undefined ? { example: parameter.example } : {}),
      };
    });
  const bodyMedia = firstMedia(raw.requestBody?.content);
  const body =
    raw.requestBody && bodyMedia
      ? {
          mediaType: bodyMedia[0],
          required: raw.requestBody.required === true,
          description: raw.requestBody.description ?? '',
          schema: bodyMedia[1].schema ?? {},
        }
      : null;
  const responses = Object.entries(raw.responses ?? {}).map(([status, response]) => {
    const media = firstMedia(response.content);
    return {
      status,
      description: response.description ?? '',
      mediaType: media?.[0] ?? null,
      schema: media?.[1].schema ?? null,
      ...(media && mediaExample(media[1]) !== undefined ? { example: mediaExample(media[1]) } : {}),
      headers: Object.keys(response.headers ?? {}),
    };
  });
  return {
    anchor: operationAnchor(tag, raw.operationId),
    tag,
    operationId: raw.operationId,
    method: method.toUpperCase(),
    path,
    summary: raw.summary ?? raw.operationId,
    description: raw.description ?? '',
    deprecated: raw.deprecated === true,
    security: (raw.security ?? (document.security as RawOperation['security']) ?? []).flatMap((requirement) =>
      Object.keys(requirement),
    ),
    parameters,
    body,
    responses,
  };
}

/** Every operation of the document, tags in the document's order, operations in path order. */
export function referenceTags(document: OpenApiDocument): ReferenceTag[] {
  const byTag = new Map<string, ReferenceTag>(
    (document.tags ?? []).map((tag) => [
      tag.name,
      { name: tag.name, anchor: tagAnchor(tag.name), description: tag.description ?? '', operations: [] },
    ]),
  );
  for (const [path, item] of Object.entries(document.paths)) {
    const itemParameters = (item as { parameters?: RawParameter[] }).parameters ?? [];
    for (const method of METHODS) {
      const raw = item[method] as RawOperation | undefined;
      if (!raw) continue;
      const operation = operationOf(document, path, method, raw, itemParameters);
      if (!byTag.has(operation.tag))
        byTag.set(operation.tag, {
          name: operation.tag,
          anchor: tagAnchor(operation.tag),
          description: '',
          operations: [],
        });
      byTag.get(operation.tag)!.operations.push(operation);
    }
  }
  return [...byTag.values()].filter((tag) => tag.operations.length > 0);
}

/**
 * The navigation's groups (`x-tagGroups`), each tag once; tags no group names go to a last group
 * "Other", so that every operation stays reachable.
 */
export function referenceGroups(
  document: OpenApiDocument,
  tags: ReferenceTag[] = referenceTags(document),
): ReferenceGroup[] {
  const byName = new Map(tags.map((tag) => [tag.name, tag]));
  const placed = new Set<string>();
  const groups: ReferenceGroup[] = [];
  for (const group of document['x-tagGroups'] ?? []) {
    const members = group.tags.flatMap((name) => {
      const tag = byName.get(name);
      if (!tag || placed.has(name)) return [];
      placed.add(name);
      return [tag];
    });
    if (members.length > 0) groups.push({ name: group.name, tags: members });
  }
  const rest = tags.filter((tag) => !placed.has(tag.name));
  if (rest.length > 0) groups.push({ name: groups.length > 0 ? 'Other' : 'Operations', tags: rest });
  return groups;
}
