/** Neither database stores NUL in text: such text is refused (422) rather than failing the query. */
export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000)';

export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}
