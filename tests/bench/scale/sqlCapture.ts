import pg from 'pg';
import { withClient } from '../../support/pgClient.js';

/** One statement as the driver sent it: its text with `$n` placeholders, and its values. */
export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/**
 * Every statement this process sends to PostgreSQL while `run` runs (the ORM's, knex's and the
 * prepared ones all go through pg's Client), so that each can be explained afterwards.
 */
export async function captureStatements(run: () => Promise<void>): Promise<CapturedStatement[]> {
  const captured: CapturedStatement[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function capture(this: unknown, ...args: unknown[]) {
    const [config, values] = args;
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    const given = Array.isArray(values) ? values : ((config as { values?: unknown[] } | null)?.values ?? []);
    if (typeof text === 'string') captured.push({ text, values: given });
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    prototype.query = original;
  }
  return captured;
}

/** The statements worth a plan: reads and writes of rows, not transaction control or settings. */
export function explainable(statement: CapturedStatement): boolean {
  return (
    /^\s*(with|select|update|delete|insert)\b/i.test(statement.text) && !/pg_notify|pg_advisory/i.test(statement.text)
  );
}

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Sort Method'?: string;
  Plans?: PlanNode[];
}

/** What is wrong with a plan at this size: a whole large table read, or more rows sorted than a page. */
export function planProblems(plan: PlanNode, largeTables: ReadonlySet<string>, sortedRowsAtMost: number): string[] {
  const problems: string[] = [];
  const visit = (node: PlanNode) => {
    const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) + (node['Rows Removed by Filter'] ?? 0);
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && largeTables.has(node['Relation Name'])) {
      problems.push(`sequential scan of ${node['Relation Name']} (${rows} rows read)`);
    }
    if (node['Node Type'] === 'Sort') {
      const input = node.Plans?.[0];
      const sorted = input ? (input['Actual Rows'] ?? 0) * (input['Actual Loops'] ?? 1) : 0;
      if (sorted > sortedRowsAtMost) problems.push(`sort of ${sorted} rows`);
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan);
  return problems;
}

/** One line per node: the plan as EXPLAIN's text would show it, shortened. */
export function planOutline(plan: PlanNode, depth = 0): string[] {
  const relation = plan['Relation Name'] ? ` on ${plan['Relation Name']}` : '';
  const index = (plan as { 'Index Name'?: string })['Index Name'];
  const rows = plan['Actual Rows'] === undefined ? '' : ` (rows ${plan['Actual Rows']} x${plan['Actual Loops'] ?? 1})`;
  const lines = [`${'  '.repeat(depth)}${plan['Node Type']}${relation}${index ? ` using ${index}` : ''}${rows}`];
  for (const child of plan.Plans ?? []) lines.push(...planOutline(child, depth + 1));
  return lines;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement, run in a transaction rolled back, so that a
 * write's plan is measured without the write.
 */
/** A statement as `EXPLAIN ANALYZE` ran it: its plan and its execution time. */
export interface ExplainedStatement {
  text: string;
  plan: PlanNode;
  ms: number;
}

export function explainAll(url: string, statements: CapturedStatement[]): Promise<ExplainedStatement[]> {
  return withClient(url, async (client) => {
    const plans: ExplainedStatement[] = [];
    for (const statement of statements.filter(explainable)) {
      await client.query('BEGIN');
      try {
        const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`,
          statement.values,
        );
        const [explained] = result.rows[0]['QUERY PLAN'];
        plans.push({ text: statement.text, plan: explained.Plan, ms: explained['Execution Time'] });
      } finally {
        await client.query('ROLLBACK');
      }
    }
    return plans;
  });
}
