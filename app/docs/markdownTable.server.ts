/** Text for a Markdown table cell: the characters Markdown would read as syntax are escaped. */
export function cell(text: string): string {
  return text.replace(/[\\|*_[\]<>`]/g, (character) => `\\${character}`).replace(/\s+/g, ' ');
}

/** A value shown as code: never escaped, since code spans take their text literally (but `|` ends a cell). */
export function codeCell(text: string): string {
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

/** A GitHub-flavoured Markdown table; cells are already Markdown (see cell and codeCell). */
export function markdownTable(headers: string[], rows: string[][]): string {
  return [
    `| ${headers.join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** "1 product", "3 products". */
export function count(value: number, singular: string, plural = `${singular}s`): string {
  return `${value} ${value === 1 ? singular : plural}`;
}
