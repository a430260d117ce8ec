import type { OpenApiDocument, OpenApiOperation } from '../portalContext.js';

/** The reference's anchors, in the usual reference format: a space in a tag name becomes `-`. */
export function tagAnchor(tag: string): string {
  return `tag/${tag.replaceAll(' ', '-')}`;
}

export function operationAnchor(tag: string, operationId: string): string {
  return `${tagAnchor(tag)}/operation/${operationId}`;
}

export interface OutlineOperation {
  anchor: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  deprecated: boolean;
}

export interface OutlineTag {
  name: string;
  anchor: string;
  description: string;
  operations: OutlineOperation[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The document's operations grouped by tag, tags in the document's order, operations in path order. */
export function referenceOutline(document: OpenApiDocument): OutlineTag[] {
  const byTag = new Map<string, OutlineTag>(
    (document.tags ?? []).map((tag) => [tag.name, { name: tag.name, anchor: tagAnchor(tag.name), description: tag.description ?? '', operations: [] }]),
  );
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, { name: tag, anchor: tagAnchor(tag), description: '', operations: [] });
      byTag.get(tag)!.operations.push({
        anchor: operationAnchor(tag, operation.operationId),
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? operation.operationId,
        description: operation.description ?? '',
        deprecated: operation.deprecated === true,
      });
    }
  }
  return [...byTag.values()].filter((tag) => tag.operations.length > 0);
}
