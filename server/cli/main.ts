import 'reflect-metadata';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { systemClock } from '../../platform/time/clock.js';
import { DomainError } from '../../graphql/shared/errors.js';
import { ConfigError, loadConfig } from '../config.js';
import { migrate, openDatabase } from '../db/orm.js';
import { commands, UsageError } from './commands.js';

const booleanFlags = ['json', 'digital', 'internal', 'allowed-on-adage'];
const stringOptions = [
  'name',
  'siren',
  'siret',
  'street',
  'city',
  'postal-code',
  'latitude',
  'longitude',
  'offerer',
  'provider',
  'venue',
  'activity-domain',
  'label',
  'allowed',
  'booking-url',
  'cancel-url',
  'notification-url',
  'logo-url',
];
const cliOptions: ParseArgsConfig['options'] = Object.fromEntries<{ type: 'boolean' | 'string' }>([
  ...booleanFlags.map((flag): [string, { type: 'boolean' }] => [flag, { type: 'boolean' }]),
  ...stringOptions.map((option): [string, { type: 'string' }] => [option, { type: 'string' }]),
]);

function usage(): string {
  return [
    'Usage: npm run cli -- <command> [options] [--json]',
    '',
    ...Object.values(commands).map((c) => `  ${c.usage}`),
  ].join('\n');
}

function printHuman(result: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(result)) {
    if (Array.isArray(value)) {
      for (const row of value as Record<string, unknown>[])
        console.log(
          Object.entries(row)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(' '),
        );
    } else {
      console.log(`${name}: ${String(value)}`);
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(name ? `Unknown command: ${name}\n\n${usage()}` : usage());
    return 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: cliOptions,
    strict: true,
    allowPositionals: true,
  });
  const { json, ...options } = values as Record<string, string | boolean | undefined>;
  const config = loadConfig();
  const orm = await openDatabase(config.database);
  try {
    await migrate(orm);
    const result = await command.run(options, positionals, {
      em: orm.em.fork(),
      clock: systemClock,
      keyEnv: config.appEnv,
    });
    if (json) console.log(JSON.stringify(result));
    else printHuman(result);
    return 0;
  } finally {
    await orm.close();
  }
}

/**
 * One line for whatever stops a command, never a stack trace: a refusal of the domain says what
 * was refused; anything else (the database unreachable, a constraint met by a concurrent write)
 * gives its first line, for the operator to act on.
 */
function failureLine(error: unknown): string {
  if (error instanceof DomainError) return `Refused: ${error.message}`;
  if (error instanceof UniqueConstraintViolationException) return 'Refused: a record with the same identifier exists';
  const message = error instanceof Error ? error.message : String(error);
  return `Failed: ${message.split('\n')[0]}`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const badArguments = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (error instanceof UsageError || error instanceof ConfigError || badArguments)
      console.error(error instanceof Error ? error.message : error);
    else console.error(failureLine(error));
    process.exit(error instanceof UsageError || badArguments ? 2 : 1);
  },
);
