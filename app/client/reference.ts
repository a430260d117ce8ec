/**
 * The reference page's behaviours, in a chunk of their own: doc pages never download them.
 * Each init is idempotent (a client-side navigation calls it again on the new body).
 */
export function initReference(root: ParentNode): void {
  void root;
}
