import { z } from 'zod';
import { type AppEnv, appEnvironments } from '../graphql/shared/appEnv.js';

/**
 * The one place that reads process.env. Everything else receives a typed Config,
 * so a bad value stops the process at boot with a message naming the variable.
 */
export type { AppEnv };

const configSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number (0 to 65535)')
    .transform(Number)
    .pipe(z.number().max(65535, 'must be a port number (0 to 65535)'))
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SQLITE_PATH: z.string().min(1).default('var/provider-platform.sqlite'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  APP_ENV: z.enum(appEnvironments).default('development'),
  GEOCODER_URL: z.url().optional(),
  IMAGE_DIRECTORY: z.string().min(1).default('var/images'),
  AUTO_APPROVAL_DELAY_SECONDS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of seconds')
    .transform(Number)
    .default(0),
  JOB_LEASE_SECONDS: z
    .string()
    .regex(/^[1-9]\d*$/, 'must be a whole number of seconds, at least 1')
    .transform(Number)
    .default(300),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  // Unset: its default depends on APP_ENV (see loadConfig).
  OUTBOUND_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
});

export interface Config {
  port: number;
  host: string;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgresql'; url: string };
  redisUrl?: string;
  /** An address search service (api-adresse style); unset: the offline municipality data. */
  geocoderUrl?: string;
  /** Where offer images are stored on disk. */
  imageDirectory: string;
  /** Outside production, the wait before a new offer is approved without a reviewer. */
  autoApprovalDelaySeconds: number;
  /**
   * How long a job may run without a sign of life (a step committed) before another worker
   * presumes its process dead and runs it again: the delay before a crashed job resumes.
   */
  jobLeaseSeconds: number;
  appEnv: AppEnv;
  publicUrl: string;
  logLevel: z.infer<typeof configSchema>['LOG_LEVEL'];
  workerEnabled: boolean;
  /**
   * Whether calls to providers' URLs may reach loopback, private, link-local and other
   * non-public addresses: true outside production by default (a sandbox receiver on 127.0.0.1),
   * false in production.
   */
  outboundAllowPrivate: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankAsUnset = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value === '' ? undefined : value]),
  );
  const parsed = configSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    database: values.DATABASE_URL
      ? { kind: 'postgresql', url: values.DATABASE_URL }
      : { kind: 'sqlite', path: values.SQLITE_PATH },
    redisUrl: values.REDIS_URL,
    geocoderUrl: values.GEOCODER_URL,
    imageDirectory: values.IMAGE_DIRECTORY,
    autoApprovalDelaySeconds: values.AUTO_APPROVAL_DELAY_SECONDS,
    jobLeaseSeconds: values.JOB_LEASE_SECONDS,
    appEnv: values.APP_ENV,
    publicUrl: values.PUBLIC_URL.replace(/\/$/, ''),
    logLevel: values.LOG_LEVEL,
    workerEnabled: values.WORKER_ENABLED,
    outboundAllowPrivate: values.OUTBOUND_ALLOW_PRIVATE ?? values.APP_ENV !== 'production',
  };
}
