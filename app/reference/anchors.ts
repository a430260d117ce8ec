/** The reference's anchors, in the usual reference format: a space in a tag name becomes `-`. */
export function tagAnchor(tag: string): string {
  return `tag/${tag.replaceAll(' ', '-')}`;
}

export function operationAnchor(tag: string, operationId: string): string {
  return `${tagAnchor(tag)}/operation/${operationId}`;
}
